// React islands' side of client/components/dialogEvents.ts: `onClose` runs with the result each time the modal
// `id` closes (e.g. useConfirmThenSubmit posts on the confirming answer).
import { useEffect, useLayoutEffect, useRef } from 'react';
import { onDialogClose, type DialogResult } from './dialogEvents.ts';

export function useDialogClose(id: string | undefined, onClose: (result: DialogResult) => void): void {
  const latest = useRef(onClose);
  // The listener calls the onClose of the latest render; a close event cannot arrive before this runs.
  useLayoutEffect(() => {
    latest.current = onClose;
  });
  useEffect(() => {
    if (!id) return;
    return onDialogClose(id, (result) => latest.current(result));
  }, [id]);
}
