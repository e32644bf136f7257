// The one way a plain-DOM island asks in a dialog before its form posts (the KYC question's PEP dialog;
// useConfirmThenSubmit.ts is the React islands' twin): Continue opens the modal instead of posting when the
// answer the form holds needs confirming; the confirming answer adds the confirmation to the form as a hidden field
// and posts it (after `delayMs`, e.g. the customer-information §9 700 ms for the dialog to close first); any other
// answer calls `onDecline`. Without JavaScript the form simply posts and the server shows the dialog as a screen of
// its own. No React (issue 23 item 4).
//
//   confirmThenSubmit(islandElement, { dialogId: 'fatca-dialog', confirmOn: 'primary', field: { name: 'intent', value: 'attest' },
//     needsConfirming: (form) => new FormData(form).get('liability') === 'usa' });
import { onDialogClose, openDialog, type DialogResult } from './dialogEvents.ts';
import { h } from './dom.ts';

export interface ConfirmThenSubmitOptions {
  dialogId: string;
  /** Read from the form on Continue, not kept in a variable: a choice made before the script ran counts too. */
  needsConfirming: (form: HTMLFormElement) => boolean;
  /** The dialog's answer that confirms; the other one declines. */
  confirmOn: DialogResult;
  /** The hidden field the confirmed post carries (e.g. intent=attest). */
  field?: { name: string; value: string };
  delayMs?: number;
  /** Runs on the confirming answer, before the post (e.g. to set an answer back). */
  onConfirm?: (form: HTMLFormElement) => void;
  onDecline?: (form: HTMLFormElement) => void;
}

/** Enhances the form the server rendered in `root` (an island's element). */
export function confirmThenSubmit(root: ParentNode, options: ConfirmThenSubmitOptions): void {
  const form = root.querySelector('form');
  if (!form) return;
  const { dialogId, field } = options;
  let confirmed = false;
  form.addEventListener('submit', (event) => {
    // Should the modal not be ready yet, the post goes on and the server shows the dialog's screen.
    if (!confirmed && options.needsConfirming(form) && openDialog(dialogId)) event.preventDefault();
  });
  onDialogClose(dialogId, (result) => {
    if (result !== options.confirmOn) {
      options.onDecline?.(form);
      return;
    }
    options.onConfirm?.(form);
    if (confirmed) return;
    confirmed = true;
    if (field) form.append(h('input', { type: 'hidden', name: field.name, value: field.value }));
    // submit() posts no button's value and fires no submit event: the listener above does not run again.
    setTimeout(() => form.submit(), options.delayMs ?? 0);
  });
}
