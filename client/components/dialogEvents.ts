// How islands talk to a modal of the dialog island (client/islands/dialogIsland.ts), in plain DOM events so
// that the dialog needs no React (issue 23 item 4: a page whose only interaction is a dialog ships ≤ 10 KB):
//   openDialog(id)                                   opens it (answers whether it is open now)
//   onDialogClose(id, (result) => …)                 how it was closed, each time
// where result is 'primary' or 'secondary' (Esc counts as 'secondary').

export type DialogResult = 'primary' | 'secondary';

export const DIALOG_OPEN_EVENT = 'dialog:open';
export const DIALOG_CLOSE_EVENT = 'dialog:close';

export interface DialogCloseDetail {
  id: string;
  result: DialogResult;
}

/** Asks the modal `id` to open; answers whether it is open now (false while its script has not run yet). */
export function openDialog(id: string): boolean {
  document.dispatchEvent(new CustomEvent(DIALOG_OPEN_EVENT, { detail: { id } }));
  return (document.getElementById(id) as HTMLDialogElement | null)?.open ?? false;
}

/** Tells every listener how the modal `id` was closed. */
export function reportDialogClose(detail: DialogCloseDetail): void {
  document.dispatchEvent(new CustomEvent(DIALOG_CLOSE_EVENT, { detail }));
}

/** The id and result of a close event, or null for an event that is not one. */
export function dialogCloseDetail(event: Event): DialogCloseDetail | null {
  const detail = (event as CustomEvent<Partial<DialogCloseDetail> | null>).detail;
  return detail?.id && detail.result ? { id: detail.id, result: detail.result } : null;
}

/** Calls `onClose` each time the modal `id` closes; answers the function that stops listening. */
export function onDialogClose(id: string, onClose: (result: DialogResult) => void): () => void {
  const listener = (event: Event) => {
    const detail = dialogCloseDetail(event);
    if (detail?.id === id) onClose(detail.result);
  };
  document.addEventListener(DIALOG_CLOSE_EVENT, listener);
  return () => document.removeEventListener(DIALOG_CLOSE_EVENT, listener);
}

/** The marks views/components/Dialog.tsx puts in a modal's markup for the dialog script. */
/** On a control that only closes the modal, with the result it reports. */
export const DIALOG_RESULT_ATTRIBUTE = 'data-dialog-result';
/** On the primary action while the modal's checkbox must be ticked first (a link keeps its target in data-href). */
export const DIALOG_GATED_ATTRIBUTE = 'data-dialog-gated';
