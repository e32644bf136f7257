// The files of a case-status task's form and its Send button (identification-routing-creation §2 "Application status page",
// §5; server/stages/caseStatus/). Without JavaScript it is part of the plain multipart form: a file input per slot (several
// files each), the files already stored with a Remove button, and Send; the server refuses a send without a file. In the
// browser each chosen file is uploaded at once on its own request, with a real progress bar (XMLHttpRequest upload
// progress, which a slow phone shows moving), and can be removed before sending; Send stays disabled until a file is stored.
import { useRef, useState } from 'react';
import { useCsrfToken, withCsrfQuery } from './CsrfField.tsx';
import { useHydrated } from '../../client/components/useHydrated.ts';
import { refusalIn, storedFilesIn, type CaseStoredFile } from '../../shared/caseStatusFilesAnswer.ts';
import { FileName } from './FileName.tsx';

export interface CaseFileSlot {
  /** The file input's name (`files`, or `file_<kind>` for a proof of address). */
  name: string;
  label: string;
  /** The proof-of-address kind the slot's files are, if any. */
  kind?: string;
}

export type { CaseStoredFile };

export interface CaseStatusFilesProps {
  /** Prefix of every element id (unique on the page). */
  id: string;
  action: string;
  taskId: string;
  actionId: string;
  slots: CaseFileSlot[];
  files: CaseStoredFile[];
  /** The server's message about the files (none chosen, one refused). */
  error: string | null;
  texts: { hint: string; uploaded: string; remove: string; uploading: string; tooBig: string; failed: string; send: string };
  maxBytes: number;
  accept: string;
}

interface Item {
  key: string;
  fileName: string;
  kind?: string;
  attachmentId?: string;
  /** 0…1 while uploading. */
  progress?: number;
  error?: string;
}

/** The server's list of stored files (the truth), then the files still uploading or refused, without `done`. */
const withStored = (list: Item[], files: CaseStoredFile[], done?: string): Item[] => [
  ...files.map((f) => ({ key: f.attachmentId, ...f })),
  ...list.filter((i) => i.key !== done && !i.attachmentId),
];

/** One chosen file: its name, its upload progress or why it was refused, and its Remove (a plain post without JavaScript). */
function FileItem({ item, texts, onRemove }: { item: Item; texts: CaseStatusFilesProps['texts']; onRemove: () => void }) {
  return (
    <li className="file-list__item">
      <FileName name={item.fileName} className="file-list__name" />
      {item.progress !== undefined && (
        <progress max={1} value={item.progress} aria-label={`${texts.uploading} ${item.fileName}`}>
          {Math.round(item.progress * 100)} %
        </progress>
      )}
      {item.error && (
        <span className="field__error" role="alert">
          {item.error}
        </span>
      )}
      {item.progress === undefined && (
        <button
          type="submit"
          name="remove"
          value={item.attachmentId ?? ''}
          className="file-list__remove link-button"
          formNoValidate
          onClick={(e) => {
            e.preventDefault();
            onRemove();
          }}
        >
          {texts.remove}
          <span className="visually-hidden"> {item.fileName}</span>
        </button>
      )}
    </li>
  );
}

/** The form's typed fields (server/stages/caseStatus/caseSubmission.ts taskForm). */
const typedFields = ['address', 'zipCode', 'city', 'comment'] as const;

export function CaseStatusFiles(props: CaseStatusFilesProps) {
  const { id, action, taskId, actionId, slots, texts, maxBytes, accept } = props;
  const enhanced = useHydrated();
  const csrf = useCsrfToken();
  const [items, setItems] = useState<Item[]>(() => props.files.map((f) => ({ key: f.attachmentId, ...f })));
  const [error, setError] = useState(props.error);
  const busy = items.some((i) => i.progress !== undefined);
  const stored = items.filter((i) => i.attachmentId).length;
  // Keys of the files chosen in this page (a stored file's key is its attachment id).
  const chosen = useRef(0);
  const queue = useRef<Promise<void>>(Promise.resolve());

  const update = (key: string, change: Partial<Item> | null) =>
    setItems((list) => (change ? list.map((i) => (i.key === key ? { ...i, ...change } : i)) : list.filter((i) => i.key !== key)));

  function upload(file: File, slot: CaseFileSlot) {
    chosen.current += 1;
    const key = `chosen-${chosen.current}`;
    if (file.size > maxBytes) {
      setItems((list) => [...list, { key, fileName: file.name, ...(slot.kind ? { kind: slot.kind } : {}), error: texts.tooBig }]);
      return;
    }
    setItems((list) => [...list, { key, fileName: file.name, ...(slot.kind ? { kind: slot.kind } : {}), progress: 0 }]);
    // One upload at a time: each holds the person's session lock while its bytes arrive, so side by side a slow phone's
    // second file would wait out the lock and be refused. The next starts when the one before has its answer.
    queue.current = queue.current.then(() => send(file, slot, key));
  }

  function send(file: File, slot: CaseFileSlot, key: string): Promise<void> {
    const body = new FormData();
    for (const [name, value] of Object.entries({ taskId, actionId, intent: 'upload', ...(slot.kind ? { kind: slot.kind } : {}) })) body.append(name, value);
    // What is typed in the form so far goes along: the server keeps it with the files (identifying again finds both).
    const form = (document.getElementById(`${id}-files`) as HTMLInputElement | null)?.form;
    for (const name of typedFields) {
      const field = form?.elements.namedItem(name);
      if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) body.append(name, field.value);
    }
    body.append('files', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', withCsrfQuery(action, csrf));
    xhr.setRequestHeader('accept', 'application/json');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) update(key, { progress: e.loaded / e.total });
    };
    return new Promise((resolve) => {
      xhr.onload = () => {
        const files = xhr.status === 200 ? storedFilesIn(xhr.response) : null;
        if (files) setItems((list) => withStored(list, files, key));
        else update(key, { progress: undefined, error: refusalIn(xhr.response) ?? texts.failed });
        resolve();
      };
      xhr.onerror = () => {
        update(key, { progress: undefined, error: texts.failed });
        resolve();
      };
      xhr.send(body);
    });
  }

  function remove(item: Item) {
    if (!item.attachmentId) return update(item.key, null);
    const body = new URLSearchParams({ _csrf: csrf, taskId, actionId, intent: 'remove', attachmentId: item.attachmentId });
    void fetch(action, { method: 'POST', body, headers: { accept: 'application/json' } })
      .then(async (res) => (res.ok ? storedFilesIn(await res.json()) : null))
      .then((files) => {
        if (files) setItems((list) => withStored(list, files));
        else setError(texts.failed);
      })
      .catch(() => setError(texts.failed));
  }

  const errorId = `${id}-files-error`;
  return (
    <>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
      {slots.map((slot, index) => {
        const inputId = `${id}-${index === 0 ? 'files' : `files-${index}`}`;
        const inSlot = items.filter((i) => i.kind === slot.kind);
        return (
          <div className="field" key={slot.name}>
            <label htmlFor={inputId}>{slot.label}</label>
            <p id={`${inputId}-hint`} className="field__hint">
              {texts.hint}
            </p>
            {inSlot.length > 0 && (
              <ul className="file-list" aria-label={`${texts.uploaded}: ${slot.label}`}>
                {inSlot.map((item) => (
                  <FileItem key={item.key} item={item} texts={texts} onRemove={() => remove(item)} />
                ))}
              </ul>
            )}
            <input
              type="file"
              id={inputId}
              name={slot.name}
              multiple
              accept={accept}
              aria-describedby={error ? `${inputId}-hint ${errorId}` : `${inputId}-hint`}
              aria-invalid={error ? true : undefined}
              onChange={(e) => {
                if (!enhanced) return;
                const picked = Array.from(e.currentTarget.files ?? []);
                // Uploaded on their own requests: the form's Send then carries no file.
                e.currentTarget.value = '';
                setError(null);
                for (const file of picked) upload(file, slot);
              }}
            />
          </div>
        );
      })}
      <button type="submit" name="intent" value="send" className="btn" disabled={enhanced && (stored === 0 || busy)}>
        {texts.send}
      </button>
    </>
  );
}
