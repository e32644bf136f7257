// A form post that navigates away (to the identification broker, to the signing service): a plain form without
// JavaScript; with it the submitOnce island (client/islands/submitOnceIsland.tsx) hydrates the same form, which shows a
// spinner and its status text from the click until the next page, and a second click does not post again. Back with
// the browser's Back button restores the page from the cache, so the form works again then.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CsrfField } from './CsrfField.tsx';
import { Island } from './Island.tsx';

export interface SubmitOnceFormProps {
  action: string;
  /** Hidden fields posted with the button. */
  fields?: Record<string, string>;
  /** The form's own class (its page's), besides submit-once. */
  className: string;
  labels: { submit: string; pending: string };
}

/** The form (the submitOnce island's component). */
export function SubmitOnce({ action, fields = {}, className, labels }: SubmitOnceFormProps) {
  const [pending, setPending] = useState(false);
  // Read in the submit handler itself: a double click submits twice before React renders the first state.
  const submitted = useRef(false);

  useEffect(() => {
    const onPageShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      submitted.current = false;
      setPending(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    if (submitted.current) {
      e.preventDefault();
      return;
    }
    submitted.current = true;
    setPending(true);
  };

  return (
    <form method="post" action={action} className={`submit-once ${className}`} onSubmit={onSubmit}>
      <CsrfField />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="btn" aria-disabled={pending ? 'true' : undefined}>
        {labels.submit}
      </button>
      <p role="status" className="submit-once__status">
        {pending && (
          <span className="spinner-text">
            <span className="spinner" aria-hidden="true" />
            {labels.pending}
          </span>
        )}
      </p>
    </form>
  );
}

/** The submit-once form in a page: the submitOnce island. */
export function SubmitOnceForm(props: SubmitOnceFormProps) {
  return <Island name="submitOnce" component={SubmitOnce} props={props} />;
}
