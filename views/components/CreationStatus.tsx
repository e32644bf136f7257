// Customer creation progress as the server renders it (identification-routing-creation §2 "Customer creation screens"):
// the current outcome; without JavaScript the page refreshes itself. With it client/islands/creationStatusIsland.ts
// listens to the server-sent `creation` events and updates this same markup, without React (issue 23 item 5).
import type { CreationView } from '../../shared/creationView.ts';
import { CsrfField } from './CsrfField.tsx';
import { Island } from './Island.tsx';

export type { CreationView };

/** What the script reads from data-props; the outcome itself it reads from the markup. */
export interface CreationStatusScriptProps {
  eventsUrl: string;
  /** The outcome shown moves on by itself: the script goes there after a pause. */
  redirectTo: string | null;
}

/** The outcome's markup; client/islands/creationStatusIsland.ts builds the same elements for each event. */
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

/** The outcome on the page, kept up to date by the creationStatus script. */
export function CreationStatus({ eventsUrl, view }: { eventsUrl: string; view: CreationView }) {
  return (
    <Island<CreationStatusScriptProps> name="creationStatus" props={{ eventsUrl, redirectTo: view.redirectTo }}>
      <CreationStatusMarkup view={view} />
    </Island>
  );
}
