// Milestone three after the signing page has been opened (customer-information §4.8): "I have signed" posts a
// customer-creation check (the server's form, views/pages/CustomerInformationPageView.tsx SignedCheckForm), and on
// success the person continues to customer creation. This script posts the check by itself when the page becomes
// visible again (the person signed in another tab or app and came back), marked `auto` so that a person who has not
// signed yet just sees the page again, without a message. Plain DOM, no React (issue 23 item 5).

export default function enhanceSignedCheck(el: HTMLElement): void {
  const form = el.querySelector('form');
  const auto = form?.querySelector<HTMLInputElement>('input[name=auto]');
  if (!form || !auto) return;
  let hidden = document.visibilityState === 'hidden';
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') {
      hidden = true;
      return;
    }
    if (!hidden) return;
    hidden = false;
    auto.disabled = false;
    form.requestSubmit();
  });
}
