// Customer creation (identification-routing-creation §4 "Customer creation"): the page starts (once per run) the
// creation job that the worker runs and shows the latest outcome (its live updates: creationEventsPage.ts); Try again
// starts the next run, Continue leads on to where the outcome goes.
import type { Request } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { peekJourney, faqUrlOf, localeOf, supportPhoneOf, translatorFor, type PageOptions } from '../../pages.ts';
import { definePage, page, redirect } from '../../pageKit/definePage.ts';
import { runCredentialsOf, type Journey } from '../../journey.ts';
import { enqueueCustomerCreation } from '../../infra/creationJobs.ts';
import { outcomeTraits, type CreationOutcome, type CreationState } from '../../../shared/creationOutcome.ts';
import { CreationPage } from '../../../views/pages/CreationPageView.tsx';
import type { CreationView } from '../../../shared/creationView.ts';
import type { Locale, Translate } from '../../../shared/i18n.ts';
import { formatClockTime } from '../../../shared/localeFormats.ts';
import { routes } from '../../../shared/routes.ts';
import { forMarket, OPENING_HOUR, type PerMarket } from '../../../shared/markets.ts';
import { creationProgressStep } from '../../../shared/onboardingProgress.ts';
import { checkRedirectTarget, type RedirectRejection } from '../../../shared/redirectTarget.ts';
import { entryParamShapes } from '../../../shared/carriedQuery.ts';
import { bankSiteHandoffUrl, handoffAddress } from './loginHandoff.ts';

/** Where Continue may lead per market (server/config.ts), and the bank site's origin a given redirect target must stay on. */
export interface ContinueTargets {
  successUrls: PerMarket<string>;
  overviewUrls: PerMarket<string>;
  getStartedUrls: PerMarket<string>;
  /** The bank's home (HOME_URL, the spec's "/"). */
  homeUrl: string;
  /** BANK_SITE_URL's origin: clientUrl is a path of the bank's site, never of the onboarding's own. */
  bankSiteOrigin: string;
}

/**
 * The origins Continue's post may redirect to, for the CSP's form-action (Chrome checks the redirect after a post): the
 * bank site's (its login hand-off) and each configured target's (a path stays on an origin already allowed).
 */
export function continueOrigins(config: Pick<AppDeps['config'], 'BANK_SITE_URL' | 'successUrls' | 'overviewUrls' | 'getStartedUrls'>): string[] {
  const targets = [config.successUrls, config.overviewUrls, config.getStartedUrls].flatMap((perMarket) => Object.values(perMarket));
  const absolute = [config.BANK_SITE_URL, ...targets].filter((url) => /^https?:\/\//i.test(url) && URL.canParse(url));
  return [...new Set(absolute.map((url) => new URL(url).origin))];
}

/**
 * Where Continue leads (a full server redirect; identification-routing-creation §4 "Customer creation"): nightly
 * downtime to the downtime page with justCompletedSignup=true; an outcome that allows log-in to the redirect URL the
 * entry gave (clientUrl, only as a path of the bank's site: identification-routing-creation §4 "Redirect sanitising", a rejected
 * one to the market's get-started page), else done to the market's success URL and the others to its overview; in the
 * native app's webview to its login-in-app route; otherwise to / (the bank's home), in a webview to the app's close route
 * (a journey in the webview ends on the app's route, never on a web page of ours). Outside the webview, an outcome that
 * allows log-in goes there by way of the bank site's login hand-off (loginHandoff.ts, the continue post).
 */
export function continueTarget(outcome: CreationOutcome, journey: Journey, targets: ContinueTargets): { url: string; rejected?: RedirectRejection } {
  if (outcome === 'nightly_downtime') return { url: routes.nightlyDowntimeStatus({ justCompletedSignup: true, webview: journey.webview }) };
  if (!outcomeTraits[outcome].canLogIn) return { url: journey.webview ? routes.closeSignupInApp : targets.homeUrl };
  if (journey.webview) return { url: routes.loginInApp };
  const given = journey.queryParams.clientUrl;
  if (given === undefined) return { url: forMarket(outcome === 'done' ? targets.successUrls : targets.overviewUrls, journey.country) };
  const checked = checkRedirectTarget(given, targets.bankSiteOrigin);
  return checked.accepted
    ? { url: `${targets.bankSiteOrigin}${checked.path}` }
    : { url: forMarket(targets.getStartedUrls, journey.country), rejected: checked.reason };
}

/**
 * The screen for an outcome (identification-routing-creation §2 "Customer creation screens", §4 screen choice, §8 texts):
 * queued, nightly_downtime and done the polling screen, customerExists the already-have-account screen, every other
 * outcome the error screen with its own text. The FAQ link and the support banner are the page's (CreationPage).
 */
export function creationView(state: CreationState | null, req: Request, deps: AppDeps): CreationView {
  return creationViewer(req, deps)(state);
}

/** The screen for each state, from what it reads of the request taken once. */
export function creationViewer(req: Request, deps: AppDeps): (state: CreationState | null) => CreationView {
  return journeyViewer(peekJourney(req, deps), localeOf(req, deps), deps);
}

/** The screen for each state of `journey`, in `locale`: it keeps the few values it needs, not the journey (a stream keeps it). */
export function journeyViewer(journey: Readonly<Journey>, locale: Locale, deps: AppDeps): (state: CreationState | null) => CreationView {
  const { prospectId, creationRun, webview } = journey;
  return (state) => creationViewOf(state, { t: deps.i18n.translator(locale), locale, prospectId, creationRun, webview }, deps);
}

function creationViewOf(
  state: CreationState | null,
  { t, locale, ...journey }: { t: Translate; locale: Locale; prospectId?: string; creationRun?: number; webview: boolean },
  deps: AppDeps,
): CreationView {
  const outcome: CreationOutcome = state?.outcome ?? 'queued';
  const prospectId = state?.prospectId ?? journey.prospectId ?? '';
  const continueUrl = routes.customerCreationContinue(prospectId);
  const tone = outcomeTraits[outcome].severity;
  // Continue is a post from the person's click: for an outcome that allows log-in it hands the login session to the
  // bank's site (loginHandoff.ts), which nothing but the person's own choice should spend.
  const continueAction = { kind: 'post' as const, url: continueUrl, label: t('creation.button.continue') };
  // Try again posts the run it retries (retryUrl): a click starts one new run, however often it is posted.
  const retryAction = { kind: 'post' as const, url: retryUrl(prospectId, state?.runId ?? journey.creationRun), label: t('creation.button.tryAgain') };
  const screen = { outcome, tone, spinner: false, redirectTo: null };
  switch (outcome) {
    case 'queued':
      return { ...screen, title: t('creation.polling.title'), body: t('creation.polling.text'), spinner: true, action: null };
    case 'done':
      return {
        ...screen,
        title: t('creation.done.title'),
        body: t('creation.done.text'),
        action: continueAction,
        // In the app's own webview the person is in the app already: no "Start using the app".
        ...(journey.webview ? {} : { appLink: { url: deps.config.APP_URL, label: t('creation.button.startUsingApp') } }),
        // The screen stays until the person chooses (WCAG 2.2.1, no time limit): Continue to the bank's site, logged
        // in, or the app. A move by itself would take the app's button away, and spend the login's one-time hand-off
        // without the person's click.
        redirectTo: null,
      };
    case 'nightly_downtime':
      return {
        ...screen,
        title: t('creation.nightly_downtime.title'),
        // The opening hour as the downtime page writes it (the same Intl format, shared/localeFormats.ts).
        body: t('creation.nightly_downtime.text', { time: formatClockTime(locale, OPENING_HOUR) }),
        action: continueAction,
        // identification-routing-creation §4: "on nightly downtime redirect to the downtime page" (no log-in to hand over).
        redirectTo: routes.nightlyDowntimeStatus({ justCompletedSignup: true, webview: journey.webview }),
      };
    case 'customerExists':
      // identification-routing-creation §8: the already-account screen's title with customerExists' own text, and Login
      // (the continue post: the outcome allows log-in, so it arrives logged in with the credentials that still apply).
      return {
        ...screen,
        title: t('creation.alreadyAccount.title'),
        body: t('creation.customerExists.text'),
        action: { ...continueAction, label: t('creation.button.login') },
      };
    case 'accountLimit':
      return { ...screen, title: t('creation.accountLimit.title'), body: t('creation.accountLimit.text'), action: continueAction };
    case 'creationPaused':
      return {
        ...screen,
        title: t('creation.creationPaused.title'),
        body: t('creation.creationPaused.text'),
        // The application waits for the bank: OnboardingTriggerCase opens its case and the status page, where the person
        // follows it and sends what the bank asks for (server/stages/caseStatus/caseStatusPage.tsx).
        ...(prospectId ? { formLink: { url: routes.triggerCase(prospectId), label: t('caseStatus.link') } } : {}),
        action: continueAction,
      };
    case 'unspecifiedApiResponseError':
    case 'maxPollingTries':
      return {
        ...screen,
        title: t('creation.error.title'),
        body: t('creation.error.text'),
        // identification-routing-creation §8: "proceed with the application via the external form" — the manual
        // application form (MANUAL_SUPPORT_URL), the same the identification MANUAL_SUPPORT_ERROR sends people to.
        formLink: { url: deps.config.MANUAL_SUPPORT_URL, label: t('creation.error.externalForm') },
        action: retryAction,
      };
  }
}

/**
 * The creation page for a view: the screen with its FAQ link and support banner, at progress step 4 on success and 3
 * otherwise (identification-routing-creation §2); while queued, a page without JavaScript refreshes itself.
 */
export function creationPageOptions(view: CreationView, prospectId: string, req: Request, deps: AppDeps): PageOptions {
  return {
    progress: creationProgressStep(view.tone),
    noscriptRefreshSeconds: view.outcome === 'queued' ? 2 : undefined,
    ownMaintenanceBanner: view.outcome === 'creationPaused',
    funnel: { step: 'customerCreation', screen: view.outcome },
    body: (
      <CreationPage
        t={translatorFor(req, deps)}
        eventsUrl={routes.customerCreationEvents(prospectId)}
        view={view}
        faqUrl={faqUrlOf(req, deps)}
        supportPhone={supportPhoneOf(req, deps)}
        creationPaused={view.outcome === 'creationPaused'}
      />
    ),
  };
}

/**
 * The bank site's hand-off address for the run's login, going on to `target`; null when the run kept no code (it lapsed,
 * or the run predates hand-offs) or `target` is not on the bank's site (loginHandoff.ts). Logs why, never the code.
 */
async function handoffOf(deps: AppDeps, prospectId: string, runId: string | undefined, target: string): Promise<string | null> {
  const code = runId === undefined ? null : await deps.loginHandoffs.codeOf(prospectId, runId);
  const address = code === null ? null : handoffAddress(target, code, bankSiteHandoffUrl(deps.config));
  if (address === null) {
    const reason = code === null ? 'no hand-off kept for the run' : "the target is not on the bank's site";
    deps.logger.info({ prospectId, runId, reason }, 'continue without a login hand-off');
  }
  return address;
}

/** The Try again button's post: the run it retries rides along as `run`. */
function retryUrl(prospectId: string, run: string | number | undefined): string {
  return run === undefined ? routes.customerCreationRetry(prospectId) : `${routes.customerCreationRetry(prospectId)}?run=${encodeURIComponent(run)}`;
}

const retryQuery = z.object({ run: z.coerce.number().int().positive().max(1_000_000) });

/**
 * Whether Try again of run `run` starts a new run: only while it is the session's current run and its latest state is
 * an error whose screen offers Try again (identification-routing-creation §8: unspecifiedApiResponseError,
 * maxPollingTries). A second tab still showing that failure, a repeated post of the same click, or a post for a run
 * that is still polling starts nothing: the person is shown the current run instead.
 */
async function retryStartsRun(deps: AppDeps, journey: Journey, prospectId: string, run: number): Promise<boolean> {
  if (journey.creationRun !== run) return false;
  const latest = await deps.events.latest(prospectId);
  return latest?.state.runId === String(run) && outcomeTraits[latest.state.outcome].severity === 'error';
}

/**
 * Starts creation run `run` (the first after signing, or Try again). The worker gets the session's refresh
 * token, sealed in the credentials store, and begins the run with a fresh access token of its own
 * (identification-routing-creation §7), so an access token that expired while the person waited never
 * fails a run. A session from before refresh tokens were kept hands over its access token instead. The
 * session counts the run only once it is enqueued: a failed start leaves the page able to start it again.
 * The job also gets what the actions when polling stop need: the market, the webview mode and when signing
 * returned (the first run's start, kept for the runs after Try again).
 */
async function startRun(deps: AppDeps, journey: Journey, prospectId: string, run: number): Promise<void> {
  const credentials = runCredentialsOf(journey);
  const signedAt = journey.creationSignedAt ?? new Date(deps.now()).toISOString();
  const clientId = entryParamShapes.clientId.safeParse(journey.queryParams.clientId);
  const facts = { market: journey.country, webview: journey.webview, signedAt, ...(clientId.success ? { clientId: clientId.data } : {}) };
  await enqueueCustomerCreation({ queue: deps.queue, credentials: deps.creationCredentials }, { prospectId, runId: String(run), credentials, facts });
  journey.creationRun = run;
  journey.creationSignedAt = signedAt;
}

/** The page: the signing service sends the browser here when the agreements are signed, and the page starts run 1 once. */
const creationPage = definePage({
  route: 'customerCreation',
  access: 'ownsProspect',
  session: 'writes',
  get: async ({ req, deps, params: { prospectId }, journey }) => {
    if (!journey.creationRun) await startRun(deps, journey, prospectId, 1);
    const latest = await deps.events.latest(prospectId);
    const state = latest && latest.state.runId === String(journey.creationRun) ? latest.state : null;
    return page(creationPageOptions(creationView(state, req, deps), prospectId, req, deps));
  },
});

/**
 * maxPollingTries and errors: Try again restarts polling as a new run, once per click (retryStartsRun). A post
 * without its run (a page from before runs were posted) starts nothing: the page shows the current run's button.
 */
const retryPage = definePage({
  route: 'customerCreationRetry',
  access: 'ownsProspect',
  session: 'writes',
  post: {
    // The run rides in the query; the form posts nothing of its own.
    body: z.unknown(),
    handle: async ({ req, deps, params: { prospectId }, journey }) => {
      const asked = retryQuery.safeParse(req.query);
      if (asked.success && (await retryStartsRun(deps, journey, prospectId, asked.data.run))) {
        await startRun(deps, journey, prospectId, asked.data.run + 1);
      }
      return redirect(routes.customerCreation(prospectId));
    },
  },
});

/** A GET of Continue (an old page's link, a bookmark) changes nothing and shows the creation page, whose button posts. */
const continueLinkPage = definePage({
  route: 'customerCreationContinue',
  access: 'ownsProspect',
  session: 'reads',
  get: ({ params }) => redirect(routes.customerCreation(params.prospectId)),
});

/** Continue is a post (CSRF-checked like every post): it may hand the login session over to the bank's site. */
const continuePage = definePage({
  route: 'customerCreationContinue',
  access: 'ownsProspect',
  session: 'writes',
  post: {
    body: z.unknown(),
    handle: async ({ res, deps, params: { prospectId }, journey }) => {
      const latest = await deps.events.latest(prospectId);
      const outcome = latest?.state.outcome ?? 'queued';
      if (outcome === 'queued') return redirect(routes.customerCreation(prospectId));
      const { successUrls, overviewUrls, getStartedUrls, HOME_URL: homeUrl, bankSiteOrigin } = deps.config;
      const target = continueTarget(outcome, journey, { successUrls, overviewUrls, getStartedUrls, homeUrl, bankSiteOrigin });
      // The parameter and the reason, never the value (someone else's text).
      if (target.rejected) deps.logger.info({ param: 'clientUrl', reason: target.rejected }, 'redirect target rejected: the get-started page instead');
      const handoff = outcomeTraits[outcome].canLogIn && !journey.webview && latest ? await handoffOf(deps, prospectId, latest.state.runId, target.url) : null;
      // The address carries the one-time code for this redirect only: not cached, not passed on as a referrer.
      if (handoff) res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
      return redirect(handoff ?? target.url);
    },
  },
});

/** The creation stage's pages (its event stream is creationEventsPage.ts). */
export const creationPages = [creationPage, retryPage, continueLinkPage, continuePage];
