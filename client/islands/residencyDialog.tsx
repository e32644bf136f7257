// The RESIDENCY compliance dialog on entering the residency step (customer-information.md §2.3, §4.7).
// The server renders the dialog as the screen itself (what a browser without JavaScript shows: its
// Continue posts, and the address form follows) with the address form hidden behind it. Once this island
// runs, the screen gives way to the address form with the same dialog as a modal on top. Its Continue
// only closes the modal, and tells the server in the background that the dialog was answered, so a
// reload or Back does not open it again.
import { useEffect } from 'react';
import DialogModal, { openDialog, useDialogClose, type DialogProps } from './dialog.tsx';
import { CSRF_FIELD, useCsrfToken } from '../../views/components/CsrfField.tsx';

export interface ResidencyDialogProps {
  dialog: DialogProps;
  /** The no-JS dialog screen, hidden once this runs. */
  screenId: string;
  /** The address form, shown once this runs. */
  contentId: string;
  /** Gets the focus when the modal closes (the address form's heading). */
  focusId: string;
}

export default function ResidencyDialog({ dialog, screenId, contentId, focusId }: ResidencyDialogProps) {
  const csrfToken = useCsrfToken();
  useDialogClose(dialog.id, (result) => {
    document.getElementById(focusId)?.focus();
    const { primary } = dialog;
    if (result !== 'primary' || !('action' in primary)) return;
    // The same post as the screen's Continue; if it fails the dialog simply shows again next time.
    // The token as the form's own post carries it (server/csrf.ts), for browsers that send no Origin.
    const body = new URLSearchParams({ ...primary.fields, ...(csrfToken ? { [CSRF_FIELD]: csrfToken } : {}) });
    fetch(primary.action, { method: 'POST', body, redirect: 'manual', keepalive: true }).catch(() => undefined);
  });
  useEffect(() => {
    document.getElementById(screenId)?.setAttribute('hidden', '');
    document.getElementById(contentId)?.removeAttribute('hidden');
    // The modal's own effect (a child's, so it ran first) already listens for the open event.
    openDialog(dialog.id);
  }, [dialog.id, screenId, contentId]);
  return <DialogModal {...dialog} />;
}
