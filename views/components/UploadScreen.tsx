// The one upload screen of the customer-information steps (customer-information.md §5 "Files"):
// citizenship proof per country, the residency documents, proof of tax residence. A card per slot with
// its files and upload form (FileUpload: pick, upload, remove after "Do you want to remove this file?"),
// and Continue, enabled once every required slot has a file. The server side is uploadScreen in
// server/stages/customerInformation/uploads.ts; `removal` is the no-JS confirmation of a removal.
import type { ReactNode } from 'react';
import type { Translate } from '../../shared/i18n.ts';
import type { UploadedFileRef } from '../../shared/citizenship.ts';
import { FileUpload, removeFileDialog } from './FileUpload.tsx';
import { ScreenFields, type ScreenFieldValues } from './ScreenForm.tsx';
import { ErrorSummary } from './ErrorSummary.tsx';
import { Dialog } from './Dialog.tsx';

export interface UploadSlotView {
  key: string;
  /** The card's heading, or none for a single slot without one. */
  title?: string;
  label: string;
  files: readonly UploadedFileRef[];
  error?: string;
}

export interface UploadScreenProps {
  t: Translate;
  /** Prefixes element ids: `${id}-title`, `${id}-missing`, `${id}-${slot}`. */
  id: string;
  title: string;
  intro: ReactNode;
  action: string;
  fields: ScreenFieldValues;
  slots: readonly UploadSlotView[];
  /** Continue is enabled (every required slot has a file). */
  complete: boolean;
  /** Shown under Continue while it is disabled. */
  missing?: string;
  continueLabel: string;
  /** The no-JS removal link of a file. */
  removeHref: (slot: string, attachmentId: string) => string;
  error?: string;
  /** Extra fields of the Continue form (e.g. the script marker island). */
  finishExtra?: ReactNode;
}

export function UploadScreen(props: UploadScreenProps) {
  const { t, id, action, fields, complete } = props;
  const missingId = `${id}-missing`;
  const uploadErrors = props.slots.flatMap((s) => (s.error ? [[`${id}-${s.key}-input`, s.error] as const] : []));
  return (
    <section aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{props.title}</h1>
      {props.intro}
      <ErrorSummary t={t} errors={[...(props.error ? [[null, props.error] as const] : []), ...uploadErrors]} />
      {props.slots.map((slot) => {
        const upload = (
          <FileUpload
            t={t}
            id={`${id}-${slot.key}`}
            label={slot.label}
            action={action}
            fields={{ ...fields, slot: slot.key }}
            files={slot.files}
            removeHref={(attachmentId) => props.removeHref(slot.key, attachmentId)}
            error={slot.error ?? null}
          />
        );
        return slot.title ? (
          <section key={slot.key} className="card proof-card" aria-labelledby={`${id}-${slot.key}-title`}>
            <h2 id={`${id}-${slot.key}-title`}>{slot.title}</h2>
            {upload}
          </section>
        ) : (
          <div key={slot.key}>{upload}</div>
        );
      })}
      <form method="post" action={action}>
        <ScreenFields fields={fields} />
        <input type="hidden" name="intent" value="finish" />
        {props.finishExtra}
        {!complete && props.missing && (
          <p id={missingId} className="field__hint">
            {props.missing}
          </p>
        )}
        <button type="submit" className="btn" disabled={!complete} aria-describedby={complete || !props.missing ? undefined : missingId}>
          {props.continueLabel}
        </button>
      </form>
    </section>
  );
}

/** Without JavaScript: "Do you want to remove this file?" as a screen of its own. */
export function RemoveFileScreen(props: { t: Translate; action: string; fields: ScreenFieldValues; slot: string; file: UploadedFileRef; keepHref: string }) {
  return (
    <Dialog
      {...removeFileDialog(props.t, {
        id: 'remove-file-dialog',
        action: props.action,
        fields: { ...props.fields, slot: props.slot },
        file: props.file,
        keepHref: props.keepHref,
      })}
    />
  );
}
