// Account picker behaviour with JavaScript (customer-information.md §4.2). The server-rendered form
// already works on its own (the server applies every rule on post); this island renders nothing and
// only enhances it: EPK follows DEP/ASK, ticking DSK_DK/ESA_FI opens its confirmation modal
// (views/components/Dialog.tsx), Next keeps the box and records the confirmation in a hidden field,
// Cancel (or Esc) unticks it (ESA: with the warning), and the Danish campaign question's yes unticks
// and locks DSK while no opens the dialog. 'Read more' opens its content as a modal sheet (customer-information §2.3: a bottom
// sheet on small screens, a side drawer otherwise; the CSS of .sheet decides) instead of in place. Plain DOM, no
// React (issue 23 item 4).
import { DIALOG_CLOSE_EVENT, dialogCloseDetail, openDialog } from '../components/dialogEvents.ts';

export interface AccountPickerEnhancerProps {
  formId: string;
  exclusive: string[];
  campaign: boolean;
}

export default function enhanceAccountPicker(_el: HTMLElement, { formId, exclusive, campaign }: AccountPickerEnhancerProps): void {
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return;
  const box = (account: string) => form.querySelector<HTMLInputElement>(`input[type=checkbox][value="${account}"]`);
  const show = (id: string, shown: boolean) => {
    const el = document.getElementById(id);
    if (el) el.hidden = !shown;
  };
  const setConfirmed = (account: string, confirmed: boolean) => {
    form.querySelector(`input[name=confirmed][value="${account}"]`)?.remove();
    if (!confirmed) return;
    const hidden = document.createElement('input');
    Object.assign(hidden, { type: 'hidden', name: 'confirmed', value: account });
    form.append(hidden);
  };
  const openConfirmation = (account: string) => openDialog(`confirm-${account}`);

  const syncEpk = () => {
    const epk = box('EPK_NO');
    if (!epk) return;
    const allowed = ['DEP_NO', 'ASK_NO'].some((a) => box(a)?.checked);
    if (!allowed) epk.checked = false;
    epk.disabled = !allowed;
  };

  const onChange = (e: Event) => {
    const target = e.target;
    if (!(target instanceof HTMLInputElement)) return;
    if (target.type === 'checkbox') {
      syncEpk();
      const account = target.value;
      if (!exclusive.includes(account)) return;
      setConfirmed(account, false);
      show('esa-declined-warning', false);
      // In the Danish campaign the question decides first (CSS shows it while DSK is ticked).
      if (target.checked && !(campaign && account === 'DSK_DK')) openConfirmation(account);
    } else if (target.name === 'dskExisting') {
      const dsk = box('DSK_DK');
      if (!dsk) return;
      if (target.value === 'yes') {
        dsk.checked = false;
        dsk.disabled = true;
        show('dsk-existing-warning', true);
      } else {
        dsk.disabled = false;
        dsk.checked = true;
        show('dsk-existing-warning', false);
        openConfirmation('DSK_DK');
      }
    }
  };
  const onClose = (e: Event) => {
    const { id, result } = dialogCloseDetail(e) ?? {};
    const account = exclusive.find((a) => `confirm-${a}` === id);
    if (!account) return;
    const el = box(account);
    if (result === 'primary') {
      setConfirmed(account, true);
      return;
    }
    if (el) el.checked = false;
    setConfirmed(account, false);
    if (account === 'ESA_FI') show('esa-declined-warning', true);
    if (account === 'DSK_DK' && campaign) form.querySelectorAll<HTMLInputElement>('input[name=dskExisting]').forEach((r) => (r.checked = false));
  };
  const onReadMore = (e: MouseEvent) => {
    const summary = (e.target as Element | null)?.closest?.('details.read-more > summary');
    const sheet = document.getElementById(summary?.parentElement?.dataset.sheet ?? '');
    if (!summary || !(sheet instanceof HTMLDialogElement)) return;
    e.preventDefault();
    sheet.showModal();
    // Native modal: focus moves in and the page is inert; on close focus goes back to 'Read more'.
    sheet.addEventListener('close', () => (summary as HTMLElement).focus(), { once: true });
  };
  // A click on the backdrop (outside the sheet's box) closes it, as sheets do.
  const onBackdrop = (e: MouseEvent) => {
    const sheet = e.target;
    if (!(sheet instanceof HTMLDialogElement) || !sheet.classList.contains('sheet')) return;
    const r = sheet.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) sheet.close();
  };
  form.addEventListener('change', onChange);
  form.addEventListener('click', onReadMore);
  document.addEventListener('click', onBackdrop);
  document.addEventListener(DIALOG_CLOSE_EVENT, onClose);
  syncEpk();
}
