// What the customer-information page (customerInformationPage.tsx) knows of the person and the current step:
// the journey at the page, each step's context, the screen shown, the screen a post answers, and the steps'
// own hooks — a step's start when a post moves into it (the KYC run) and a step that a background run has
// finished (the KYC step once its run is submitted). The pure moves between steps are shared/pageMachine.ts.
import type { Request } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { translatorFor } from '../../pages.ts';
import type { CustomerInformationProgress, Journey } from '../../journey.ts';
import { stepIds } from '../../../shared/contracts/brokerageContract.ts';
import { acceptsPost, advance, isScreenOf } from '../../../shared/pageMachine.ts';
import { routes } from '../../../shared/routes.ts';
import { brokerageForPerson, type PersonBrokerage } from './calls.ts';
import type { AnyStep, Screen, StepContext } from './stepModule.ts';
import { stepModules } from './stepRegistry.ts';
import { restoreSavedApplication } from './savedAnswers.ts';
import { UpstreamError } from '../../upstream/http.ts';

/** A journey at its customer-information page: identified, with this prospect (its id kept once, on the journey) and its progress. */
export type AtPage = Journey & { prospectId: string; customerInformation: CustomerInformationProgress };

/** The journey has its prospect and steps (the same object, so what a step writes on it is kept in the session). */
export function isAtPage(journey: Journey): journey is AtPage {
  return Boolean(journey.prospectId) && journey.customerInformation !== undefined;
}

/** The module of the current step; undefined when this build has none for it. */
export function currentStep(ci: CustomerInformationProgress): AnyStep | undefined {
  const step = ci.steps[ci.current];
  return step === undefined ? undefined : stepModules.get(step);
}

// One bound client per request, so a token refreshed by one call is used by every later call of it.
const requestBrokerage = new WeakMap<Request, PersonBrokerage>();

/** The step's context: its brokerage calls go through the customer-information §7 call wrapper (calls.ts). */
export function contextFor(req: Request, deps: AppDeps, journey: AtPage, ci: CustomerInformationProgress, screen: string): StepContext<string> {
  let brokerage = requestBrokerage.get(req);
  if (!brokerage) {
    // Page views take the answers that are the same for everyone from the shared cache; a post asks afresh, so its
    // first call as the person still finds out that their brokerage session has ended (customer-information §7).
    const reads = req.method === 'GET' || req.method === 'HEAD';
    brokerage = brokerageForPerson(deps.brokerage, journey, deps.logger, reads ? deps.sharedAnswers : undefined);
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

export interface NamedScreen {
  name: string;
  screen: Screen<string>;
}

/** The screen shown now: the step's own resolve (a step following a background run), else the session's if the step has it and it can be shown, else the step's first. */
export async function currentScreen(module: AnyStep, ci: CustomerInformationProgress, ctxOf: (screen: string) => StepContext<string>): Promise<NamedScreen> {
  const name = module.resolve ? await module.resolve(ctxOf(ci.screen ?? module.first)) : ci.screen;
  const found = name === undefined || !isScreenOf(module, name) ? undefined : module.screens[name];
  if (name !== undefined && found && (found.available?.(ctxOf(name)) ?? true)) return { name, screen: found };
  return { name: module.first, screen: module.screens[module.first]! };
}

// Every form names its step and screen, so a post from a stale tab or a double submit cannot answer another one.
const screenField = z.object({ step: z.enum(stepIds), screen: z.string().min(1).max(40) });

/** The screen a post answers, if the stale-post rule (shared/pageMachine.ts) accepts it. */
export function screenPosted(module: AnyStep, shown: string, body: unknown): NamedScreen | null {
  const posted = screenField.safeParse(body);
  if (!posted.success || posted.data.step !== module.id) return null;
  const name = posted.data.screen;
  const screen = acceptsPost(module, shown, name) ? module.screens[name] : undefined;
  return screen ? { name, screen } : null;
}

/**
 * Moves past every step that a background run has finished (the KYC step once its run is submitted):
 * on a post for good, on a GET only in the copy it renders (a GET writes nothing; the next post records it).
 */
export async function settled(req: Request, deps: AppDeps, journey: AtPage, ci: CustomerInformationProgress): Promise<boolean> {
  let moved = false;
  for (;;) {
    const module = currentStep(ci);
    if (!module?.resolve || ci.current >= ci.steps.length - 1) return moved;
    if ((await module.resolve(contextFor(req, deps, journey, ci, ci.screen ?? module.first))) !== 'finished') return moved;
    advance(ci);
    moved = true;
  }
}

/** A post moved the person into another step: the step's own start (the KYC run), if it has one. */
export async function entered(req: Request, deps: AppDeps, journey: AtPage, ci: CustomerInformationProgress): Promise<void> {
  const module = currentStep(ci);
  if (module?.enter) await module.enter(contextFor(req, deps, journey, ci, module.first));
}

/**
 * Routing has made the prospect's steps (server/app.ts hands this to the routing page): a resumed prospect's saved
 * answers are put back first (savedAnswers.ts), then its current step is entered as if a post had moved there (its
 * start, e.g. the KYC run, is due now). A saved application that cannot be read starts at the first step.
 */
export async function beginCustomerInformation(req: Request, deps: AppDeps, journey: Journey, resumed: boolean): Promise<void> {
  if (!isAtPage(journey)) return;
  const ci = journey.customerInformation;
  // Read before the saved answers, so a change another browser makes meanwhile leaves this copy behind, not current.
  const revision = await deps.applicationRevisions.latest(journey.prospectId);
  if (revision) ci.revision = revision;
  if (resumed) {
    const brokerage = contextFor(req, deps, journey, ci, ci.screen ?? '').brokerage;
    try {
      const { openedFresh } = await restoreSavedApplication(brokerage, journey.prospectId, ci, journey.country);
      deps.logger.info({ current: ci.steps[ci.current], openedFresh }, 'saved application resumed');
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      deps.logger.warn({ status: err.status }, 'saved application unreadable: starting at the first step');
    }
  }
  await entered(req, deps, journey, ci);
}

/**
 * Another browser of the person changed the application since this copy was made (server/infra/applicationRevisions.ts):
 * answers whether this copy is behind, and then replaces it with the application as the brokerage holds it (the same
 * read-back as identifying again), so the next page shows the one application rather than this browser's older copy.
 */
export async function caughtUp(req: Request, deps: AppDeps, journey: AtPage): Promise<boolean> {
  const latest = await deps.applicationRevisions.latest(journey.prospectId);
  const ci = journey.customerInformation;
  if (latest === null || latest === ci.revision) return false;
  const fresh: CustomerInformationProgress = { steps: ci.steps, current: 0, accounts: ci.accounts, answers: {}, revision: latest };
  const brokerage = contextFor(req, deps, journey, ci, ci.screen ?? '').brokerage;
  await restoreSavedApplication(brokerage, journey.prospectId, fresh, journey.country);
  for (const key of Object.keys(ci) as (keyof CustomerInformationProgress)[]) delete ci[key];
  Object.assign(ci, fresh);
  deps.logger.info({ current: ci.steps[ci.current] }, 'application changed in another browser: this copy caught up');
  await entered(req, deps, journey, ci);
  return true;
}
