// Customer creation progress (identification-routing-creation §2 "Customer creation screens"): the current outcome,
// as the server renders it. Without JavaScript the page refreshes itself; with it the creationStatus island
// (client/islands/creationStatusIsland.tsx) hydrates the same component, which listens to the server-sent `creation`
// events and renders each new outcome, then moves on to `redirectTo` after a short pause so the person can read it.
import { useEffect, useState } from 'react';
import { parseCreationView, type CreationView } from '../../shared/creationView.ts';
import { CsrfField } from './CsrfField.tsx';
import { Island } from './Island.tsx';

export type { CreationView };

/** The island's props: where the events come from and the outcome the server rendered. */
export interface CreationStatusProps {
  eventsUrl: string;
  view: CreationView;
}

/** Time to read the outcome before a redirect. */
export const REDIRECT_DELAY_MS = 1500;
/** When the browser gives up on the stream (an HTTP error), reload to get the server-rendered state. */
const RELOAD_AFTER_STREAM_FAILURE_MS = 5000;

/**
 * The outcome's markup. Its children keep their places whatever the outcome (a part not shown leaves an empty slot),
 * so the live region stays the same element and a new outcome is read out.
 */
export function CreationStatusMarkup({ view }: { view: CreationView }) {
  return (
    // data-outcome: the outcome shown, for machines (the soak's and the tests' reading of the page), not styled.
    <div className={`creation creation--${view.tone}`} data-outcome={view.outcome}>
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
          {/* The done screen's Continue posts (it hands the login over); "Start using the app" stays a link beside it. */}
          {view.appLink && (
            <a className="btn btn-secondary" href={view.appLink.url}>
              {view.appLink.label}
            </a>
          )}
        </form>
      )}
    </div>
  );
}

/** The outcome, kept up to date from the server-sent `creation` events: the creationStatus island's component. */
export function CreationStatusLive({ eventsUrl, view: rendered }: CreationStatusProps) {
  const [view, setView] = useState(rendered);
  const renderedRedirect = rendered.redirectTo;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = (ms: number, then: () => void) => {
      clearTimeout(timer);
      timer = setTimeout(then, ms);
    };
    // The outcome the server rendered already moves on: no need to listen.
    if (renderedRedirect) {
      soon(REDIRECT_DELAY_MS, () => location.assign(renderedRedirect));
      return () => clearTimeout(timer);
    }
    // The browser reconnects by itself after a dropped connection (sending Last-Event-ID), so errors are left to it;
    // only a stream it has given up on (readyState CLOSED) needs help.
    const source = new EventSource(eventsUrl);
    source.addEventListener('creation', (event) => {
      // The server's view contract (shared/creationView.ts); an event that does not match it is ignored.
      const next = parseCreationView((event as MessageEvent<string>).data);
      if (!next) return;
      setView(next);
      const to = next.redirectTo;
      if (to) {
        source.close();
        soon(REDIRECT_DELAY_MS, () => location.assign(to));
      }
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) soon(RELOAD_AFTER_STREAM_FAILURE_MS, () => location.reload());
    });
    return () => {
      source.close();
      clearTimeout(timer);
    };
  }, [eventsUrl, renderedRedirect]);

  return <CreationStatusMarkup view={view} />;
}

/** The outcome on the page: the creationStatus island. */
export function CreationStatus(props: CreationStatusProps) {
  return <Island name="creationStatus" component={CreationStatusLive} props={props} />;
}
