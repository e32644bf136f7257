// The customer-information page (customer-information.md §2–4): its routes and its rendering. One step at a
// time, each step a set of named screens (stepModule.ts). The session keeps the current step, its current
// screen and the screens visited before it; every form posts its step and screen, and a post for any other
// screen is stale and refused the same way everywhere (back to what is shown). Back returns to the last
// visited screen, then to the previous step. A dialog is a screen too: a modal over the screen it belongs
// to with JavaScript (its post is accepted there), a screen of its own without. The moves themselves are
// pure (shared/pageMachine.ts); the steps' contexts and hooks are pageContext.ts.
import { Router, type Request, type Response } from 'express';
import type { ReactElement } from 'react';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { redirectAfterSave, sendPage, translatorFor } from '../../pages.ts';
import { signingDoorClosed, type CustomerInformationProgress } from '../../journey.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { endJourney } from '../../endJourney.ts';
import type { Translate } from '../../../shared/i18n.ts';
import { callErrorKind, type StepErrorKind } from './calls.ts';
import type { StepId } from '../../../shared/contracts/brokerageContract.ts';
import { progressPercent, stepBefore } from '../../../shared/customerInformationStepList.ts';
import { progressStepOf } from '../../../shared/onboardingProgress.ts';
import { changeStep, goBack, moveTo, selectLegacyForm, advance } from '../../../shared/pageMachine.ts';
import { abortDialog, StepError, StepHeaderBar } from '../../../views/pages/CustomerInformationPageView.tsx';
import type { AnyStep, ScreenOutcome } from './stepModule.ts';
import { stepModules } from './stepRegistry.ts';
import { isMultipart, parseMultipart } from './uploads.tsx';
import { routePatterns, routes } from '../../../shared/routes.ts';
import { Dialog } from '../../../views/components/Dialog.tsx';
import { readCookie } from '../../cookies.ts';
import { sessionCookieName } from '../../session.ts';
import { FaqPanel } from '../../../views/components/FaqPanel.tsx';
import { forMarket } from '../../../shared/markets.ts';
import { SigningClosed } from '../../../views/pages/SigningClosedPageView.tsx';
import { signingReturnRoutes } from './signingReturns.ts';
import { contextFor, currentScreen, currentStep, entered, progressOf, screenPosted, settled, type AtPage, type NamedScreen } from './pageContext.ts';
import { notSavedQuery, type NotSaved } from './refusedStepPost.ts';
import type { ShownScreen } from '../../../shared/shownScreen.ts';

// What an HTML form posts: names with one or more text values. Anything else (JSON objects) is not a form.
const formFields = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** How often a busy screen (the KYC loader) reloads itself without JavaScript. */
const BUSY_REFRESH_SECONDS = 2;

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
    selectLegacyForm(ci, req.query);
    await settled(req, deps, journey, ci);
  }
  const step = ci.steps[ci.current];
  const module = currentStep(ci);
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
    funnel: { step: module.id, screen: shown.name },
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
        <FaqPanel t={t} faqUrl={forMarket(deps.config.faqUrls, journey.country)} country={journey.country} />
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
    funnel: { step: 'signing', screen: 'signed' },
    body: (
      <>
        <StepHeaderBar t={t} header={header} />
        <div className="step" data-screen="signed">
          <SigningClosed t={t} creationUrl={routes.customerCreation(journey.prospectId)} />
        </div>
        <FaqPanel t={t} faqUrl={forMarket(deps.config.faqUrls, journey.country)} country={journey.country} />
      </>
    ),
  });
}

/** The step's answers to keep for a Change from the summary (the step module's `answers`). */
const answersOfStep = (step: StepId) => stepModules.get(step)?.answers;

/**
 * Applies what the posted screen's submit did: the pure moves of shared/pageMachine.ts on the session, the
 * step's start when the post moved into another step, then the answer to the browser.
 */
async function applyOutcome(
  req: Request,
  res: Response,
  deps: AppDeps,
  at: { journey: AtPage; ci: CustomerInformationProgress; module: AnyStep; shown: string },
  outcome: ScreenOutcome<string>,
): Promise<void> {
  const { journey, ci, module, shown } = at;
  const here = routes.customerInformation(journey.prospectId);
  switch (outcome.kind) {
    case 'finish':
      advance(ci);
      await entered(req, deps, journey, ci);
      return redirectAfterSave(req, res, here);
    case 'screen':
      moveTo(module, ci, shown, outcome.screen);
      return redirectAfterSave(req, res, outcome.fragment ? `${here}#${outcome.fragment}` : here);
    case 'again':
      if (outcome.screen !== undefined) moveTo(module, ci, shown, outcome.screen);
      return renderStep(req, res, deps, journey, ci, {
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
      if (changeStep(ci, outcome.step, answersOfStep)) await entered(req, deps, journey, ci);
      return redirectAfterSave(req, res, here);
  }
}

/** A post's failed upstream call (customer-information §7 call wrapper): the step again with the error banner. */
async function stepFailed(
  req: Request,
  res: Response,
  deps: AppDeps,
  found: { journey: AtPage; ci: CustomerInformationProgress },
  err: unknown,
  message: string,
  screen?: string,
) {
  if (!(err instanceof UpstreamError)) throw err;
  const { journey, ci } = found;
  deps.logger.warn({ status: err.status, step: ci.steps[ci.current], ...(screen === undefined ? {} : { screen }) }, message);
  await renderStep(req, res, deps, journey, ci, { status: 502, error: callErrorKind(err) });
}

/** What a loader's island polls (JSON): the step and screen a GET would show now. Reads only. */
async function shownNow(req: Request, deps: AppDeps, found: { journey: AtPage; ci: CustomerInformationProgress }) {
  const ci = structuredClone(found.ci);
  await settled(req, deps, found.journey, ci);
  const module = currentStep(ci);
  const shown = module ? (await currentScreen(module, ci, (screen) => contextFor(req, deps, found.journey, ci, screen))).name : null;
  const answer: ShownScreen = { step: ci.steps[ci.current] ?? null, screen: shown };
  return answer;
}

/** A post of a step's form: the stale-post rule, then the posted screen's answer (customer-information §2.3). */
async function postStep(req: Request, res: Response, deps: AppDeps, found: { journey: AtPage; ci: CustomerInformationProgress }): Promise<void> {
  const { journey, ci } = found;
  const here = routes.customerInformation(journey.prospectId);
  let posted: NamedScreen | null = null;
  try {
    // Upload forms post multipart: text fields into req.body, the file kept for uploads.tsx (uploadFile).
    if (isMultipart(req)) await parseMultipart(req, res);
    selectLegacyForm(ci, req.query);
    // A step a background run has finished is left now, so the post answers the step shown.
    if (await settled(req, deps, journey, ci)) await entered(req, deps, journey, ci);
    const module = currentStep(ci);
    const body = formFields.safeParse(req.body);
    if (!module || !body.success) return redirectAfterSave(req, res, here);
    const ctxOf = (screen: string) => contextFor(req, deps, journey, ci, screen);
    const shown = await currentScreen(module, ci, ctxOf);
    posted = screenPosted(module, shown.name, body.data);
    if (!posted) return redirectAfterSave(req, res, here);
    const outcome = (await posted.screen.answer(ctxOf(posted.name), body.data)) ?? { kind: 'screen', screen: shown.name };
    await applyOutcome(req, res, deps, { journey, ci, module, shown: shown.name }, outcome);
  } catch (err) {
    await stepFailed(req, res, deps, found, err, 'customer-information step failed', posted?.name);
  }
}

/** The header's Back: a loader's disables it, a screen may answer it itself, else the machine's Back (shared/pageMachine.ts goBack). */
async function postBack(req: Request, res: Response, deps: AppDeps, found: { journey: AtPage; ci: CustomerInformationProgress }): Promise<void> {
  const { journey, ci } = found;
  const here = routes.customerInformation(journey.prospectId);
  try {
    if (await settled(req, deps, journey, ci)) await entered(req, deps, journey, ci);
    const module = currentStep(ci);
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
    await stepFailed(req, res, deps, found, err, 'customer-information back failed');
  }
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

  router.get(routePatterns.customerInformationShown, (req, res, next) => {
    const found = progressOf(req, req.params.prospectId);
    if (!found) return void res.status(403).json({ error: 'forbidden' });
    shownNow(req, deps, found)
      .then((shown) => res.set('cache-control', 'no-store').json(shown))
      .catch(next);
  });

  router.post(routePatterns.customerInformationStep, (req, res, next) => {
    const found = progressOf(req, req.params.prospectId);
    if (!found) return notAtPage(req, res, deps);
    // Behind the door of signing, a post from a page shown before it (a Change, Sign, a stale tab) changes
    // nothing and calls nothing upstream: back to the page, which offers only the way on to creation;
    // "I have signed" (signed in another tab) is that way on.
    if (signingDoorClosed(found.journey)) {
      const creation = signedCheckPost.safeParse(req.body).success;
      return res.redirect(303, creation ? routes.customerCreation(found.journey.prospectId) : routes.customerInformation(found.journey.prospectId));
    }
    postStep(req, res, deps, found).catch(next);
  });

  router.post(routePatterns.customerInformationBack, (req, res, next) => {
    const found = progressOf(req, req.params.prospectId);
    if (!found) return notAtPage(req, res, deps);
    if (signingDoorClosed(found.journey)) return res.redirect(303, routes.customerInformation(found.journey.prospectId));
    postBack(req, res, deps, found).catch(next);
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
