// The upload form of views/components/FileUpload.tsx: the fileUpload island, hydrated by
// client/islands/fileUploadIsland.tsx. Without JavaScript it is a plain multipart form
// (choose a file, press Upload). In the browser choosing a file uploads it at once, and a file over the
// size limit is refused before it is sent (the server checks both size and content again).
import { useRef, useState } from 'react';
import { CsrfField, useCsrfToken, withCsrfQuery } from './CsrfField.tsx';

export interface FileUploadFormProps {
  id: string;
  action: string;
  /** Hidden fields posted with the file (step, intent, the step's own fields). */
  fields: Record<string, string>;
  label: string;
  hint: string;
  button: string;
  uploading: string;
  /** The server's message for the last post, if it failed. */
  error: string | null;
  tooBig: string;
  maxBytes: number;
  accept: string;
}

export function FileUploadForm(props: FileUploadFormProps) {
  const { id, action, fields, label, hint, button, uploading, tooBig, maxBytes, accept } = props;
  const [error, setError] = useState(props.error);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // Multipart: the CSRF check runs before the body is parsed, so the token also rides in the query.
  const csrfToken = useCsrfToken();
  const errorId = `${id}-error`;
  return (
    <form
      ref={form}
      method="post"
      action={withCsrfQuery(action, csrfToken)}
      encType="multipart/form-data"
      className="file-upload__form"
      aria-busy={busy || undefined}
      onSubmit={() => setBusy(true)}
    >
      <CsrfField />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="field">
        <label htmlFor={`${id}-input`}>{label}</label>
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
        {/* The server's message is announced by the screen's error summary; one found here (too big) by this alert. */}
        {error && (
          <p id={errorId} className="field__error" role={error === props.error ? undefined : 'alert'}>
            {error}
          </p>
        )}
        <input
          type="file"
          id={`${id}-input`}
          name="file"
          accept={accept}
          required
          aria-describedby={error ? `${id}-hint ${errorId}` : `${id}-hint`}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (!file) return;
            if (file.size > maxBytes) {
              setError(tooBig);
              e.currentTarget.value = '';
              return;
            }
            setError(null);
            setBusy(true);
            form.current?.requestSubmit();
          }}
        />
      </div>
      <button type="submit" className="btn btn-secondary" disabled={busy}>
        {busy ? uploading : button}
      </button>
    </form>
  );
}
