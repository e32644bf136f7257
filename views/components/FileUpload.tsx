// Reusable file upload (customer-information.md §5 "Files"): the files uploaded so far, each with a Remove that asks
// 'Do you want to remove this file?' (a modal with JS, its own screen without), and the upload form (the fileUpload
// island, views/components/FileUploadForm.tsx); the no-JS confirmation screen is <Dialog {...removeFileDialog(t, …)} />.
//   <FileUpload t={t} id="proof-NO" label={…} action={ctx.action} fields={{ step: 'CITIZENSHIP_STEP', country: 'NO' }}
//     files={answers.attachments.NO ?? []} removeHref={(id) => `${ctx.basePath}?remove=${id}&country=NO`} />
import type { Translate } from '../../shared/i18n.ts';
import type { UploadedFileRef } from '../../shared/citizenship.ts';
import { MAX_FILE_BYTES } from '../../shared/files.ts';
import { Island } from './Island.tsx';
import { FileName } from './FileName.tsx';
import { FileUploadForm } from './FileUploadForm.tsx';
import { ModalDialog, type DialogProps } from './Dialog.tsx';

export interface FileUploadProps {
  t: Translate;
  /** Unique on the page; prefixes every element id. */
  id: string;
  label: string;
  action: string;
  /** Hidden fields of both the upload and the removal post (at least `step`). */
  fields: Record<string, string>;
  files: readonly UploadedFileRef[];
  /** The no-JS confirmation screen of removing a file. */
  removeHref: (attachmentId: string) => string;
  error?: string | null;
}

/** The removal question; primary posts intent=remove, secondary goes back (`keepHref`) or, as a modal, just closes. */
export function removeFileDialog(
  t: Translate,
  options: { id: string; action: string; fields: Record<string, string>; file: UploadedFileRef; keepHref: string; openers?: string[] },
): DialogProps {
  return {
    id: options.id,
    title: t('fileUpload.remove.title'),
    text: [options.file.name],
    primary: {
      label: t('fileUpload.remove.yes'),
      action: options.action,
      fields: { ...options.fields, intent: 'remove', attachmentId: options.file.attachmentId },
    },
    secondary: { label: t('fileUpload.remove.no'), href: options.keepHref },
    ...(options.openers ? { openers: options.openers } : {}),
  };
}

export function FileUpload({ t, id, label, action, fields, files, removeHref, error = null }: FileUploadProps) {
  return (
    <div className="file-upload">
      {files.length > 0 && (
        <ul className="file-list" aria-label={t('fileUpload.uploaded')}>
          {files.map((file, index) => {
            const removeId = `${id}-remove-${index}`;
            return (
              <li key={file.attachmentId} className="file-list__item">
                <FileName name={file.name} className="file-list__name" />
                <a id={removeId} className="file-list__remove" href={removeHref(file.attachmentId)}>
                  {t('fileUpload.remove')}
                  <span className="visually-hidden"> {file.name}</span>
                </a>
                <ModalDialog
                  {...removeFileDialog(t, { id: `${removeId}-dialog`, action, fields, file, keepHref: removeHref(file.attachmentId), openers: [removeId] })}
                />
              </li>
            );
          })}
        </ul>
      )}
      <Island
        name="fileUpload"
        component={FileUploadForm}
        props={{
          id,
          action,
          fields: { ...fields, intent: 'upload' },
          label,
          hint: t('fileUpload.hint'),
          button: t('fileUpload.button'),
          uploading: t('fileUpload.uploading'),
          error,
          tooBig: t('fileUpload.error.tooBig'),
          maxBytes: MAX_FILE_BYTES,
          accept: '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg',
        }}
      />
    </div>
  );
}
