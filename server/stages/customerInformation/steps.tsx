// The customer-information page and its page machine (customer-information.md §2–4): one step at a time,
// each step a set of named screens (stepModule.ts). The machine keeps the current step, its current
// screen and the screens visited before it in the session; every form posts its step and screen, and a
// post for any other screen is stale and refused the same way everywhere (back to what is shown). Back
// returns to the last visited screen, then to the previous step. A dialog is a screen too: a modal over
// the screen it belongs to with JavaScript (its post is accepted there), a screen of its own without.
import { Router, type Request, type Response } from 'express';
import type { ReactElement } from 'react';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { ownedJourney, redirectAfterSave, sendPage, translatorFor } from '../../pages.ts';
import { signingDoorClosed, type CustomerInformationProgress, type Journey, type StepAnswers } from '../../journey.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { endJourney } from '../../endJourney.ts';
import type { Translate } from '../../../shared/i18n.ts';
import { brokerageForPerson, callErrorKind, type PersonBrokerage, type StepErrorKind } from './calls.ts';
import { stepIds, type StepId } from '../../../shared/contracts/brokerage.ts';
import { changeTarget, progressPercent, stepAfter, stepBefore, withLegacyForm } from '../../../shared/customerInformationSteps.ts';
import { progressStepOf } from '../../../shared/onboardingProgress.ts';
import { acceptsPost, backWithinStep, visitedAfterMove } from '../../../shared/pageMachine.ts';
import { abortDialog, StepError, StepHeaderBar } from '../../../views/pages/CustomerInformationPage.tsx';
import type { Screen, StepContext, StepModule } from './stepModule.ts';
import { stepModules } from './stepRegistry.ts';
import { isMultipart, parseMultipart } from './uploads.tsx';
import type { RefuseHandler } from '../../infra/sessionLocks.ts';
import { routePatterns, routePrefixes, routes } from '../../../shared/routes.ts';
import { Dialog } from '../../../views/components/Dialog.tsx';
import { readCookie } from '../../cookies.ts';
import { sessionCookieName } from '../../session.ts';
import { FaqPanel } from '../../../views/components/FaqPanel.tsx';
import { SigningClosed } from '../../../views/pages/SigningClosed.tsx';
import { signingReturnRoutes } from './signingReturns.ts';

// Every form names its step and screen, so a post from a stale tab or a double submit cannot answer another one.
const screenField = z.object({ step: z.enum(stepIds), screen: z.string().min(1).max(40) });
// What an HTML form posts: names with one or more text values. Anything else (JSON objects) is not a form.
const formFields = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** How often a busy screen (the KYC loader) reloads itself without JavaScript. */
const BUSY_REFRESH_SECONDS = 2;

/** A journey at its customer-information page: identified, with this prospect (its id kept once, on the journey) and its progress. */
type AtPage = Journey & { prospectId: string; customerInformation: CustomerInformationProgress };

function progressOf(req: Request, prospectId: string): { journey: AtPage; ci: CustomerInformationProgress } | null {
  const journey = ownedJourney(req, prospectId);
  const ci = journey?.customerInformation;
  if (!journey || !ci) return null;
  return { journey: journey as AtPage, ci };
}

/**
 * A post to this page without an identified session. When the browser's session cookie names a session the
 * server no longer has (forgotten after SESSION_TTL_MINUTES idle, or ended), the person is told that the
 * session has expired, with the way to identify again (customer-information §7, §8), instead of a silent
 * 303 to the start page. What the post carried is not kept: nothing ties it to a person any more, and
 * whoever identifies next in this browser must not see it. Anyone else (no cookie, or a live session of
 * another person or prospect) goes to the start page, as a page view does.
 */
function notAtPage(req: Request, res: Response, deps: AppDeps): void {
  const sent = readCookie(req, sessionCookieName(deps.config.cookieSecure));
  // express-session's cookie value is `s:<id>.<signature>`; a forgotten id was replaced by a new session's.
  const sentId = sent?.startsWith('s:') ? sent.slice(2, sent.lastIndexOf('.')) : undefined;
  if (req.method !== 'POST' || !sentId || sentId === req.sessionID) return res.redirect(303, routes.start);
  sendPage(req, res, deps, {
    progress: progressStepOf('customerInformation'),
    status: 401,
    body: <StepError t={translatorFor(req, deps)} kind="SESSION_EXPIRED_ERROR" />,
  });
}

interface StepRender {
  status?: number;
  error?: StepErrorKind;
  /** A step's own re-render (errors shown, input kept) instead of its plain view. */
  view?: ReactElement;
  /** The previous post was refused by the session lock (refusedStepPost): say it was not saved. */
  notSaved?: NotSaved;
}

type NotSaved = 'upload' | 'change';
const notSavedQuery = z.enum(['upload', 'change']);

/**
 * A post to this page that the per-session lock refused (server/infra/sessionLocks.ts): another request of
 * the person's still ran, e.g. an upload the browser had dropped for the next one. Nothing was saved
 * (the file not attached). Back to the step, whose banner says so (the page is read again under the
 * lock, so it shows what is really kept); anything else gets the app's answer (`fallback`).
 */
// A post to one of the page's own paths (…/step, …/back, …/exit); the group is the page. The prefix is letters, '-' and '/' only.
const stepPagePost = new RegExp(`^(${routePrefixes.customerInformation}/[^/?#]+)/[a-z]+$`);

export function refusedStepPost(fallback: RefuseHandler): RefuseHandler {
  return (req, res, why) => {
    const page = stepPagePost.exec(req.originalUrl.split('?')[0] ?? '');
    if (req.method !== 'POST' || !page) return fallback(req, res, why);
    res.redirect(303, `${page[1]}?notSaved=${isMultipart(req) ? 'upload' : 'change'}`);
  };
}

// One bound client per request, so a token refreshed by one call is used by every later call of it.
const requestBrokerage = new WeakMap<Request, PersonBrokerage>();

/** The step's context: its brokerage calls go through the customer-information §7 call wrapper (calls.ts). */
function contextFor(req: Request, deps: AppDeps, journey: AtPage, ci: CustomerInformationProgress, screen: string): StepContext {
  let brokerage = requestBrokerage.get(req);
  if (!brokerage) {
    brokerage = brokerageForPerson(deps.brokerage, journey, deps.logger);
    requestBrokerage.set(req, brokerage);
  }
  return {
    req,
    deps,
    journey,
    ci,
    brokerage,
    prospectId: journey.prospectId,
    t: translatorFor(req, deps),
    action: routes.customerInformationStep(journey.prospectId),
    basePath: routes.customerInformation(journey.prospectId),
    screen,
    fields: (name = screen) => ({ step: ci.steps[ci.current]!, screen: name }),
  };
}

/** The screen shown now: the step's own resolve (a step following a background run), else the session's if the step has it and it can be shown, else the step's first. */
async function currentScreen(
  module: StepModule,
  ci: CustomerInformationProgress,
  ctxOf: (screen: string) => StepContext,
): Promise<{ name: string; screen: Screen<never> }> {
  const name = module.resolve ? await module.resolve(ctxOf(ci.screen ?? module.first)) : ci.screen;
  const found = name === undefined || name === 'finished' ? undefined : module.screens[name];
  if (name !== undefined && found && (found.available?.(ctxOf(name)) ?? true)) return { name, screen: found };
  return { name: module.first, screen: module.screens[module.first]! };
}

/**
 * Moves past every step that a background run has finished (the KYC step once its run is submitted):
 * on a post for good, on a GET only in the copy it renders (a GET writes nothing; the next post records it).
 */
async function settled(req: Request, deps: AppDeps, journey: AtPage, ci: CustomerInformationProgress): Promise<boolean> {
  let moved = false;
  for (;;) {
    const step = ci.steps[ci.current];
    const module = step === undefined ? undefined : stepModules.get(step);
    if (!module?.resolve || ci.current >= ci.steps.length - 1) return moved;
    if ((await module.resolve(contextFor(req, deps, journey, ci, ci.screen ?? module.first))) !== 'finished') return moved;
    advance(ci);
    moved = true;
  }
}

/** A post moved the person into another step: the step's own start (the KYC run), if it has one. */
async function entered(req: Request, deps: AppDeps, journey: AtPage, ci: CustomerInformationProgress): Promise<void> {
  const step = ci.steps[ci.current];
  const module = step === undefined ? undefined : stepModules.get(step);
  if (module?.enter) await module.enter(contextFor(req, deps, journey, ci, module.first));
}

/**
 * Routing has made the prospect's steps (server/stages/routing/routing.ts): the first step is entered as
 * if a post had moved there (its start, e.g. the KYC run, is due now).
 */
export async function beginCustomerInformation(req: Request, deps: AppDeps, journey: Journey): Promise<void> {
  const ci = journey.customerInformation;
  if (!journey.prospectId || !ci) return;
  await entered(req, deps, journey as AtPage, ci);
}

/** Where the step's view would be when its own calls failed: the banner says why; try again reloads. */
function ViewUnavailable({ t, kind, href }: { t: Translate; kind: StepErrorKind; href: string }) {
  if (kind === 'SESSION_EXPIRED_ERROR') return null;
  return (
    <p>
      <a className="btn" href={href}>
        {t('customerInformation.error.TRY_AGAIN_ERROR.retry')}
      </a>
    </p>
  );
}

async function renderStep(
  req: Request,
  res: Response,
  deps: AppDeps,
  journey: AtPage,
  stored: CustomerInformationProgress,
  extra: StepRender = {},
): Promise<void> {
  const t = translatorFor(req, deps);
  // A GET renders a copy moved past finished steps; a post has settled the stored progress already.
  const ci = req.method === 'GET' ? structuredClone(stored) : stored;
  if (req.method === 'GET') {
    selectLegacyForm(req, ci);
    await settled(req, deps, journey, ci);
  }
  const step = ci.steps[ci.current];
  const module = step === undefined ? undefined : stepModules.get(step);
  if (!module) {
    // A step the brokerage sent that this build cannot show is an error, never a step left out
    // (it could be one the bank requires, as KYC is): logged, and the try-again banner.
    deps.logger.error({ step, steps: ci.steps }, 'customer-information step without a screen');
    sendPage(req, res, deps, {
      progress: progressStepOf('customerInformation'),
      status: 502,
      body: (
        <>
          <StepError t={t} kind="TRY_AGAIN_ERROR" />
          <ViewUnavailable t={t} kind="TRY_AGAIN_ERROR" href={routes.customerInformation(journey.prospectId)} />
        </>
      ),
    });
    return;
  }
  const ctxOf = (screen: string) => contextFor(req, deps, journey, ci, screen);
  const shown = await currentScreen(module, ci, ctxOf);
  let { status, error } = extra;
  let body = extra.view;
  if (!body) {
    try {
      body = await shown.screen.view(ctxOf(shown.name));
    } catch (err) {
      // A view's own calls (e.g. tax validation rules) failed: the banner instead of an error page.
      if (!(err instanceof UpstreamError)) throw err;
      deps.logger.warn({ status: err.status, step, screen: shown.name }, 'customer-information step view failed');
      error = callErrorKind(err);
      status = 502;
      body = <ViewUnavailable t={t} kind={error} href={routes.customerInformation(journey.prospectId)} />;
    }
  }
  const header = {
    backAction:
      stepBefore(ci.steps, ci.current, ci.returnTo) !== null || (ci.visited?.length ?? 0) > 0 || shown.screen.back
        ? routes.customerInformationBack(journey.prospectId)
        : null,
    exitUrl: routes.customerInformationExit(journey.prospectId),
    continueUrl: routes.customerInformation(journey.prospectId),
    progressPercent: progressPercent(ci.steps, ci.current, module.pointsDone?.(ctxOf(shown.name)) ?? 0),
    navigationDisabled: shown.screen.busy === true,
  };
  sendPage(req, res, deps, {
    progress: progressStepOf('customerInformation'),
    status,
    // A busy screen (a loader) refreshes itself without JavaScript; its island asks instead.
    noscriptRefreshSeconds: shown.screen.busy ? BUSY_REFRESH_SECONDS : undefined,
    body: (
      <>
        <StepHeaderBar t={t} header={header} />
        {error && <StepError t={t} kind={error} />}
        {extra.notSaved && (
          <p className="banner banner--error" role="alert">
            {t(`customerInformation.notSaved.${extra.notSaved}`)}
          </p>
        )}
        <div className="step" data-step={step} data-screen={shown.name}>
          {body}
        </div>
        <FaqPanel t={t} faqUrl={deps.config.FAQ_URL} country={journey.country} />
      </>
    ),
  });
}

/** Milestone three's "I have signed" (customer-information §4.8), by the person or by the page itself. */
const signedCheckPost = z.object({ step: z.literal('MILESTONE_THREE_STEP'), intent: z.literal('signed') });

/**
 * The page behind the one-way door of signing (journey.ts signingDoorClosed): only the way on to customer
 * creation. Back is disabled (customer-information §2.2 "after a milestone"); Exit stays, as everywhere.
 */
function renderClosed(req: Request, res: Response, deps: AppDeps, journey: AtPage, ci: CustomerInformationProgress): void {
  const t = translatorFor(req, deps);
  const header = {
    backAction: null,
    exitUrl: routes.customerInformationExit(journey.prospectId),
    continueUrl: routes.customerInformation(journey.prospectId),
    progressPercent: progressPercent(ci.steps, ci.current, 0),
  };
  sendPage(req, res, deps, {
    progress: progressStepOf('customerInformation'),
    body: (
      <>
        <StepHeaderBar t={t} header={header} />
        <div className="step" data-screen="signed">
          <SigningClosed t={t} creationUrl={routes.customerCreation(journey.prospectId)} />
        </div>
        <FaqPanel t={t} faqUrl={deps.config.FAQ_URL} country={journey.country} />
      </>
    ),
  });
}

// customer-information §2.1: ?shouldUseLegacyFlow=true selects the legacy single form (the legacy form's own action carries it too).
const legacyQuery = z.object({ shouldUseLegacyFlow: z.literal('true') });

/** The query asks for the legacy single form: it becomes the current step (shared/customerInformationSteps.ts withLegacyForm). */
function selectLegacyForm(req: Request, ci: CustomerInformationProgress): void {
  if (!legacyQuery.safeParse(req.query).success || ci.steps[ci.current] === 'EXISTING_STEP') return;
  Object.assign(ci, withLegacyForm(ci.steps, ci.current));
  delete ci.screen;
  ci.visited = [];
}

/** Moves to the next step (its first screen), or back to milestone three's summary when a Change re-entered the step. */
function advance(ci: CustomerInformationProgress): void {
  ci.current = stepAfter(ci.steps, ci.current, ci.returnTo);
  delete ci.returnTo;
  delete ci.returnAnswers;
  delete ci.screen;
  ci.visited = [];
}

/** The answers each step that can be changed from the summary keeps (StepAnswers), put back when its change is left unfinished. */
const answersOfStep: Partial<Record<StepId, keyof StepAnswers>> = {
  ACCOUNT_PICKER_STEP: 'accountPicker',
  ACCOUNT_ALIAS_STEP: 'accountAlias',
  CONTACT_INFORMATION_STEP: 'contactInformation',
  CITIZENSHIP_STEP: 'citizenship',
  RESIDENCY_STEP: 'residency',
  TAX_INFO_STEP: 'taxInformation',
};

/** Re-enters an earlier step from milestone three's summary (its Change); false when the step cannot be changed from here. */
function changeStep(ci: CustomerInformationProgress, step: string): boolean {
  const target = changeTarget(ci.steps, ci.current, step);
  if (target === null) return false;
  const key = answersOfStep[ci.steps[target]!];
  ci.returnAnswers = key ? structuredClone({ [key]: ci.answers?.[key] }) : {};
  ci.returnTo = ci.current;
  ci.current = target;
  delete ci.screen;
  ci.visited = [];
  return true;
}

/** Moves to `target` within the step, remembering for Back what shared/pageMachine.ts says. */
function moveTo(module: StepModule, ci: CustomerInformationProgress, from: string, target: string): void {
  if (!Object.hasOwn(module.screens, target)) throw new Error(`${module.id} has no screen ${target}`);
  ci.visited = visitedAfterMove(module, ci.visited ?? [], from, target);
  ci.screen = target;
}

/** Puts a step's kept answers back (an answer that was absent is removed again). */
function restoreAnswers(ci: CustomerInformationProgress, kept: Partial<StepAnswers>): void {
  const answers = (ci.answers ??= {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(kept)) {
    if (value === undefined) delete answers[key];
    else answers[key] = value;
  }
}

/**
 * Back: the last visited screen of the step, else from its first screen the previous step, or milestone
 * three's summary when a Change re-entered the step. Answers whether the step changed.
 */
function goBack(ci: CustomerInformationProgress): boolean {
  const within = backWithinStep(ci.visited ?? []);
  if (within) {
    ci.screen = within.screen;
    ci.visited = within.visited;
    return false;
  }
  const before = stepBefore(ci.steps, ci.current, ci.returnTo);
  if (before === null) return false;
  // Back out of a change: the step's answers as they were, and the summary.
  if (ci.returnTo !== undefined && before === ci.returnTo && ci.returnAnswers) restoreAnswers(ci, ci.returnAnswers);
  ci.current = before;
  delete ci.returnTo;
  delete ci.returnAnswers;
  delete ci.screen;
  ci.visited = [];
  return true;
}

/** The screen a post answers, if the stale-post rule (shared/pageMachine.ts) accepts it. */
function screenPosted(module: StepModule, shown: string, body: unknown): { name: string; screen: Screen<never> } | null {
  const posted = screenField.safeParse(body);
  if (!posted.success || posted.data.step !== module.id || !acceptsPost(module, shown, posted.data.screen)) return null;
  return { name: posted.data.screen, screen: module.screens[posted.data.screen]! };
}

export function customerInformationRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(signingReturnRoutes());

  router.get(routePatterns.customerInformation, (req, res, next) => {
    const found = progressOf(req, req.params.prospectId);
    if (!found) return notAtPage(req, res, deps);
    // After signing (a Back in the browser, a bookmark): the way on to creation only.
    if (signingDoorClosed(found.journey)) return renderClosed(req, res, deps, found.journey, found.ci);
    const notSaved = notSavedQuery.safeParse(req.query.notSaved);
    renderStep(req, res, deps, found.journey, found.ci, { notSaved: notSaved.success ? notSaved.data : undefined }).catch(next);
  });

  // What a loader's island polls (JSON): the step and screen a GET would show now. Reads only.
  router.get(routePatterns.customerInformationShown, async (req, res, next) => {
    try {
      const found = progressOf(req, req.params.prospectId);
      if (!found) return void res.status(403).json({ error: 'forbidden' });
      const ci = structuredClone(found.ci);
      await settled(req, deps, found.journey, ci);
      const step = ci.steps[ci.current];
      const module = step === undefined ? undefined : stepModules.get(step);
      const shown = module ? (await currentScreen(module, ci, (screen) => contextFor(req, deps, found.journey, ci, screen))).name : null;
      res.set('cache-control', 'no-store').json({ step: step ?? null, screen: shown });
    } catch (err) {
      next(err);
    }
  });

  router.post(routePatterns.customerInformationStep, async (req, res, next) => {
    const found = progressOf(req, req.params.prospectId);
    if (!found) return notAtPage(req, res, deps);
    const { journey, ci } = found;
    const here = routes.customerInformation(journey.prospectId);
    // Behind the door of signing, a post from a page shown before it (a Change, Sign, a stale tab) changes
    // nothing and calls nothing upstream: back to the page, which offers only the way on to creation;
    // "I have signed" (signed in another tab) is that way on.
    if (signingDoorClosed(journey)) {
      return res.redirect(303, signedCheckPost.safeParse(req.body).success ? routes.customerCreation(journey.prospectId) : here);
    }
    let posted: { name: string; screen: Screen<never> } | null = null;
    try {
      // Upload forms post multipart: text fields into req.body, the file kept for uploads.tsx (uploadFile).
      if (isMultipart(req)) await parseMultipart(req, res);
      selectLegacyForm(req, ci);
      // A step a background run has finished is left now, so the post answers the step shown.
      if (await settled(req, deps, journey, ci)) await entered(req, deps, journey, ci);
      const current = ci.steps[ci.current];
      const module = current === undefined ? undefined : stepModules.get(current);
      if (!module || !formFields.safeParse(req.body).success) return redirectAfterSave(req, res, here);
      const ctxOf = (screen: string) => contextFor(req, deps, journey, ci, screen);
      const shown = await currentScreen(module, ci, ctxOf);
      posted = screenPosted(module, shown.name, req.body);
      if (!posted) return redirectAfterSave(req, res, here);
      const ctx = ctxOf(posted.name);
      const input = posted.screen.input.safeParse(req.body);
      const outcome = input.success
        ? await posted.screen.submit(ctx, input.data)
        : ((await posted.screen.invalid?.(ctx, req.body as Record<string, unknown>)) ?? { kind: 'screen', screen: shown.name });
      switch (outcome.kind) {
        case 'finish':
          advance(ci);
          await entered(req, deps, journey, ci);
          return redirectAfterSave(req, res, here);
        case 'screen':
          moveTo(module, ci, shown.name, outcome.screen);
          return redirectAfterSave(req, res, outcome.fragment ? `${here}#${outcome.fragment}` : here);
        case 'again':
          if (outcome.screen !== undefined) moveTo(module, ci, shown.name, outcome.screen);
          return await renderStep(req, res, deps, journey, ci, {
            status: outcome.status,
            view: outcome.view,
            ...(outcome.error ? { error: outcome.error } : {}),
          });
        case 'back':
          if (goBack(ci)) await entered(req, deps, journey, ci);
          return redirectAfterSave(req, res, here);
        case 'redirect':
          return redirectAfterSave(req, res, outcome.url);
        case 'changeStep':
          // Refused (not an earlier step, or KYC): the screen again, nothing changed.
          if (changeStep(ci, outcome.step)) await entered(req, deps, journey, ci);
          return redirectAfterSave(req, res, here);
      }
    } catch (err) {
      if (!(err instanceof UpstreamError)) return next(err);
      deps.logger.warn({ status: err.status, step: ci.steps[ci.current], screen: posted?.name }, 'customer-information step failed');
      await renderStep(req, res, deps, journey, ci, { status: 502, error: callErrorKind(err) }).catch(next);
    }
  });

  router.post(routePatterns.customerInformationBack, async (req, res, next) => {
    const found = progressOf(req, req.params.prospectId);
    if (!found) return notAtPage(req, res, deps);
    const { journey, ci } = found;
    const here = routes.customerInformation(journey.prospectId);
    if (signingDoorClosed(journey)) return res.redirect(303, here);
    try {
      if (await settled(req, deps, journey, ci)) await entered(req, deps, journey, ci);
      const current = ci.steps[ci.current];
      const module = current === undefined ? undefined : stepModules.get(current);
      if (module) {
        const shown = await currentScreen(module, ci, (screen) => contextFor(req, deps, journey, ci, screen));
        // A loader disables navigation (customer-information §2.2).
        if (shown.screen.busy) return redirectAfterSave(req, res, here);
        // A screen that answers Back itself (the KYC question: the previous page).
        if (await shown.screen.back?.(contextFor(req, deps, journey, ci, shown.name))) return redirectAfterSave(req, res, here);
      }
      if (goBack(ci)) await entered(req, deps, journey, ci);
      redirectAfterSave(req, res, here);
    } catch (err) {
      if (!(err instanceof UpstreamError)) return next(err);
      deps.logger.warn({ status: err.status, step: ci.steps[ci.current] }, 'customer-information back failed');
      await renderStep(req, res, deps, journey, ci, { status: 502, error: callErrorKind(err) }).catch(next);
    }
  });

  // The abort modal as its own page (works without JavaScript).
  router.get(routePatterns.customerInformationExit, (req, res) => {
    const found = progressOf(req, req.params.prospectId);
    if (!found) return notAtPage(req, res, deps);
    const t = translatorFor(req, deps);
    sendPage(req, res, deps, {
      progress: progressStepOf('customerInformation'),
      body: <Dialog {...abortDialog(t, routes.customerInformationExit(found.journey.prospectId), routes.customerInformation(found.journey.prospectId))} />,
    });
  });

  // Yes, exit: the person's brokerage sessions end upstream, then ours (server/endJourney.ts).
  router.post(routePatterns.customerInformationExit, async (req, res, next) => {
    const webview = req.session.journey?.webview ?? false;
    await endJourney(req, res, deps, webview ? routes.closeSignupInApp : '/').catch(next);
  });

  return router;
}
