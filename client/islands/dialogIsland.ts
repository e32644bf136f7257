// The dialog island without React (customer-information.md §2.2 abort modal, §2.3 compliance dialogs, §4.2/§5
// DSK and ESA confirmations): makes the closed native <dialog> that views/components/Dialog.tsx ModalDialog
// rendered a modal. showModal gives the focus trap, the inert page and ::backdrop; Esc ('cancel') counts as the
// secondary action; focus goes back to the opener on close. A page whose only interaction is a dialog so
// ships a few KB instead of React (issue 23 item 4). Other islands open it and hear how it closed through
// client/components/dialogEvents.ts.
import type { DialogScriptProps } from '../../views/components/Dialog.tsx';
import { DIALOG_GATED_ATTRIBUTE, DIALOG_OPEN_EVENT, DIALOG_RESULT_ATTRIBUTE, reportDialogClose, type DialogResult } from '../components/dialogEvents.ts';

/** The primary action follows the box: enabled (a link with its target back) only while it is ticked. */
function gate(controls: HTMLElement[], ticked: boolean): void {
  for (const el of controls) {
    if (el instanceof HTMLButtonElement) el.disabled = !ticked;
    else if (ticked) {
      el.setAttribute('href', el.dataset.href ?? '');
      el.removeAttribute('aria-disabled');
      el.removeAttribute('role');
    } else {
      el.removeAttribute('href');
      el.setAttribute('aria-disabled', 'true');
      el.setAttribute('role', 'link');
    }
  }
}

export default function enhanceDialog(root: HTMLElement, { id, openers, openOnLoad }: DialogScriptProps): void {
  const dialog = document.getElementById(id);
  if (!(dialog instanceof HTMLDialogElement) || !root.contains(dialog)) return;
  const box = document.getElementById(`${id}-checkbox`);
  const checkbox = box instanceof HTMLInputElement && dialog.contains(box) ? box : null;
  const gated = [...dialog.querySelectorAll<HTMLElement>(`[${DIALOG_GATED_ATTRIBUTE}]`)];
  let returnFocus: HTMLElement | null = null;

  const open = () => {
    if (dialog.open) return;
    returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Each opening asks afresh: the box starts unticked.
    if (checkbox) checkbox.checked = false;
    gate(gated, false);
    dialog.showModal();
  };
  const close = (result: DialogResult) => {
    dialog.close();
    returnFocus?.focus();
    reportDialogClose({ id, result });
  };

  document.addEventListener(DIALOG_OPEN_EVENT, (e) => {
    if ((e as CustomEvent<{ id?: string } | null>).detail?.id === id) open();
  });
  for (const opener of openers ?? []) {
    document.getElementById(opener)?.addEventListener('click', (e) => {
      e.preventDefault();
      open();
    });
  }
  checkbox?.addEventListener('change', () => gate(gated, checkbox.checked));
  dialog.addEventListener('click', (e) => {
    const control = (e.target as Element | null)?.closest?.(`[${DIALOG_RESULT_ATTRIBUTE}]`);
    const result = control?.getAttribute(DIALOG_RESULT_ATTRIBUTE);
    if (result === 'primary' || result === 'secondary') close(result);
  });
  // Esc fires 'cancel': treat it as the secondary action (so e.g. a cancelled DSK box is unticked).
  dialog.addEventListener('cancel', (e) => {
    e.preventDefault();
    close('secondary');
  });
  if (openOnLoad) open();
}
