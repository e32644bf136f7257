// Customer creation progress. The server renders the current outcome (and, without JavaScript, the page
// refreshes itself); in the browser the island listens to server-sent `creation` events and swaps the
// view, then moves on to `redirectTo` after a short pause so the user can read the outcome.
import { useEffect, useState } from 'react';
import { CsrfField } from '../../views/components/CsrfField.tsx';
import { parseCreationView, type CreationView } from '../../shared/creationView.ts';

export type { CreationView };

export interface CreationStatusProps {
  eventsUrl: string;
  view: CreationView;
}

/** Time to read the outcome before a redirect. */
export const REDIRECT_DELAY_MS = 1500;
/** When the browser gives up on the stream (an HTTP error), reload to get the server-rendered state. */
const RELOAD_AFTER_STREAM_FAILURE_MS = 5000;

export default function CreationStatus({ eventsUrl, view: initial }: CreationStatusProps) {
  const [view, setView] = useState(initial);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const redirectSoon = (to: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => location.assign(to), REDIRECT_DELAY_MS);
    };
    if (initial.redirectTo) {
      redirectSoon(initial.redirectTo);
      return () => clearTimeout(timer);
    }
    // The browser reconnects by itself after a dropped connection (sending Last-Event-ID), so errors
    // are left to it; only a stream it has given up on (readyState CLOSED) needs help.
    const source = new EventSource(eventsUrl);
    source.addEventListener('creation', (event) => {
      // The server's view contract (shared/creationView.ts); an event that does not match it is ignored.
      const next = parseCreationView((event as MessageEvent<string>).data);
      if (!next) return;
      setView(next);
      if (next.redirectTo) {
        source.close();
        redirectSoon(next.redirectTo);
      }
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(timer);
        timer = setTimeout(() => location.reload(), RELOAD_AFTER_STREAM_FAILURE_MS);
      }
    });
    return () => {
      source.close();
      clearTimeout(timer);
    };
  }, [eventsUrl, initial.redirectTo]);

  return (
    <div className={`creation creation--${view.tone}`}>
      {/* One atomic live region: a new outcome is read out as title plus text. */}
      <div className="creation__status" role="status" aria-live="polite" aria-atomic="true">
        {view.spinner && <span className="spinner spinner--large" aria-hidden="true" />}
        <h1 className="creation__title">{view.title}</h1>
        <p className="creation__body">{view.body}</p>
      </div>
      {view.formLink && (
        <p>
          <a href={view.formLink.url}>{view.formLink.label}</a>
        </p>
      )}
      {view.action?.kind === 'link' && (
        <p className="actions">
          <a className="btn" href={view.action.url}>
            {view.action.label}
          </a>
          {view.appLink && (
            <a className="btn btn-secondary" href={view.appLink.url}>
              {view.appLink.label}
            </a>
          )}
        </p>
      )}
      {view.action?.kind === 'post' && (
        <form method="post" action={view.action.url} className="actions">
          <CsrfField />
          <button type="submit" className="btn">
            {view.action.label}
          </button>
        </form>
      )}
    </div>
  );
}
