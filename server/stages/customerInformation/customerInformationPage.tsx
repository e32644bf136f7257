// The customer-information page (customer-information.md §2–4), declared with the page kit: one step at a time, each
// a set of named screens (stepModule.ts). Every form posts its step and screen; a post for any screen but the one
// shown is stale and goes back to it. Back returns to the last visited screen, then the previous step; a dialog is a
// screen too (a modal over its screen with JavaScript). The moves are pure (shared/pageMachine.ts); the steps'
// contexts and hooks are pageContext.ts.
import type { Request } from 'express';
import type { ReactElement } from 'react';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { translatorFor, type PageOptions } from '../../pages.ts';
import { signingDoorClosed, type CustomerInformationProgress } from '../../journey.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { endJourney } from '../../endJourney.ts';
import { answered, definePage, json, page, redirect, type Outcome, type PageContext } from '../../pageKit/definePage.ts';
import { refuse } from '../../pageKit/access.ts';
import { callErrorKind, type StepErrorKind } from './calls.ts';
import type { StepId } from '../../../shared/contracts/brokerageContract.ts';
import { progressPercent, stepBefore } from '../../../shared/customerInformationStepList.ts';
import { progressStepOf } from '../../../shared/onboardingProgress.ts';
import { changeStep, goBack, moveTo, selectLegacyForm, advance } from '../../../shared/pageMachine.ts';
import { abortDialog, StepPage, StepUnavailable, ViewUnavailable } from '../../../views/pages/CustomerInformationPageView.tsx';
import type { AnyStep, ScreenOutcome } from './stepModule.ts';
import { stepModules } from './stepRegistry.ts';
import { isMultipart, parseMultipart } from '../../uploads/receiveFiles.ts';
import { routes, siteRoot, type RouteName } from '../../../shared/routes.ts';
import { Dialog } from '../../../views/components/Dialog.tsx';
import { forMarket } from '../../../shared/markets.ts';
import { SigningClosed } from '../../../views/pages/SigningClosedPageView.tsx';
import { signingReturnPages } from './signingReturns.ts';
import { caughtUp, contextFor, currentScreen, currentStep, entered, isAtPage, screenPosted, settled, type AtPage, type NamedScreen } from './pageContext.ts';
import { notSavedQuery, refusedStepPost, type NotSaved } from './refusedStepPost.ts';
import type { ShownScreen } from '../../../shared/shownScreen.ts';

// What an HTML form posts: names with one or more text values. Anything else (JSON objects) is not a form.
const formFields = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
type FormFields = z.infer<typeof formFields>;

/** How often a busy screen (the KYC loader) reloads itself without JavaScript. */
const BUSY_REFRESH_SECONDS = 2;

/** A request at the page: the person's journey with its prospect and steps. */
interface Here {
  req: Request;
  deps: AppDeps;
  journey: AtPage;
}

/**
 * The page's handlers run only for a journey with its steps (routing made them with the prospect). One without them
 * is answered as the kit answers a stranger (server/pageKit/access.ts): the start page, or 403 to the JSON poll.
 */
async function atPage<R extends RouteName>(ctx: PageContext<R, 'ownsProspect'>, then: (here: Here) => Promise<Outcome>): Promise<Outcome> {
  const { req, res, deps, journey } = ctx;
  if (!isAtPage(journey)) {
    refuse(req, res, deps);
    return answered;
  }
  return then({ req, deps, journey });
}

const faqOf = ({ deps, journey }: Here) => ({ url: forMarket(deps.config.faqUrls, journey.country), country: journey.country });

interface StepRender {
  status?: number;
  error?: StepErrorKind;
  /** A step's own re-render (errors shown, input kept) instead of its plain view. */
  view?: ReactElement;
  /** The previous post was refused by the session lock (refusedStepPost): say it was not saved. */
  notSaved?: NotSaved;
}

async function stepPage(here: Here, stored: CustomerInformationProgress, extra: StepRender = {}): Promise<PageOptions> {
  const { req, deps, journey } = here;
  const t = translatorFor(req, deps);
  const retry = routes.customerInformation(journey.prospectId);
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
    return { progress: progressStepOf('customerInformation'), status: 502, body: <StepUnavailable t={t} href={retry} /> };
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
      body = <ViewUnavailable t={t} kind={error} href={retry} />;
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
  return {
    progress: progressStepOf('customerInformation'),
    status,
    funnel: { step: module.id, screen: shown.name },
    // A busy screen (a loader) refreshes itself without JavaScript; its island asks instead.
    noscriptRefreshSeconds: shown.screen.busy ? BUSY_REFRESH_SECONDS : undefined,
    body: (
      <StepPage t={t} header={header} error={error} notSaved={extra.notSaved} step={step} screen={shown.name} faq={faqOf(here)}>
        {body}
      </StepPage>
    ),
  };
}

/** Milestone three's "I have signed" (customer-information §4.8), by the person or by the page itself. */
const signedCheckPost = z.object({ step: z.literal('MILESTONE_THREE_STEP'), intent: z.literal('signed') });

/**
 * The page behind the one-way door of signing (journey.ts signingDoorClosed): only the way on to customer
 * creation. Back is disabled (customer-information §2.2 "after a milestone"); Exit stays, as everywhere.
 */
function closedPage(here: Here): PageOptions {
  const { req, deps, journey } = here;
  const ci = journey.customerInformation;
  const t = translatorFor(req, deps);
  const header = {
    backAction: null,
    exitUrl: routes.customerInformationExit(journey.prospectId),
    continueUrl: routes.customerInformation(journey.prospectId),
    progressPercent: progressPercent(ci.steps, ci.current, 0),
  };
  return {
    progress: progressStepOf('customerInformation'),
    funnel: { step: 'signing', screen: 'signed' },
    body: (
      <StepPage t={t} header={header} screen="signed" faq={faqOf(here)}>
        <SigningClosed t={t} creationUrl={routes.customerCreation(journey.prospectId)} />
      </StepPage>
    ),
  };
}

/** The step's answers to keep for a Change from the summary (the step module's `answers`). */
const answersOfStep = (step: StepId) => stepModules.get(step)?.answers;

/**
 * Applies what the posted screen's submit did: the pure moves of shared/pageMachine.ts on the session, the
 * step's start when the post moved into another step, then the answer to the browser.
 */
async function applyOutcome(here: Here, at: { module: AnyStep; shown: string }, outcome: ScreenOutcome<string>): Promise<Outcome> {
  const { req, deps, journey } = here;
  const ci = journey.customerInformation;
  const { module, shown } = at;
  const url = routes.customerInformation(journey.prospectId);
  switch (outcome.kind) {
    case 'finish':
      advance(ci);
      await entered(req, deps, journey, ci);
      return redirect(url);
    case 'screen':
      moveTo(module, ci, shown, outcome.screen);
      return redirect(outcome.fragment ? `${url}#${outcome.fragment}` : url);
    case 'again':
      if (outcome.screen !== undefined) moveTo(module, ci, shown, outcome.screen);
      return page(await stepPage(here, ci, { status: outcome.status, view: outcome.view, ...(outcome.error ? { error: outcome.error } : {}) }));
    case 'back':
      if (goBack(ci)) await entered(req, deps, journey, ci);
      return redirect(url);
    case 'redirect':
      return redirect(outcome.url);
    case 'changeStep':
      // Refused (not an earlier step, or KYC): the screen again, nothing changed.
      if (changeStep(ci, outcome.step, answersOfStep)) await entered(req, deps, journey, ci);
      return redirect(url);
  }
}

/** A post's failed upstream call (customer-information §7 call wrapper): the step again with the error banner. */
async function stepFailed(here: Here, err: unknown, message: string, screen?: string): Promise<Outcome> {
  if (!(err instanceof UpstreamError)) throw err;
  const ci = here.journey.customerInformation;
  here.deps.logger.warn({ status: err.status, step: ci.steps[ci.current], ...(screen === undefined ? {} : { screen }) }, message);
  return page(await stepPage(here, ci, { status: 502, error: callErrorKind(err) }));
}

/** What a loader's island polls (JSON): the step and screen a GET would show now. Reads only. */
async function shownNow({ req, deps, journey }: Here): Promise<ShownScreen> {
  const ci = structuredClone(journey.customerInformation);
  await settled(req, deps, journey, ci);
  const module = currentStep(ci);
  const shown = module ? (await currentScreen(module, ci, (screen) => contextFor(req, deps, journey, ci, screen))).name : null;
  return { step: ci.steps[ci.current] ?? null, screen: shown };
}

/** A post of a step's form: the stale-post rule, then the posted screen's answer (customer-information §2.3). */
async function postStep(here: Here, body: FormFields): Promise<Outcome> {
  const { req, deps, journey } = here;
  const ci = journey.customerInformation;
  const url = routes.customerInformation(journey.prospectId);
  let posted: NamedScreen | null = null;
  try {
    selectLegacyForm(ci, req.query);
    // A step a background run has finished is left now, so the post answers the step shown.
    if (await settled(req, deps, journey, ci)) await entered(req, deps, journey, ci);
    const module = currentStep(ci);
    if (!module) return redirect(url);
    const ctxOf = (screen: string) => contextFor(req, deps, journey, ci, screen);
    const shown = await currentScreen(module, ci, ctxOf);
    posted = screenPosted(module, shown.name, body);
    if (!posted) return redirect(url);
    const outcome = (await posted.screen.answer(ctxOf(posted.name), body)) ?? { kind: 'screen', screen: shown.name };
    return await applyOutcome(here, { module, shown: shown.name }, outcome);
  } catch (err) {
    return stepFailed(here, err, 'customer-information step failed', posted?.name);
  }
}

/** The header's Back: a loader's disables it, a screen may answer it itself, else the machine's Back (shared/pageMachine.ts goBack). */
async function postBack(here: Here): Promise<Outcome> {
  const { req, deps, journey } = here;
  const ci = journey.customerInformation;
  const url = routes.customerInformation(journey.prospectId);
  try {
    if (await settled(req, deps, journey, ci)) await entered(req, deps, journey, ci);
    const module = currentStep(ci);
    if (module) {
      const shown = await currentScreen(module, ci, (screen) => contextFor(req, deps, journey, ci, screen));
      // A loader disables navigation (customer-information §2.2).
      if (shown.screen.busy) return redirect(url);
      // A screen that answers Back itself (the KYC question: the previous page).
      if (await shown.screen.back?.(contextFor(req, deps, journey, ci, shown.name))) return redirect(url);
    }
    if (goBack(ci)) await entered(req, deps, journey, ci);
    return redirect(url);
  } catch (err) {
    return stepFailed(here, err, 'customer-information back failed');
  }
}

/**
 * A post that may change the application (a step's form, Back), under the application's lock (server/infra/sessionLocks.ts):
 * from a copy another browser of the person has left behind it changes nothing (the stale-post rule: back to the page,
 * which shows the application as it stands now); otherwise it runs, and a change it made records a new revision.
 */
async function changing(here: Here, post: () => Promise<Outcome>): Promise<Outcome> {
  const { req, deps, journey } = here;
  const ci = journey.customerInformation;
  try {
    if (await caughtUp(req, deps, journey)) return redirect(routes.customerInformation(journey.prospectId));
  } catch (err) {
    return stepFailed(here, err, 'customer-information copy could not catch up');
  }
  const before = JSON.stringify(ci);
  const outcome = await post();
  if (JSON.stringify(ci) !== before) ci.revision = await deps.applicationRevisions.record(journey.prospectId);
  return outcome;
}

const stepsPage = definePage({
  route: 'customerInformation',
  access: 'ownsProspect',
  session: 'reads',
  get: (ctx) =>
    atPage(ctx, async (here) => {
      // After signing (a Back in the browser, a bookmark): the way on to creation only.
      if (signingDoorClosed(here.journey)) return page(closedPage(here));
      const notSaved = notSavedQuery.safeParse(ctx.req.query.notSaved);
      return page(await stepPage(here, here.journey.customerInformation, { notSaved: notSaved.success ? notSaved.data : undefined }));
    }),
});

const shownPage = definePage({
  route: 'customerInformationShown',
  access: 'ownsProspect',
  session: 'reads',
  get: (ctx) => atPage(ctx, async (here) => json(await shownNow(here))),
});

const stepPostPage = definePage({
  route: 'customerInformationStep',
  access: 'ownsProspect',
  session: 'writes',
  busy: refusedStepPost,
  post: {
    // Upload forms post multipart: text fields into req.body, the file kept for the upload screen (steps/fileUploadScreen.tsx).
    receive: async (req, res) => {
      if (isMultipart(req)) await parseMultipart(req, res);
    },
    body: formFields,
    invalid: (ctx) => redirect(routes.customerInformation(ctx.params.prospectId)),
    handle: (ctx, body) =>
      atPage(ctx, async (here) => {
        // Behind the door of signing, a post from a page shown before it (a Change, Sign, a stale tab) changes
        // nothing and calls nothing upstream: back to the page, which offers only the way on to creation;
        // "I have signed" (signed in another tab) is that way on.
        if (!signingDoorClosed(here.journey)) return changing(here, () => postStep(here, body));
        const prospectId = here.journey.prospectId;
        return redirect(signedCheckPost.safeParse(body).success ? routes.customerCreation(prospectId) : routes.customerInformation(prospectId));
      }),
  },
});

const backPage = definePage({
  route: 'customerInformationBack',
  access: 'ownsProspect',
  session: 'writes',
  busy: refusedStepPost,
  post: {
    body: z.unknown(),
    handle: (ctx) =>
      atPage(ctx, async (here) =>
        signingDoorClosed(here.journey) ? redirect(routes.customerInformation(here.journey.prospectId)) : changing(here, () => postBack(here)),
      ),
  },
});

// The abort modal as its own page (works without JavaScript).
const exitPage = definePage({
  route: 'customerInformationExit',
  access: 'ownsProspect',
  session: 'reads',
  get: ({ req, deps, params }) => {
    const t = translatorFor(req, deps);
    const dialog = abortDialog(t, routes.customerInformationExit(params.prospectId), routes.customerInformation(params.prospectId));
    return page({ progress: progressStepOf('customerInformation'), body: <Dialog {...dialog} /> });
  },
});

// Yes, exit: the person's brokerage sessions end upstream, then ours (server/endJourney.ts).
const exitPostPage = definePage({
  route: 'customerInformationExit',
  access: 'ownsProspect',
  session: 'writes',
  busy: refusedStepPost,
  post: {
    body: z.unknown(),
    handle: async ({ req, res, deps }) => {
      await endJourney(req, res, deps, siteRoot);
      return answered;
    },
  },
});

export const customerInformationPages = [stepsPage, shownPage, stepPostPage, backPage, exitPage, exitPostPage, ...signingReturnPages];
