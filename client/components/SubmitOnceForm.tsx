// A form post that navigates away (to the identification broker, to the signing service), shared by the
// islands that send one: from the click until the next page a spinner and its status text show, and a second
// click does not post again. Back with the browser's Back button restores the page from the cache, so the
// form works again then. Without JavaScript it is the same plain form.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CsrfField } from '../../views/components/CsrfField.tsx';

export interface SubmitOnceFormProps {
  action: string;
  /** Hidden fields posted with the button. */
  fields?: Record<string, string>;
  /** The form's own class (the island's), besides submit-once. */
  className: string;
  labels: { submit: string; pending: string };
}

export function SubmitOnceForm({ action, fields = {}, className, labels }: SubmitOnceFormProps) {
  const [loading, setLoading] = useState(false);
  const submitted = useRef(false);

  useEffect(() => {
    const reset = (e: PageTransitionEvent) => {
      if (e.persisted) {
        submitted.current = false;
        setLoading(false);
      }
    };
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    if (submitted.current) {
      e.preventDefault();
      return;
    }
    submitted.current = true;
    setLoading(true);
  };

  return (
    <form method="post" action={action} onSubmit={onSubmit} className={`submit-once ${className}`}>
      <CsrfField />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="btn" aria-disabled={loading ? 'true' : undefined}>
        {labels.submit}
      </button>
      <p role="status" className="submit-once__status">
        {loading && (
          <span className="spinner-text">
            <span className="spinner" aria-hidden="true" />
            {labels.pending}
          </span>
        )}
      </p>
    </form>
  );
}
