// The RESIDENCY compliance dialog on entering the residency step (customer-information.md §2.3, §4.7):
// the step's `dialog` screen. The server renders the dialog as the screen itself (what a browser without
// JavaScript shows: its Continue posts, and the address form follows) with the address form hidden
// behind it, and the same dialog as a closed modal (views/components/Dialog.tsx ModalDialog). Once this
// script runs, the screen gives way to the address form with the modal on top. Its Continue only closes the
// modal, and posts the dialog's answer in the background (the server moves on to the `address` screen), so a
// reload or Back does not open it again. Plain DOM, no React (issue 23 item 4).
//
// Posting the address answers the dialog too (it did before there were screens): should the modal have
// been closed another way (Esc), or its answer still be on its way, the address form waits for the
// dialog's answer and then posts, so the server takes it as the `address` screen's.
import type { DialogAction } from '../../views/components/Dialog.tsx';
import { onDialogClose, openDialog } from '../components/dialogEvents.ts';
import { CSRF_FIELD, readCsrfToken } from '../components/csrfToken.ts';

export interface ResidencyDialogProps {
  /** The modal's id, and what its primary action posts. */
  dialogId: string;
  primary: DialogAction;
  /** The no-JS dialog screen, hidden once this runs. */
  screenId: string;
  /** The address form's container, shown once this runs. */
  contentId: string;
  /** Gets the focus when the modal closes (the address form's heading). */
  focusId: string;
}

export default function enhanceResidencyDialog(_el: HTMLElement, { dialogId, primary, screenId, contentId, focusId }: ResidencyDialogProps): void {
  // The dialog's answer, posted once: the same post as the screen's Continue. If it fails, the server
  // still shows the dialog (the address post is then refused as stale, and the page shows it again).
  let answered: Promise<void> | null = null;
  const answer = (): Promise<void> => {
    if (!('action' in primary)) return Promise.resolve();
    const csrfToken = readCsrfToken();
    // The token as the form's own post carries it (server/csrfProtection.ts), for browsers that send no Origin.
    const body = new URLSearchParams({ ...primary.fields, ...(csrfToken ? { [CSRF_FIELD]: csrfToken } : {}) });
    answered ??= fetch(primary.action, { method: 'POST', body, redirect: 'manual', keepalive: true }).then(
      () => undefined,
      () => undefined,
    );
    return answered;
  };

  onDialogClose(dialogId, (result) => {
    document.getElementById(focusId)?.focus();
    if (result === 'primary') void answer();
  });

  document.getElementById(screenId)?.setAttribute('hidden', '');
  document.getElementById(contentId)?.removeAttribute('hidden');
  // The dialog script comes first on the page (its modal is rendered first); should it not have run yet, it
  // has by DOMContentLoaded (module scripts all run before it).
  if (!openDialog(dialogId)) document.addEventListener('DOMContentLoaded', () => openDialog(dialogId), { once: true });

  const form = document.getElementById(contentId)?.querySelector('form');
  let posting = false;
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    if (posting) return;
    posting = true;
    // submit() fires no submit event: this listener does not run again.
    void answer().then(() => form.submit());
  });
}
