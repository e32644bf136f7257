// The creation event stream's route (GET /onboarding/customer-creation/:prospectId/events), answered ahead of Express
// (server/app.ts, server/leanRoute.ts; issue 24 item 2): thousands stay open for minutes, so each keeps only its answer, its
// viewer and its subscription. The session is read once, through the same cookie, signature and store as
// express-session's (server/session.ts sessionReader): only the session whose journey owns the prospect may listen,
// as on the creation page itself.
import type { AppDeps } from '../../deps.ts';
import { journeyLocale, ownedJourneyIn } from '../../pages.ts';
import type { SessionReader } from '../../session.ts';
import { LOCALE_COOKIE, readCookie } from '../../cookies.ts';
import { createCreationEventsHandler, type CreationEventsHandler } from './creationEventStream.ts';
import { journeyViewer } from './creationPage.tsx';

export function creationEventsRoute(deps: AppDeps, readSession: SessionReader): CreationEventsHandler {
  return createCreationEventsHandler({
    events: deps.events,
    connections: deps.sse,
    async viewerFor(req, prospectId) {
      const journey = ownedJourneyIn((await readSession(req))?.journey, prospectId);
      if (!journey) return null;
      const view = journeyViewer(journey, deps.i18n.translator(journeyLocale(journey, readCookie(req, LOCALE_COOKIE), deps)), deps);
      // Only the current run's states count: an old run's final error must not show after Try again.
      const currentRun = String(journey.creationRun);
      return (state) => view(state.runId === currentRun ? state : null);
    },
  });
}
