// The RESIDENCY compliance dialog on entering the residency step (customer-information.md §2.3, §4.7):
// the step's `dialog` screen. The server renders the dialog as the screen itself (what a browser without
// JavaScript shows: its Continue posts, and the address form follows) with the address form hidden
// behind it. Once this island runs, the screen gives way to the address form with the same dialog as a
// modal on top. Its Continue only closes the modal, and posts the dialog's answer in the background (the
// server moves on to the `address` screen), so a reload or Back does not open it again.
//
// Posting the address answers the dialog too (it did before there were screens): should the modal have
// been closed another way (Esc), or its answer still be on its way, the address form waits for the
// dialog's answer and then posts, so the server takes it as the `address` screen's.
import { useCallback, useEffect, useRef } from 'react';
import DialogModal, { openDialog, useDialogClose, type DialogProps } from './dialogIsland.tsx';
import { CSRF_FIELD, useCsrfToken } from '../../views/components/CsrfField.tsx';

export interface ResidencyDialogProps {
  dialog: DialogProps;
  /** The no-JS dialog screen, hidden once this runs. */
  screenId: string;
  /** The address form's container, shown once this runs. */
  contentId: string;
  /** Gets the focus when the modal closes (the address form's heading). */
  focusId: string;
}

export default function ResidencyDialog({ dialog, screenId, contentId, focusId }: ResidencyDialogProps) {
  const csrfToken = useCsrfToken();
  // The dialog's answer, posted once: the same post as the screen's Continue. If it fails, the server
  // still shows the dialog (the address post is then refused as stale, and the page shows it again).
  const answered = useRef<Promise<void> | null>(null);
  const { primary } = dialog;
  const answer = useCallback((): Promise<void> => {
    if (!('action' in primary)) return Promise.resolve();
    // The token as the form's own post carries it (server/csrfProtection.ts), for browsers that send no Origin.
    const body = new URLSearchParams({ ...primary.fields, ...(csrfToken ? { [CSRF_FIELD]: csrfToken } : {}) });
    answered.current ??= fetch(primary.action, { method: 'POST', body, redirect: 'manual', keepalive: true }).then(
      () => undefined,
      () => undefined,
    );
    return answered.current;
  }, [primary, csrfToken]);

  useDialogClose(dialog.id, (result) => {
    document.getElementById(focusId)?.focus();
    if (result === 'primary') void answer();
  });

  useEffect(() => {
    document.getElementById(screenId)?.setAttribute('hidden', '');
    document.getElementById(contentId)?.removeAttribute('hidden');
    // The modal's own effect (a child's, so it ran first) already listens for the open event.
    openDialog(dialog.id);
  }, [dialog.id, screenId, contentId]);

  useEffect(() => {
    const form = document.getElementById(contentId)?.querySelector('form');
    if (!form) return;
    let posting = false;
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault();
      if (posting) return;
      posting = true;
      // submit() fires no submit event: this listener does not run again.
      void answer().then(() => form.submit());
    };
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [contentId, answer]);

  return <DialogModal {...dialog} />;
}
