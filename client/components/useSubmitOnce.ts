// A form post that navigates away (to the identification broker, to the signing service): loading shows from
// the click until the next page, and a second click does not post again. Coming back with the browser's Back
// button restores the page from the cache, so the form works again then.
import { useEffect, useRef, useState, type FormEvent } from 'react';

export function useSubmitOnce(): { loading: boolean; onSubmit: (e: FormEvent<HTMLFormElement>) => void } {
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
  return { loading, onSubmit };
}
