// Resuming an application at the simulated brokerage: GET steps, GET related data by step name and GET onboarding
// ready (brokerageContract.ts "resuming an application"), answered from what the steps saved (sandbox/savedSteps.ts);
// a count of each step's submits per prospect; the half-finished application a persona starts with; and the test
// read-out GET /sandbox/prospects (a person's prospects, how often each was resumed and each step submitted).
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { brokeragePaths, stepId, type Milestone, type StepId } from '../shared/contracts/brokerageContract.ts';
import {
  onboardingReadyResponse,
  prospectStepsResponse,
  savedApplicationPaths,
  stepRelatedDataResponse,
} from '../shared/contracts/savedApplicationContract.ts';
import { kycPaths } from '../shared/contracts/kycContract.ts';
import { legacyPaths } from '../shared/contracts/legacyContract.ts';
import { defaultAccounts } from '../shared/accountPicker.ts';
import { authenticate, ownedProspectOf } from './brokerage.ts';
import { DAY_MS, keptUntil } from './keptProspects.ts';
import { personas, type Persona } from './personas.ts';
import { readinessOf, relatedDataOf, savedSteps, stepStatesOf } from './savedSteps.ts';
import type { Prospect, SandboxContext, SandboxState } from './state.ts';

const PROSPECT = '__prospectId__';
const STEP = '__stepName__';
/** An Express route pattern of a contract path builder: the placeholders become :prospectId and :stepName. */
const routeOf = (path: string) => path.replace(PROSPECT, ':prospectId').replace(STEP, ':stepName');
const prospectParams = z.object({ prospectId: z.string().min(1).max(100) });

// --- the step submits, counted per prospect ----------------------------------------------------------

/** Each call that submits a step (the call that saves its answers), with the step it submits. */
const stepSubmitCalls: { method: string; pattern: RegExp; step: StepId }[] = [
  ['POST', brokeragePaths.accountPickerStep(PROSPECT), 'ACCOUNT_PICKER_STEP'],
  ['POST', brokeragePaths.accountAliasStep(PROSPECT), 'ACCOUNT_ALIAS_STEP'],
  ['POST', brokeragePaths.contactInfoStep(PROSPECT), 'CONTACT_INFORMATION_STEP'],
  ['POST', brokeragePaths.submitCitizenshipV3, 'CITIZENSHIP_STEP'],
  ['POST', brokeragePaths.residencyStep(PROSPECT), 'RESIDENCY_STEP'],
  ['POST', brokeragePaths.taxInfoStepV3(PROSPECT), 'TAX_INFO_STEP'],
  ['POST', kycPaths.kycStep(PROSPECT), 'KYC_STEP'],
  ['POST', brokeragePaths.milestoneStep(PROSPECT, 'one'), 'MILESTONE_ONE_STEP'],
  ['POST', brokeragePaths.milestoneStep(PROSPECT, 'two'), 'MILESTONE_TWO_STEP'],
  ['POST', brokeragePaths.milestoneStep(PROSPECT, 'three'), 'MILESTONE_THREE_STEP'],
  ['PUT', legacyPaths.prospect(PROSPECT), 'EXISTING_STEP'],
].map(([method, path, step]) => ({
  method: method!,
  pattern: new RegExp(`^${path!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(PROSPECT, '([^/]+)')}$`),
  step: step as StepId,
}));

/** The prospect a step submit names: in its path, or (submit-citizenship) as prospectId in its body. */
function submittedProspect(req: Request, match: RegExpExecArray): string | undefined {
  if (match[1]) return decodeURIComponent(match[1]);
  const body: unknown = req.body;
  const named = typeof body === 'object' && body !== null && 'prospectId' in body ? body.prospectId : undefined;
  return typeof named === 'string' ? named : undefined;
}

/**
 * Counts every step submit that reaches the simulated brokerage (after injected faults) with the status it was answered;
 * an accepted one is a save: the prospect is kept from then (sandbox/keptProspects.ts).
 */
export function stepSubmitRecorder(ctx: SandboxContext) {
  return (req: Request, res: Response, next: NextFunction) => {
    for (const call of stepSubmitCalls) {
      const match = req.method === call.method ? call.pattern.exec(req.path) : null;
      const prospectId = match ? submittedProspect(req, match) : undefined;
      if (!prospectId) continue;
      res.on('finish', () => {
        const prospect = ctx.state.prospects.get(prospectId);
        if (!prospect) return;
        recordSubmit(ctx.state, prospect, call.step, res.statusCode);
        if (res.statusCode < 300) prospect.savedAt = ctx.now();
      });
      break;
    }
    next();
  };
}

function recordSubmit(state: SandboxState, prospect: Prospect, step: StepId, status: number): void {
  let submits = state.stepSubmits.get(prospect.id);
  if (!submits) state.stepSubmits.set(prospect.id, (submits = new Map()));
  submits.set(step, [...(submits.get(step) ?? []), status]);
}

// --- the half-finished application a persona starts with ----------------------------------------------

/** Names the half-finished application gave the accounts, in the accounts' order. */
const SEEDED_ALIASES = ['Långsiktigt', 'Buffert', 'Pension'];

/**
 * The application a persona with savedApplication 'halfFinished' already has: made three days ago and last saved to
 * two days ago, with milestone one, the account picker (the market's defaults), the alias, milestone two and the
 * contact information done, each submitted once; citizenship, tax, KYC and signing open.
 */
function seedHalfFinished(ctx: SandboxContext, persona: Persona): void {
  const now = ctx.now();
  const createdAt = now - 3 * DAY_MS;
  const accounts = defaultAccounts(persona.country)
    .filter((a) => a.selected)
    .map((a) => a.accountTypeWithCountry);
  const prospect: Prospect = {
    id: randomUUID(),
    owner: persona,
    country: persona.country,
    customerType: 'PRIVATE',
    legacy: false,
    accountTypes: accounts,
    milestones: new Map<Milestone, number>([
      ['one', createdAt],
      ['two', createdAt],
    ]),
    signed: false,
    createdAt,
    savedAt: now - 2 * DAY_MS,
    resumed: 0,
  };
  ctx.state.prospects.set(prospect.id, prospect);
  const steps = savedSteps(prospect);
  steps.pickedAccounts = [...accounts];
  steps.aliases = accounts.map((accountTypeWithCountry, i) => ({ accountTypeWithCountry, alias: SEEDED_ALIASES[i % SEEDED_ALIASES.length]! }));
  const email = `${persona.givenName}.${persona.surname}@example.com`
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  steps.contact = { email, mobilePhoneNumber: '+46701234567' };
  for (const step of ['MILESTONE_ONE_STEP', 'ACCOUNT_PICKER_STEP', 'ACCOUNT_ALIAS_STEP', 'MILESTONE_TWO_STEP', 'CONTACT_INFORMATION_STEP'] as const) {
    recordSubmit(ctx.state, prospect, step, 200);
  }
}

/** The applications the personas start with (at start and after POST /sandbox/reset). */
export function seedApplications(ctx: SandboxContext): void {
  for (const persona of personas) if (persona.behaviour.savedApplication === 'halfFinished') seedHalfFinished(ctx, persona);
}

// --- the calls -------------------------------------------------------------------------------------------

export function applicationsRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();
  const { state } = ctx;

  /** The request's prospect of the bearer's person, or undefined after answering 401, 400, 404 or 403. */
  const prospectOf = (req: Request, res: Response): Prospect | undefined => {
    const session = authenticate(state, req, res);
    if (!session) return undefined;
    const params = prospectParams.safeParse(req.params);
    return ownedProspectOf(state, session, params.success ? params.data.prospectId : undefined, res);
  };

  router.get(routeOf(savedApplicationPaths.prospectSteps(PROSPECT)), (req, res) => {
    const prospect = prospectOf(req, res);
    if (!prospect) return;
    const body = { data: { steps: stepStatesOf(state, prospect), keptUntil: new Date(keptUntil(ctx, prospect)).toISOString() } };
    res.json(prospectStepsResponse.parse(body));
  });

  // An unknown step name answers 404, as an unknown path does; every known one answers its shape (empty when nothing is saved).
  router.get(routeOf(brokeragePaths.stepRelatedData(PROSPECT, STEP as StepId)), (req, res) => {
    const prospect = prospectOf(req, res);
    if (!prospect) return;
    const step = stepId.safeParse(req.params.stepName);
    if (!step.success) return void res.status(404).json({ data: { message: 'No such step' } });
    res.json(stepRelatedDataResponse(step.data).parse({ data: { stepName: step.data, stepRelatedData: relatedDataOf(state, prospect, step.data) } }));
  });

  router.get(routeOf(savedApplicationPaths.onboardingReady(PROSPECT)), (req, res) => {
    const prospect = prospectOf(req, res);
    if (!prospect) return;
    res.json(onboardingReadyResponse.parse({ data: readinessOf(state, prospect) }));
  });

  // Test-only read-out: the person's prospects in creation order, each with how often prospect creation answered it
  // again, its steps, and per step the statuses answered to its submits (exactly one prospect, no answer sent twice).
  router.get('/sandbox/prospects', (req, res) => {
    const query = z.object({ nationalId: z.string().min(1).max(32) }).safeParse(req.query);
    if (!query.success) return void res.status(400).json({ error: 'nationalId is required' });
    const iso = (ms: number) => new Date(ms).toISOString();
    const prospects = [...state.prospects.values()]
      .filter((p) => p.owner.nationalId === query.data.nationalId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((p) => ({
        prospectId: p.id,
        legacy: p.legacy,
        signed: p.signed,
        createdAt: iso(p.createdAt),
        savedAt: iso(p.savedAt),
        keptUntil: iso(keptUntil(ctx, p)),
        resumed: p.resumed,
        steps: stepStatesOf(state, p),
        submits: Object.fromEntries(state.stepSubmits.get(p.id) ?? []),
      }));
    res.json({ prospects });
  });

  return router;
}
