// The creation screen's event stream (GET …/customer-creation/:prospectId/events), declared as a page whose only
// answer is its stream: only the identified person whose prospect it is may listen, as on the creation page itself.
import type { AppDeps } from '../../deps.ts';
import { journeyLocale } from '../../pages.ts';
import { definePage } from '../../pageKit/definePage.ts';
import { LOCALE_COOKIE, readCookie } from '../../cookies.ts';
import { createCreationEventsHandler } from './creationEventsStream.ts';
import { journeyViewer } from './creationPage.tsx';

export function creationEventsPage(deps: AppDeps) {
  const handle = createCreationEventsHandler({ events: deps.events, connections: deps.sse });
  return definePage({
    route: 'customerCreationEvents',
    access: 'ownsProspect',
    session: 'reads',
    stream: ({ req, res, params, journey }) => {
      const locale = journeyLocale(journey, readCookie(req, LOCALE_COOKIE), deps);
      const view = journeyViewer(journey, locale, deps);
      // Only the current run's states count: an old run's final error must not show after Try again.
      const currentRun = String(journey.creationRun);
      // What the view depends on besides the state (journeyViewer): streams alike share each event's frame.
      const viewKey = `${locale} ${currentRun} ${journey.webview} ${journey.prospectId}`;
      return handle(req, res, params.prospectId, (state) => view(state.runId === currentRun ? state : null), viewKey);
    },
  });
}
