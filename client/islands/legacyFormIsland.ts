// The legacy form's sensitive answers as modals (customer-information §4.10): choosing USA/other tax liability,
// another citizenship or residency, PEP yes, or no to investment risk opens its dialog at once (a modal
// rendered by the dialog island); its primary action puts the answer back to the harmless one, right in the
// form, so nothing typed is lost. Cancel keeps the answer, which the server then refuses to sign with (and
// shows the dialog again as a screen). Without JavaScript this island does nothing: the post does it all.
// Plain DOM, no React (issue 23 item 4).
import { DIALOG_CLOSE_EVENT, dialogCloseDetail, openDialog } from '../components/dialogEvents.ts';

export interface LegacyDialogWatcher {
  /** The form field (radio group or select) whose answer opens the dialog. */
  name: string;
  /** The answers that open it. */
  sensitive: string[];
  /** What the dialog's primary action sets the field to. */
  resetTo: string;
  /** The modal's id. */
  dialogId: string;
}

function setAnswer(name: string, value: string): void {
  for (const el of document.getElementsByName(name)) {
    if (el instanceof HTMLInputElement && el.type === 'radio') el.checked = el.value === value;
    if (el instanceof HTMLSelectElement) el.value = value;
  }
}

export default function enhanceLegacyForm(_el: HTMLElement, { watchers }: { watchers: LegacyDialogWatcher[] }): void {
  const onChange = (e: Event) => {
    const target = e.target;
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
    if (target instanceof HTMLInputElement && !target.checked) return;
    const watcher = watchers.find((w) => w.name === target.name);
    if (watcher?.sensitive.includes(target.value)) openDialog(watcher.dialogId);
  };
  const onClose = (e: Event) => {
    const detail = dialogCloseDetail(e);
    const watcher = watchers.find((w) => w.dialogId === detail?.id);
    if (!watcher || detail?.result !== 'primary') return;
    setAnswer(watcher.name, watcher.resetTo);
  };
  document.addEventListener('change', onChange);
  document.addEventListener(DIALOG_CLOSE_EVENT, onClose);
}
