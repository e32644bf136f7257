// Brokerage API simulator: authentication sessions, onboarding routing, prospects and their steps, signing and
// customer creation. Every request is parsed with the shared wire contracts and every answer is shaped by them,
// so a drift between sandbox and server shows up as a failing parse rather than a silent mismatch.
import { randomBytes, randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  accountPickerStepRequest,
  becomeCustomerIntentRequest,
  blockedBody,
  brokeragePaths,
  createCustomerRequest,
  createCustomerResponse,
  createProspectRequest,
  createProspectResponse,
  creationStatusQuery,
  creationStatusResponse,
  initialStepsResponse,
  okResponse,
  bankidSessionRequest,
  bankidSessionResponse,
  signicatSessionRequest,
  signicatSessionResponse,
  refreshTokenRequest,
  refreshTokenResponse,
  routingStatusResponse,
  signatureRequest,
  signatureResponse,
  systemStatusResponse,
  validationStepRequest,
  type AccountTypeWithCountry,
  type CountryCode,
  type Milestone,
  type StepId,
} from '../shared/contracts/brokerage.ts';
import { settleExpiry } from './orders.ts';
import { creationStatusAfter, findPersona, routingFor, uninitiatedStatus, type Persona } from './personas.ts';
import { customerRecord, type Prospect, type SandboxContext, type SandboxState, type Session } from './state.ts';

/** Lifetime of an access token, as the real session service reports it. */
export const ACCESS_TOKEN_TTL_SECONDS = 1800;

const INITIAL_STEPS: StepId[] = [
  'MILESTONE_ONE_STEP',
  'ACCOUNT_PICKER_STEP',
  'ACCOUNT_ALIAS_STEP',
  'MILESTONE_TWO_STEP',
  'CONTACT_INFORMATION_STEP',
  'CITIZENSHIP_STEP',
  'TAX_INFO_STEP',
  'KYC_STEP',
  'MILESTONE_THREE_STEP',
];
const LEGACY_INITIAL_STEPS: StepId[] = ['EXISTING_STEP'];
const MILESTONES: readonly Milestone[] = ['one', 'two', 'three'];

// Route patterns come from the contract's path builders, so the two can never disagree.
const PROSPECT_PLACEHOLDER = '__prospectId__';
const pattern = (build: (prospectId: string) => string) => build(PROSPECT_PLACEHOLDER).replace(PROSPECT_PLACEHOLDER, ':prospectId');
const prospectIdParam = (req: Request): string | undefined =>
  typeof req.params.prospectId === 'string' ? req.params.prospectId : undefined;

// --- answers ----------------------------------------------------------------------------

/** Error body of the brokerage API: { data: { message, fields } }. */
export function sendBrokerageError(res: Response, status: number, message: string, fields?: string[]): void {
  res.status(status).json({ data: { message, ...(fields ? { fields } : {}) } });
}

/** Send an answer after checking it against its contract schema. */
function send<S extends z.ZodType>(res: Response, schema: S, body: z.input<S>, status = 200): void {
  res.status(status).json(schema.parse(body));
}

/** Parse a request part with its contract; on failure answer 400 with the offending fields and return undefined. */
function parseOr400<S extends z.ZodType>(schema: S, input: unknown, res: Response): z.output<S> | undefined {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(body)'))];
  sendBrokerageError(res, 400, 'Invalid request', fields);
  return undefined;
}

const newToken = () => randomBytes(32).toString('base64url');

// --- sessions ---------------------------------------------------------------------------

/** Start a session for a persona (after BankID, or via the sandbox shortcut for other countries). */
export function startSession(state: SandboxState, persona: Persona): Session {
  const session: Session = { id: randomUUID(), persona, refreshToken: newToken() };
  state.sessions.set(session.id, session);
  state.refreshTokens.set(session.refreshToken, session.id);
  return session;
}

function endSession(state: SandboxState, session: Session): void {
  state.sessions.delete(session.id);
  state.refreshTokens.delete(session.refreshToken);
  for (const [jwt, token] of state.accessTokens) if (token.sessionId === session.id) state.accessTokens.delete(jwt);
}

function sessionOf(res: Response): Session {
  return res.locals.session as Session;
}

// --- router -----------------------------------------------------------------------------

export function brokerageRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();
  const { state } = ctx;

  /** Bearer authentication; unknown, expired or missing tokens get the upstream's 401 body. */
  const requireSession = (req: Request, res: Response, next: NextFunction) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const token = match?.[1] ? state.accessTokens.get(match[1]) : undefined;
    const session = token && token.expiresAt > Date.now() ? state.sessions.get(token.sessionId) : undefined;
    if (!session) {
      res.status(401).json({ code: 'EXPIRED_ACCESS_TOKEN' });
      return;
    }
    res.locals.session = session;
    next();
  };

  /** The prospect in :prospectId, answering 404 when unknown and 403 when it belongs to someone else. */
  const ownedProspect = (prospectId: string | undefined, res: Response): Prospect | undefined => {
    const prospect = prospectId ? state.prospects.get(prospectId) : undefined;
    if (!prospect) {
      sendBrokerageError(res, 404, 'No such prospect');
      return undefined;
    }
    if (prospect.owner.nationalId !== sessionOf(res).persona.nationalId) {
      sendBrokerageError(res, 403, 'The prospect belongs to another customer');
      return undefined;
    }
    return prospect;
  };

  // --- authentication ---

  router.post(brokeragePaths.bankidSession, (req, res) => {
    const body = parseOr400(bankidSessionRequest, req.body, res);
    if (!body) return;
    const order = state.orders.get(body.orderReference);
    if (!order || settleExpiry(order).status !== 'complete' || !order.persona) {
      return sendBrokerageError(res, 400, 'The BankID order is not complete', ['orderReference']);
    }
    send(res, bankidSessionResponse, { refreshToken: startSession(state, order.persona).refreshToken });
  });

  // After the OIDC broker: the onboarding server verified the ID token and names the person; the persona must
  // belong to the country.
  router.post(brokeragePaths.signicatSession, (req, res) => {
    const body = parseOr400(signicatSessionRequest, req.body, res);
    if (!body) return;
    const persona = findPersona(body.nationalId);
    if (!persona || persona.country !== body.country) {
      return sendBrokerageError(res, 400, 'Unknown person for this country', ['nationalId']);
    }
    send(res, signicatSessionResponse, { refreshToken: startSession(state, persona).refreshToken });
  });

  router.post(brokeragePaths.refreshToken, (req, res) => {
    const body = parseOr400(refreshTokenRequest, req.body, res);
    if (!body) return;
    const sessionId = state.refreshTokens.get(body.refreshToken);
    if (!sessionId || !state.sessions.has(sessionId)) {
      return res.status(401).json({ code: 'INVALID_REFRESH_TOKEN', data: { message: 'Unknown refresh token' } });
    }
    // The access token is opaque: a random string only this sandbox can resolve to the session.
    const jwt = newToken();
    state.accessTokens.set(jwt, { sessionId, expiresAt: Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 });
    send(res, refreshTokenResponse, { jwt, expiresIn: ACCESS_TOKEN_TTL_SECONDS });
  });

  for (const path of [brokeragePaths.logoutCurrent, brokeragePaths.logoutLegacy]) {
    router.delete(path, requireSession, (_req, res) => {
      endSession(state, sessionOf(res));
      res.status(204).end();
    });
  }

  router.post(brokeragePaths.nnxSessionLogin, requireSession, (_req, res) => {
    res.status(204).end();
  });

  // --- routing and status ---

  router.get(brokeragePaths.routingStatus, requireSession, (_req, res) => {
    send(res, routingStatusResponse, routingFor(sessionOf(res).persona));
  });

  router.get(brokeragePaths.systemStatus, requireSession, (_req, res) => {
    send(res, systemStatusResponse, {
      creationPaused: sessionOf(res).persona.behaviour.creationPaused ?? false,
      feedbackBanner: null,
    });
  });

  router.put(brokeragePaths.becomeCustomerIntent, requireSession, (req, res) => {
    const body = parseOr400(becomeCustomerIntentRequest, req.body, res);
    if (!body) return;
    const { persona } = sessionOf(res);
    if (persona.behaviour.blockBecomeCustomer) return send(res, blockedBody, { shouldBlockBecomeCustomer: true }, 403);
    if (body.country !== persona.country) {
      return sendBrokerageError(res, 400, `The customer is registered in ${persona.country}`, ['country']);
    }
    customerRecord(state, persona).intent = body;
    res.status(204).end();
  });

  for (const path of [brokeragePaths.validationStep, brokeragePaths.validationStepV3]) {
    router.post(path, requireSession, (req, res) => {
      const body = parseOr400(validationStepRequest, req.body, res);
      if (!body) return;
      const intent = customerRecord(state, sessionOf(res).persona).intent;
      if (!intent) return sendBrokerageError(res, 400, 'Become-customer intent has not been declared');
      if (intent.country !== body.country) {
        return sendBrokerageError(res, 400, 'Country differs from the declared intent', ['country']);
      }
      send(res, okResponse, {});
    });
  }

  // --- prospects and steps ---

  for (const [path, legacy] of [
    [brokeragePaths.prospectsV3, false],
    [brokeragePaths.prospectsV2, true],
  ] as const) {
    router.post(path, requireSession, (req, res) => {
      const body = parseOr400(createProspectRequest, req.body, res);
      if (!body) return;
      const { persona } = sessionOf(res);
      if (body.country !== persona.country) {
        return sendBrokerageError(res, 400, `The customer is registered in ${persona.country}`, ['country']);
      }
      // Corporate and minor applicants use manual forms; only private individuals get prospects here.
      if (body.customerType !== 'PRIVATE') {
        return sendBrokerageError(res, 400, 'Only private customers can onboard online', ['customerType']);
      }
      const prospect: Prospect = {
        id: randomUUID(),
        owner: persona,
        country: body.country,
        customerType: body.customerType,
        legacy,
        milestones: new Set(),
        signed: false,
      };
      state.prospects.set(prospect.id, prospect);
      send(res, createProspectResponse, { prospect_id: prospect.id });
    });
  }

  router.get(pattern(brokeragePaths.initialSteps), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    send(res, initialStepsResponse, { data: { initialSteps: prospect.legacy ? LEGACY_INITIAL_STEPS : INITIAL_STEPS } });
  });

  router.post(pattern(brokeragePaths.accountPickerStep), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    const body = parseOr400(accountPickerStepRequest, req.body, res);
    if (!body) return;
    const problem = accountChoiceProblem(prospect.country, body.accountTypesWithCountry);
    if (problem) return sendBrokerageError(res, 400, problem, ['accountTypesWithCountry']);
    prospect.accountTypes = [...new Set(body.accountTypesWithCountry)];
    send(res, okResponse, {});
  });

  for (const milestone of MILESTONES) {
    router.post(pattern((id) => brokeragePaths.milestoneStep(id, milestone)), requireSession, (req, res) => {
      const prospect = ownedProspect(prospectIdParam(req), res);
      if (!prospect) return;
      prospect.milestones.add(milestone);
      send(res, okResponse, {});
    });
  }

  // --- signing ---

  router.post(pattern(brokeragePaths.signatures), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    const body = parseOr400(signatureRequest, req.body, res);
    if (!body) return;
    if (!prospect.accountTypes) {
      return sendBrokerageError(res, 400, 'Choose accounts before signing', ['accountTypesWithCountry']);
    }
    const id = randomUUID();
    state.signatures.set(id, {
      id,
      prospectId: prospect.id,
      cancelUrl: body.cancel_url,
      completeUrl: body.complete_url,
      postponeUrl: body.postpone_url,
      lang: body.lang,
    });
    send(res, signatureResponse, { data: { url: `${ctx.publicUrl}/sandbox/signing/${id}` } });
  });

  // --- customer creation ---

  router.post(brokeragePaths.customers, requireSession, (req, res) => {
    const body = parseOr400(createCustomerRequest, req.body, res);
    if (!body) return;
    const prospect = ownedProspect(body.prospect_id, res);
    if (!prospect) return;
    if (!prospect.signed) return sendBrokerageError(res, 400, 'The agreements have not been signed');
    const failure = prospect.owner.behaviour.createCustomerErrorMessage;
    if (failure) return send(res, createCustomerResponse, { data: { message: failure } });
    // Idempotent: a second POST neither restarts nor resets the progression.
    prospect.creation ??= { startedAt: Date.now(), polls: 0 };
    send(res, createCustomerResponse, { data: { prospect_id: prospect.id } });
  });

  router.get(brokeragePaths.creationStatus, requireSession, (req, res) => {
    const query = parseOr400(creationStatusQuery, req.query, res);
    if (!query) return;
    const prospect = ownedProspect(query.prospect_id, res);
    if (!prospect) return;
    if (!prospect.creation) return send(res, creationStatusResponse, uninitiatedStatus());
    prospect.creation.polls += 1;
    send(res, creationStatusResponse, creationStatusAfter(prospect.owner.behaviour.creation, prospect.creation.polls));
  });

  return router;
}

/** Why an account choice is not allowed for the prospect's country, or null when it is fine. */
export function accountChoiceProblem(country: CountryCode, codes: readonly AccountTypeWithCountry[]): string | null {
  const foreign = codes.filter((code) => !code.endsWith(`_${country}`));
  if (foreign.length) return `Account types not offered in ${country}: ${foreign.join(', ')}`;
  // In SE the stock and fund depot is always part of the account choice; the upstream refuses a choice without it.
  if (country === 'SE' && !codes.includes('DEP_SE')) return 'A stock and fund account (DEP_SE) is required in SE';
  return null;
}
