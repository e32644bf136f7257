// Customer creation progress (identification-routing-creation §2 "Customer creation screens"), without React: the
// server renders the current outcome (views/components/CreationStatus.tsx; without JavaScript the page refreshes
// itself); this script listens to server-sent `creation` events, brings that markup to each new outcome, then moves
// on to `redirectTo` after a short pause so the person can read it (issue 23 item 5: usable within 1.5 s on a phone).
import type { CreationStatusScriptProps } from '../../views/components/CreationStatus.tsx';
import type { CreationView } from '../../shared/creationView.ts';
import { afterPageLoad } from '../components/afterPageLoad.ts';
import { h, patchChildren, postForm } from '../components/dom.ts';

/** Time to read the outcome before a redirect. */
export const REDIRECT_DELAY_MS = 1500;
/**
 * The events' schema (zod/mini, shared/creationView.ts) comes by a dynamic import once the page has loaded, off its
 * critical path (issue 23 item 4): events that arrive before it wait for it, in their order (each waits on the same
 * promise).
 */
const loadViewParser = () => afterPageLoad(() => import('../../shared/creationView.ts')).then((m) => m.parseCreationView);

/** When the browser gives up on the stream (an HTTP error), reload to get the server-rendered state. */
const RELOAD_AFTER_STREAM_FAILURE_MS = 5000;

/** The elements of views/components/CreationStatus.tsx CreationStatusMarkup after its live region, for `view`. */
function actionsOf(view: CreationView): HTMLElement[] {
  const parts: HTMLElement[] = [];
  if (view.formLink) parts.push(h('p', {}, h('a', { href: view.formLink.url }, view.formLink.label)));
  const app = view.appLink && h('a', { className: 'btn btn-secondary', href: view.appLink.url }, view.appLink.label);
  if (view.action?.kind === 'link') {
    parts.push(h('p', { className: 'actions' }, h('a', { className: 'btn', href: view.action.url }, view.action.label), app));
  }
  if (view.action?.kind === 'post') {
    // The done screen's Continue posts; its "Start using the app" link sits in the form, after the button.
    const form = postForm(view.action.url, view.action.label, 'actions');
    if (app) form.append(app);
    parts.push(form);
  }
  return parts;
}

/** Brings the server's markup to `view`; the live region stays the same element, so the new outcome is read out. */
function update(root: HTMLElement, status: HTMLElement, view: CreationView): void {
  root.className = `creation creation--${view.tone}`;
  root.dataset.outcome = view.outcome;
  patchChildren(status, [
    view.spinner && h('span', { className: 'spinner spinner--large', 'aria-hidden': 'true' }),
    h('h1', { className: 'creation__title' }, view.title),
    h('p', { className: 'creation__body' }, view.body),
  ]);
  patchChildren(root, [status, ...actionsOf(view)]);
}

export default function enhanceCreationStatus(el: HTMLElement, { eventsUrl, redirectTo }: CreationStatusScriptProps): void {
  const root = el.querySelector<HTMLElement>(':scope > .creation');
  const status = root?.querySelector<HTMLElement>(':scope > .creation__status');
  if (!root || !status) return;

  let timer: ReturnType<typeof setTimeout> | undefined;
  const redirectSoon = (to: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => location.assign(to), REDIRECT_DELAY_MS);
  };
  if (redirectTo) {
    redirectSoon(redirectTo);
    return;
  }
  const reloadSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => location.reload(), RELOAD_AFTER_STREAM_FAILURE_MS);
  };
  // The browser reconnects by itself after a dropped connection (sending Last-Event-ID), so errors are left to it;
  // only a stream it has given up on (readyState CLOSED) needs help.
  const source = new EventSource(eventsUrl);
  const parser = loadViewParser();
  source.addEventListener('creation', (event) => {
    const data = (event as MessageEvent<string>).data;
    // The server's view contract (shared/creationView.ts); an event that does not match it is ignored. A parser that
    // cannot be loaded is met as a stream given up on: the page reloads to the server's state.
    parser.then(
      (parseCreationView) => {
        const next = parseCreationView(data);
        if (!next || source.readyState === EventSource.CLOSED) return;
        update(root, status, next);
        if (next.redirectTo) {
          source.close();
          redirectSoon(next.redirectTo);
        }
      },
      () => reloadSoon(),
    );
  });
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) reloadSoon();
  });
}
