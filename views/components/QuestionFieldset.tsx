// One question per screen as a fieldset: the legend is the page's heading, and a refused answer's
// message sits under it, announced (role=alert) and tied to the fieldset (aria-describedby). Shared by
// the single-question forms (tax liability, citizenship choice, the country select).
import type { ReactNode } from 'react';

export function QuestionFieldset({ id, legend, error, children }: { id: string; legend: string; error?: string | null; children: ReactNode }) {
  const errorId = `${id}-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend>
        <h1>{legend}</h1>
      </legend>
      {error && (
        <p id={errorId} className="error-summary" role="alert">
          {error}
        </p>
      )}
      {children}
    </fieldset>
  );
}
