// A form post that navigates away (views/components/SubmitOnceForm.tsx), shared by the plain-DOM islands that send one
// (oidcContinue, signAgreements): from the click until the next page a spinner and its status text show, and a second
// click does not post again. Back with the browser's Back button restores the page from the cache, so the form works
// again then. No React (issue 23 item 5).
import { h } from './dom.ts';

export interface SubmitOnceProps {
  /** The status text while the next page loads. */
  pending: string;
}

export function enhanceSubmitOnce(el: HTMLElement, { pending }: SubmitOnceProps): void {
  const form = el.querySelector('form');
  const button = form?.querySelector('button[type=submit]');
  const status = form?.querySelector('.submit-once__status');
  if (!form || !button || !status) return;
  let submitted = false;
  const show = (loading: boolean) => {
    if (loading) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
    status.replaceChildren(...(loading ? [h('span', { className: 'spinner-text' }, h('span', { className: 'spinner', 'aria-hidden': 'true' }), pending)] : []));
  };
  form.addEventListener('submit', (e) => {
    if (submitted) {
      e.preventDefault();
      return;
    }
    submitted = true;
    show(true);
  });
  window.addEventListener('pageshow', (e) => {
    if (!e.persisted) return;
    submitted = false;
    show(false);
  });
}
