// The one way a React island asks in a dialog before its form posts (FATCA, CITIZENSHIP, PEP): Continue opens the
// modal instead of posting; the confirming answer renders the confirmation into the form and posts it (after `delayMs`,
// e.g. customer-information §9's 700 ms for the dialog to close first); any other answer calls `onDecline`. Without
// JavaScript the form simply posts and the server shows the dialog as a screen. Example: docs/islands.md "The dialog".
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { openDialog, type DialogResult } from './dialogEvents.ts';
import { useDialogClose } from './useDialogClose.ts';

export function useConfirmThenSubmit(dialogId: string, options: { confirmOn: DialogResult; delayMs?: number; onConfirm?: () => void; onDecline?: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [confirmed, setConfirmed] = useState(false);
  useDialogClose(dialogId, (result) => {
    if (result === options.confirmOn) {
      // E.g. the KYC question sets the PEP answer back to no: rendered in the same pass, before the post.
      options.onConfirm?.();
      setConfirmed(true);
    } else options.onDecline?.();
  });
  // Posted once the confirmation is rendered into the form (submit() posts no button's value).
  const delayMs = options.delayMs ?? 0;
  useEffect(() => {
    if (!confirmed) return;
    const timer = setTimeout(() => form.current?.submit(), delayMs);
    return () => clearTimeout(timer);
  }, [confirmed, delayMs]);
  /** For the form's onSubmit: when the answer needs confirming, open the dialog instead of posting. */
  const askFirst = (event: FormEvent<HTMLFormElement>, needsConfirming: boolean) => {
    // Should the modal not be ready yet, the post goes on and the server shows the dialog's screen.
    if (needsConfirming && !confirmed && openDialog(dialogId)) event.preventDefault();
  };
  return { form, confirmed, askFirst };
}
