// How islands talk to a modal of the dialog island (views/components/Dialog.tsx DialogModal), in DOM events: each island
// is a React root of its own, so they share no React tree:
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

export interface DialogOpenDetail {
  id: string;
  /** Set by the modal that opened (the event is dispatched synchronously). */
  opened?: boolean;
}

/** Asks the modal `id` to open; answers whether it is open now (false while its island has not hydrated yet). */
export function openDialog(id: string): boolean {
  const detail: DialogOpenDetail = { id };
  document.dispatchEvent(new CustomEvent(DIALOG_OPEN_EVENT, { detail }));
  return detail.opened === true;
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
