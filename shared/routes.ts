// Every URL of the journey, named once (GOV.UK Forms style). `routePatterns` is the one source: the server registers
// its handlers on these Express patterns (`routePatterns.customerCreation`), and `routes` builds the concrete URLs from
// the same strings (`routes.customerCreation(prospectId)`, each `:param` URI-encoded). Pure: no I/O, no Express.
// Sandbox paths and the upstream APIs' paths live elsewhere (sandbox/, shared/contracts/).

/** Mount points: a middleware that covers every path under one of them (server/app.ts). */
export const routePrefixes = {
  journey: '/onboarding',
  bankid: '/onboarding/identification/bankid',
  customerInformation: '/onboarding/customer-information',
  customerCreation: '/onboarding/customer-creation',
} as const;

const { journey, bankid, customerInformation, customerCreation } = routePrefixes;

/** The Express route pattern of every journey path. */
/** The site's root on our own host, outside the journey: it only redirects to the start (the bank's home is HOME_URL). */
export const siteRoot = '/';

export const routePatterns = {
  // Start: customer type, identification choice (identification-routing-creation §1)
  start: journey,
  customerType: `${journey}/customer-type`,
  // Identification: the eID broker (OIDC) and BankID
  oidcStart: `${journey}/identification/oidc`,
  /** Route OnboardingSignicat: the eID broker's redirect URI. */
  oidcCallback: `${journey}/signicat`,
  bankidStatus: `${bankid}/status`,
  bankidRetry: `${bankid}/retry`,
  bankidCancel: `${bankid}/cancel`,
  bankidMode: `${bankid}/mode`,
  // Routing after identification
  routing: `${journey}/routing`,
  // Customer information (one page, a step machine)
  customerInformation: `${customerInformation}/:prospectId`,
  customerInformationStep: `${customerInformation}/:prospectId/step`,
  customerInformationBack: `${customerInformation}/:prospectId/back`,
  customerInformationExit: `${customerInformation}/:prospectId/exit`,
  /** Which step and screen the page shows now (JSON): a loader's island polls it while a background run decides (the KYC step). */
  customerInformationShown: `${customerInformation}/:prospectId/shown`,
  /** The signing service's cancel and postpone returns (customer-information §2.1, §4.8): the order ends, then the cancel page or the page itself. */
  signingCancelled: `${customerInformation}/:prospectId/signing-cancelled`,
  signingPostponed: `${customerInformation}/:prospectId/signing-postponed`,
  // Customer creation and its server-sent events
  customerCreation: `${customerCreation}/:prospectId`,
  customerCreationEvents: `${customerCreation}/:prospectId/events`,
  customerCreationRetry: `${customerCreation}/:prospectId/retry`,
  customerCreationContinue: `${customerCreation}/:prospectId/continue`,
  // Results and exits
  cancel: `${journey}/cancel`,
  error: `${journey}/error`,
  nightlyDowntimeStatus: `${journey}/nightly-downtime-status`,
  caseStatus: `${journey}/case-status`,
  caseStatusReturn: `${journey}/case-status/return`,
  /** A task's form on the status page (multipart): upload a file, remove one, or send the answer (identification-routing-creation §4 "Status page"). */
  caseStatusTask: `${journey}/case-status/task`,
  /** Route OnboardingTriggerCase: GET shows a button, its POST creates the case and goes on to the status page. */
  triggerCase: `${journey}/trigger-case/:prospectId`,
  loginInApp: `${journey}/login-in-app`,
  closeSignupInApp: `${journey}/close-signup-in-app`,
  /** Leaving the journey (the Close X, the nightly-downtime page's buttons): ends our session and the brokerage's, then the bank's home. */
  leave: `${journey}/leave`,
} as const;

export type RouteName = keyof typeof routePatterns;

/** The `:param` names of a pattern, e.g. 'prospectId' for '/x/:prospectId/events'. */
export type RouteParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | RouteParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The URL of `pattern` with each `:param` replaced by its value, URI-encoded (so `/` and `?` stay inside it). */
export function fillPattern<P extends string>(pattern: P, params: Record<RouteParams<P>, string>): string {
  const values = params as Record<string, string>;
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => encodeURIComponent(values[name]!));
}

/** `path` with a query string appended when there is one (`qs` without its `?`). */
export function withQuery(path: string, qs: string): string {
  return qs ? `${path}?${qs}` : path;
}

const p = routePatterns;
const byProspect =
  <P extends `${string}:prospectId${string}`>(pattern: P) =>
  (prospectId: string): string =>
    fillPattern(pattern, { prospectId } as Record<RouteParams<P>, string>);

/** The journey's URLs: a string for a fixed path, a builder for a path with parameters. */
export const routes = {
  start: p.start,
  customerType: p.customerType,
  oidcStart: p.oidcStart,
  oidcCallback: p.oidcCallback,
  bankidStatus: p.bankidStatus,
  bankidRetry: p.bankidRetry,
  bankidCancel: p.bankidCancel,
  bankidMode: p.bankidMode,
  routing: p.routing,
  /** The customer-information page; `legacyFlow` asks the brokerage's legacy single form (identification-routing-creation §3). */
  customerInformation: (prospectId: string, options: { legacyFlow?: boolean } = {}): string =>
    withQuery(fillPattern(p.customerInformation, { prospectId }), options.legacyFlow ? 'shouldUseLegacyFlow=true' : ''),
  customerInformationStep: byProspect(p.customerInformationStep),
  customerInformationBack: byProspect(p.customerInformationBack),
  customerInformationExit: byProspect(p.customerInformationExit),
  customerInformationShown: byProspect(p.customerInformationShown),
  /** A signing order's cancel or postpone return, naming the order (its key, not a secret) so a stale return cannot end a newer one. */
  signingCancelled: (prospectId: string, order: string): string =>
    withQuery(fillPattern(p.signingCancelled, { prospectId }), `order=${encodeURIComponent(order)}`),
  signingPostponed: (prospectId: string, order: string): string =>
    withQuery(fillPattern(p.signingPostponed, { prospectId }), `order=${encodeURIComponent(order)}`),
  customerCreation: byProspect(p.customerCreation),
  customerCreationEvents: byProspect(p.customerCreationEvents),
  customerCreationRetry: byProspect(p.customerCreationRetry),
  customerCreationContinue: byProspect(p.customerCreationContinue),
  cancel: p.cancel,
  error: p.error,
  /** The nightly-downtime page; after a signup that just completed it says so, and in the app's webview it stays embedded. */
  nightlyDowntimeStatus: (options: { justCompletedSignup?: boolean; webview?: boolean } = {}): string =>
    withQuery(
      p.nightlyDowntimeStatus,
      [options.justCompletedSignup ? 'justCompletedSignup=true' : '', options.webview ? 'embedded=true&webview=true' : ''].filter(Boolean).join('&'),
    ),
  caseStatus: p.caseStatus,
  caseStatusReturn: p.caseStatusReturn,
  caseStatusTask: p.caseStatusTask,
  triggerCase: byProspect(p.triggerCase),
  loginInApp: p.loginInApp,
  closeSignupInApp: p.closeSignupInApp,
  /** Leaving the journey; in the app's webview (a page that knows it from its own query) it ends on the app's close route. */
  leave: (options: { webview?: boolean } = {}): string => withQuery(p.leave, options.webview ? 'webview=true' : ''),
} as const satisfies Record<RouteName, unknown>;
