// Continue on the DK/NO/FI identification pages: a plain form post to our server, which redirects to the
// identification broker. The island only adds the spinner while the browser loads the broker (identification-routing-creation §2
// "spinner while loading") and stops a second click from starting a second attempt.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CsrfField } from '../../views/components/CsrfField.tsx';

export interface OidcContinueProps {
  action: string;
  labels: { continue: string; redirecting: string };
}

export default function OidcContinue({ action, labels }: OidcContinueProps) {
  const [loading, setLoading] = useState(false);
  const submitted = useRef(false);

  // Coming back with the browser's Back button restores the page from the cache: show the button again.
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
    <form method="post" action={action} onSubmit={onSubmit} className="oidc-continue">
      <CsrfField />
      <button type="submit" className="btn" aria-disabled={loading ? 'true' : undefined}>
        {labels.continue}
      </button>
      <p role="status" className="oidc-continue__status">
        {loading && (
          <span className="spinner-text">
            <span className="spinner" aria-hidden="true" />
            {labels.redirecting}
          </span>
        )}
      </p>
    </form>
  );
}
