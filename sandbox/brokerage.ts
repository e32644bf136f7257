// Brokerage API simulator: authentication sessions, onboarding routing, prospects and their steps, signing and
// customer creation. Every request is parsed with the shared wire contracts and every answer is shaped by them,
// so a drift between sandbox and server shows up as a failing parse rather than a silent mismatch.
import { randomBytes, randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  accountAliasStepRequest,
  agreementBundlesQuery,
  agreementBundlesResponse,
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
  EXPIRED_ACCESS_TOKEN,
  unauthorizedBody,
  routingStatusResponse,
  signatureRequest,
  signatureResponse,
  validationStepRequest,
  taxValidationRulesResponse,
  taxInfoStepRequest,
  createCaseRequest,
  createCaseResponse,
  submitTaxResidenceRequest,
  residencyStepRequest,
  type AccountTypeWithCountry,
  type CountryCode,
  type Milestone,
  contactInfoStepRequest,
} from '../shared/contracts/brokerageContract.ts';
import { validateAlias } from '../shared/accountAlias.ts';
import { defaultAccounts } from '../shared/accountPicker.ts';
import { agreementDocuments, knownPdfIds } from './agreementDocuments.ts';
import { kycRouter } from './kyc.ts';
import { legacyRouter } from './legacy.ts';
import { settleExpiry } from './orders.ts';
import { unfinishedProspectOf } from './keptProspects.ts';
import { creationStatusAfter, findPersona, routingFor, uninitiatedStatus, type Persona } from './personas.ts';
import { savedSteps, savedStepsIfAny, stepListFor, stepListOf } from './savedSteps.ts';
import { customerRecord, type Prospect, type SandboxContext, type SandboxState, type Session } from './state.ts';

/** Lifetime of an access token, as the real session service reports it. */
export const ACCESS_TOKEN_TTL_SECONDS = 1800;

const MILESTONES: readonly Milestone[] = ['one', 'two', 'three'];

// Route patterns come from the contract's path builders, so the two can never disagree.
const PROSPECT_PLACEHOLDER = '__prospectId__';
const pattern = (build: (prospectId: string) => string) => build(PROSPECT_PLACEHOLDER).replace(PROSPECT_PLACEHOLDER, ':prospectId');
const prospectIdParam = (req: Request): string | undefined => (typeof req.params.prospectId === 'string' ? req.params.prospectId : undefined);

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
/** GET /sandbox/logouts keeps this many of the latest logout calls. */
const MAX_LOGOUT_CALLS = 1000;

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

/**
 * The session of the request's bearer token, or undefined after answering 401: code EXPIRED_ACCESS_TOKEN
 * for a token past its lifetime (a refresh helps), INVALID_ACCESS_TOKEN for a missing or unknown one or
 * one whose session has ended.
 */
export function authenticate(state: SandboxState, req: Request, res: Response): Session | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  const token = match?.[1] ? state.accessTokens.get(match[1]) : undefined;
  const session = token ? state.sessions.get(token.sessionId) : undefined;
  if (session && token!.expiresAt > Date.now()) return session;
  const expired = session !== undefined;
  res
    .status(401)
    .json(
      unauthorizedBody.parse(
        expired
          ? { code: EXPIRED_ACCESS_TOKEN, data: { message: 'The access token has expired' } }
          : { code: 'INVALID_ACCESS_TOKEN', data: { message: 'Missing or unknown access token' } },
      ),
    );
  return undefined;
}

/**
 * Test control: ends the lifetime of every access token of the person's sessions, and with `refresh` of
 * their refresh tokens too (the brokerage session is over: a token refresh answers 401); answers how many
 * access tokens expired.
 */
export function expireAccessTokens(state: SandboxState, nationalId: string, options: { refresh?: boolean } = {}): number {
  let expired = 0;
  for (const token of state.accessTokens.values()) {
    if (state.sessions.get(token.sessionId)?.persona.nationalId !== nationalId) continue;
    token.expiresAt = Date.now() - 1;
    expired++;
  }
  if (options.refresh) for (const session of state.sessions.values()) if (session.persona.nationalId === nationalId) session.refreshExpired = true;
  return expired;
}

/** Test control: the person's refresh and access tokens, so a test can check none of them leaks. */
export function tokensOf(state: SandboxState, nationalId: string): string[] {
  const sessionIds = new Set([...state.sessions.values()].filter((s) => s.persona.nationalId === nationalId).map((s) => s.id));
  return [
    ...[...state.refreshTokens].filter(([, id]) => sessionIds.has(id)).map(([token]) => token),
    ...[...state.accessTokens].filter(([, t]) => sessionIds.has(t.sessionId)).map(([token]) => token),
  ];
}

function sessionOf(res: Response): Session {
  return res.locals.session as Session;
}

/** The prospect `prospectId` of the session's person, or undefined after answering 404 (unknown) or 403 (someone else's). */
export function ownedProspectOf(state: SandboxState, session: Session, prospectId: string | undefined, res: Response): Prospect | undefined {
  const prospect = prospectId ? state.prospects.get(prospectId) : undefined;
  if (!prospect) {
    sendBrokerageError(res, 404, 'No such prospect');
    return undefined;
  }
  if (prospect.owner.nationalId !== session.persona.nationalId) {
    sendBrokerageError(res, 403, 'The prospect belongs to another customer');
    return undefined;
  }
  return prospect;
}

// --- router -----------------------------------------------------------------------------

export function brokerageRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();
  const { state } = ctx;

  /** Bearer authentication; unknown, expired or missing tokens get the upstream's 401 body. */
  const requireSession = (req: Request, res: Response, next: NextFunction) => {
    const session = authenticate(state, req, res);
    if (!session) return;
    res.locals.session = session;
    next();
  };

  /** The prospect in :prospectId, answering 404 when unknown and 403 when it belongs to someone else. */
  const ownedProspect = (prospectId: string | undefined, res: Response): Prospect | undefined => ownedProspectOf(state, sessionOf(res), prospectId, res);

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
    const session = sessionId ? state.sessions.get(sessionId) : undefined;
    if (!sessionId || !session) {
      return res.status(401).json({ code: 'INVALID_REFRESH_TOKEN', data: { message: 'Unknown refresh token' } });
    }
    if (session.refreshExpired) return res.status(401).json({ code: 'EXPIRED_REFRESH_TOKEN', data: { message: 'The refresh token has expired' } });
    // The access token is opaque: a random string only this sandbox can resolve to the session.
    const jwt = newToken();
    state.accessTokens.set(jwt, { sessionId, expiresAt: Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 });
    send(res, refreshTokenResponse, { jwt, expiresIn: ACCESS_TOKEN_TTL_SECONDS });
  });

  // Logout (identification-routing-creation §7): the bearer's session ends, with every access token and the
  // refresh token it handed out. Each call is recorded for GET /sandbox/logouts, the 401s too (a token whose
  // session has already ended: the second of the two calls when both end the same session here).
  let logoutSeq = 0;
  const recordLogout = (path: string) => (req: Request, res: Response, next: NextFunction) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? null;
    res.on('finish', () => {
      state.logoutCalls.set(++logoutSeq, { path, bearer, status: res.statusCode, at: new Date().toISOString() });
      // A test read-out, not a log of everything: the oldest go first (a Map iterates in insertion order).
      if (state.logoutCalls.size > MAX_LOGOUT_CALLS) state.logoutCalls.delete(state.logoutCalls.keys().next().value!);
    });
    next();
  };
  for (const path of [brokeragePaths.logoutCurrent, brokeragePaths.logoutLegacy]) {
    router.delete(path, recordLogout(path), requireSession, (_req, res) => {
      endSession(state, sessionOf(res));
      res.status(204).end();
    });
  }
  router.get('/sandbox/logouts', (_req, res) => {
    res.json([...state.logoutCalls.values()]);
  });

  // --- routing ---

  router.get(brokeragePaths.routingStatus, requireSession, (_req, res) => {
    send(res, routingStatusResponse, routingFor(sessionOf(res).persona));
  });

  // GET onboarding status: public, in sandbox/systemStatusControl.ts with its test control.

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
      // One application per person (sandbox/keptProspects.ts): the person's unfinished prospect of this flow, again.
      const open = unfinishedProspectOf(ctx, persona.nationalId, legacy);
      if (open) {
        open.resumed += 1;
        return send(res, createProspectResponse, { prospect_id: open.id, resumed: true });
      }
      // A step flow without the account picker (a persona going straight to a later step): the brokerage leaves
      // the picker out because it has the accounts already, so the prospect starts with the market's defaults,
      // the ones the page shows as chosen (shared/accountPicker.ts). Otherwise the picker sets them.
      const now = ctx.now();
      const prospect: Prospect = {
        id: randomUUID(),
        owner: persona,
        country: body.country,
        customerType: body.customerType,
        legacy,
        milestones: new Map(),
        signed: false,
        createdAt: now,
        savedAt: now,
        resumed: 0,
        ...(legacy || stepListFor(persona, legacy).includes('ACCOUNT_PICKER_STEP')
          ? {}
          : {
              accountTypes: defaultAccounts(body.country)
                .filter((a) => a.selected)
                .map((a) => a.accountTypeWithCountry),
            }),
      };
      state.prospects.set(prospect.id, prospect);
      send(res, createProspectResponse, { prospect_id: prospect.id, resumed: false });
    });
  }

  router.get(pattern(brokeragePaths.initialSteps), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    send(res, initialStepsResponse, { data: { initialSteps: stepListOf(prospect) } });
  });

  router.post(pattern(brokeragePaths.accountPickerStep), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    const body = parseOr400(accountPickerStepRequest, req.body, res);
    if (!body) return;
    const problem = accountChoiceProblem(prospect.country, body.accountTypesWithCountry);
    if (problem) return sendBrokerageError(res, 400, problem, ['accountTypesWithCountry']);
    prospect.accountTypes = [...new Set(body.accountTypesWithCountry)];
    savedSteps(prospect).pickedAccounts = [...prospect.accountTypes];
    send(res, okResponse, {});
  });

  // Account alias step (customer-information §3 alias payload, §5 rules): a name breaking the rules, or an account the
  // prospect did not choose, answers 400 with the offending field names.
  router.post(pattern(brokeragePaths.accountAliasStep), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    const body = parseOr400(accountAliasStepRequest, req.body, res);
    if (!body) return;
    const bad = body.accountTypeAliases.flatMap((a, i) =>
      validateAlias(a.alias) !== null || a.alias.trim() === '' || !(prospect.accountTypes ?? []).includes(a.accountTypeWithCountry)
        ? [`accountTypeAliases.${i}.alias`]
        : [],
    );
    if (bad.length > 0) return sendBrokerageError(res, 400, 'Invalid account alias', bad);
    savedSteps(prospect).aliases = body.accountTypeAliases;
    send(res, okResponse, {});
  });

  // Precontractual documents per ATYID id (customer-information §7, §9); the answer's shape is the contract's own.
  router.get(brokeragePaths.agreementBundles, requireSession, (req, res) => {
    const query = parseOr400(agreementBundlesQuery, req.query, res);
    if (!query) return;
    if (!knownPdfIds.has(query.pdf_id)) return sendBrokerageError(res, 404, 'Unknown document', ['pdf_id']);
    const base = `${ctx.publicUrl}/sandbox/documents/${query.country.toLowerCase()}/${query.lang}/${query.pdf_id}`;
    send(res, agreementBundlesResponse, { data: { documents: agreementDocuments(query.pdf_id, query.lang, base) } });
  });

  for (const milestone of MILESTONES) {
    router.post(
      pattern((id) => brokeragePaths.milestoneStep(id, milestone)),
      requireSession,
      (req, res) => {
        const prospect = ownedProspect(prospectIdParam(req), res);
        if (!prospect) return;
        if (!prospect.milestones.has(milestone)) prospect.milestones.set(milestone, ctx.now());
        send(res, okResponse, {});
      },
    );
  }

  // --- tax information and residency (customer-information.md §7) ---

  router.get(brokeragePaths.taxValidationRules, requireSession, (_req, res) => {
    send(res, taxValidationRulesResponse, { data: { rules: TAX_VALIDATION_RULES.map((r) => ({ ...r, validationRegex: [...r.validationRegex] })) } });
  });

  router.post(pattern(brokeragePaths.taxInfoStepV3), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    const body = parseOr400(taxInfoStepRequest, req.body, res);
    if (!body) return;
    const invalidFields = taxInfoProblems(body, prospect.country, prospect.owner.birthDate, new Date().toISOString().slice(0, 10));
    if (invalidFields.length) return res.status(400).json({ data: { message: 'Tax information could not be validated', invalidFields } });
    savedSteps(prospect).taxInfo = body;
    send(res, okResponse, {});
  });

  router.post(brokeragePaths.createCase, requireSession, (req, res) => {
    const body = parseOr400(createCaseRequest, req.body, res);
    if (!body) return;
    const prospect = ownedProspect(body.prospectId, res);
    if (!prospect) return;
    const taskId = body.taskId ?? randomUUID();
    savedSteps(prospect).cases.set(taskId, body);
    send(res, createCaseResponse, { data: { taskId } });
  });

  // Proof of tax residence: only on a TAX_RESIDENCE case of the prospect, for the case's country, with at
  // least one file uploaded to that case.
  router.post(brokeragePaths.taxResidence, requireSession, (req, res) => {
    const body = parseOr400(submitTaxResidenceRequest, req.body, res);
    if (!body) return;
    const prospect = ownedProspect(body.prospectId, res);
    if (!prospect) return;
    const steps = savedSteps(prospect);
    const taxCase = steps.cases.get(body.nnxTaskId);
    if (taxCase?.type !== 'TAX_RESIDENCE') return sendBrokerageError(res, 400, 'Unknown tax residence case', ['nnxTaskId']);
    if (taxCase.taskData.countryCode !== body.taskData.countryCode) {
      return sendBrokerageError(res, 400, 'The country differs from the case', ['taskData.countryCode']);
    }
    const stored = [...state.storedObjects.values()];
    const notUploaded = body.attachments.flatMap((a, i) =>
      stored.some((o) => o.attachmentId === a.attachmentId && o.taskId === body.nnxTaskId && o.bytes) ? [] : [`attachments.${i}.attachmentId`],
    );
    if (notUploaded.length) return sendBrokerageError(res, 400, 'Attachments not uploaded to the case', notUploaded);
    steps.taxResidence = body;
    send(res, okResponse, {});
  });

  // Test-only: the accepted tax residence submits, per prospect.
  router.get('/sandbox/tax-residences', (_req, res) => {
    res.json([...state.prospects.values()].flatMap((p) => (savedStepsIfAny(p)?.taxResidence ? [savedStepsIfAny(p)!.taxResidence] : [])));
  });

  router.post(pattern(brokeragePaths.residencyStep), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    const body = parseOr400(residencyStepRequest, req.body, res);
    if (!body) return;
    if (savedSteps(prospect).cases.get(body.nnxTaskId)?.type !== 'RESIDENCY') return sendBrokerageError(res, 400, 'Unknown residency case', ['nnxTaskId']);
    if (body.addressCountry === prospect.country) return sendBrokerageError(res, 400, 'The address is in the home country', ['addressCountry']);
    const refused = prospect.owner.behaviour.residencyRefusedFields;
    if (refused) return sendBrokerageError(res, 400, 'Residency information could not be validated', refused);
    // Every document must have been uploaded to the case.
    const stored = [...state.storedObjects.values()];
    const notUploaded = body.attachments.flatMap((a, i) =>
      stored.some((o) => o.attachmentId === a.attachmentId && o.taskId === body.nnxTaskId && o.bytes) ? [] : [`attachments.${i}.attachmentId`],
    );
    if (notUploaded.length) return sendBrokerageError(res, 400, 'Attachments not uploaded to the case', notUploaded);
    savedSteps(prospect).residency = body;
    send(res, okResponse, {});
  });

  // Test-only: per prospect with a RESIDENCY case, the cases (with their taskId) and the accepted residency submit.
  router.get('/sandbox/residency', (_req, res) => {
    res.json(
      [...state.prospects.values()].flatMap((p) => {
        const steps = savedStepsIfAny(p);
        const cases = [...(steps?.cases.entries() ?? [])].filter(([, c]) => c.type === 'RESIDENCY').map(([taskId, c]) => ({ taskId, ...c }));
        return cases.length ? [{ prospectId: p.id, cases, residency: steps?.residency ?? null }] : [];
      }),
    );
  });

  // --- contact information (customer-information.md §7, §8) ---

  router.post(pattern(brokeragePaths.contactInfoStep), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    const body = parseOr400(contactInfoStepRequest, req.body, res);
    if (!body) return;
    const refused = prospect.owner.behaviour.contactRefusedFields;
    if (refused?.length) return sendBrokerageError(res, 400, 'Contact information was not accepted', refused);
    savedSteps(prospect).contact = body;
    send(res, okResponse, {});
  });

  // --- the legacy single form (sandbox/legacy.ts): regulation, prospect v2 update, the legacy signature request ---

  // Before the step-flow signature route: it shares the path and answers a legacy (v2) prospect's requests; every
  // other prospect's pass on to the route below unchanged.
  router.use(legacyRouter(ctx, { requireSession, ownedProspect, parseOr400, send, sendError: sendBrokerageError, accountChoiceProblem }));

  // --- signing ---

  router.post(pattern(brokeragePaths.signatures), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    const body = parseOr400(signatureRequest, req.body, res);
    if (!body) return;
    if (!prospect.accountTypes) {
      return sendBrokerageError(res, 400, 'Choose accounts before signing', ['accountTypesWithCountry']);
    }
    if (prospect.owner.behaviour.signatureHighRisk) return sendBrokerageError(res, 403, 'Additional information is needed');
    const id = randomUUID();
    state.signatures.set(id, {
      id,
      prospectId: prospect.id,
      cancelUrl: body.cancel_url,
      completeUrl: body.complete_url,
      postponeUrl: body.postpone_url,
      lang: body.lang,
      createdAt: Date.now(),
    });
    send(res, signatureResponse, { data: { url: `${ctx.publicUrl}/sandbox/signing/${id}` } });
  });

  // Test-only read-out: the signing sessions handed out for the prospect (either flow's), in creation order.
  router.get('/sandbox/signatures', (req, res) => {
    const prospectId = typeof req.query.prospectId === 'string' && req.query.prospectId.length <= 100 ? req.query.prospectId : undefined;
    if (!prospectId) return void res.status(400).json({ error: 'prospectId is required' });
    res.json({ signatures: [...state.signatures.values()].filter((s) => s.prospectId === prospectId).map(({ id, lang }) => ({ id, lang })) });
  });

  // --- customer creation ---

  // Each call is recorded for GET /sandbox/customers with the status it was answered, the 401s too (a person action that
  // must reach the brokerage once is counted here). An injected fault (POST /sandbox/faults) answers before this router.
  const recordCreateCustomer = (req: Request, res: Response, next: NextFunction) => {
    const prospectId = createCustomerRequest.safeParse(req.body).data?.prospect_id;
    if (prospectId !== undefined && state.prospects.has(prospectId)) {
      res.on('finish', () => {
        const calls = state.createCustomerCalls.get(prospectId) ?? [];
        calls.push(res.statusCode);
        state.createCustomerCalls.set(prospectId, calls);
      });
    }
    next();
  };
  router.post(brokeragePaths.customers, recordCreateCustomer, requireSession, (req, res) => {
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

  // Test-only read-out: what reached the brokerage for the prospect's signing and creation (person actions that must reach
  // it once): the statuses answered to POST /api/2/customers in arrival order, and how many signing URLs were handed out.
  router.get('/sandbox/customers', (req, res) => {
    const prospectId = typeof req.query.prospectId === 'string' ? req.query.prospectId : '';
    if (!prospectId) return void res.status(400).json({ error: 'prospectId is required' });
    if (!state.prospects.has(prospectId)) return void res.status(404).json({ error: 'No such prospect' });
    const signatureRequests = [...state.signatures.values()].filter((s) => s.prospectId === prospectId).length;
    res.json({ createCustomer: state.createCustomerCalls.get(prospectId) ?? [], signatureRequests });
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

  // --- know your customer (sandbox/kyc.ts): questionnaires, answer sessions, risk calculation, the KYC step ---

  router.use(kycRouter(ctx, { requireSession, ownedProspect, parseOr400, send, sendError: sendBrokerageError }));

  return router;
}

// --- tax information -----------------------------------------------------------------------

/** Realistic tax identification number formats; each number must match every regex of its country. */
export const TAX_VALIDATION_RULES: readonly { countryCode: string; validationRegex: readonly string[]; patternPlaceholder: string }[] = [
  // Personnummer, sent as 10 digits (the form strips the rest).
  { countryCode: 'SE', validationRegex: ['^\\d{10}$'], patternPlaceholder: 'YYMMDDXXXX' },
  // Fødselsnummer.
  { countryCode: 'NO', validationRegex: ['^\\d{11}$'], patternPlaceholder: 'DDMMYYXXXXX' },
  // CPR-nummer, with or without the hyphen.
  { countryCode: 'DK', validationRegex: ['^\\d{6}-?\\d{4}$'], patternPlaceholder: 'DDMMYY-XXXX' },
  // Henkilötunnus with its century sign and check character.
  { countryCode: 'FI', validationRegex: ['^\\d{6}[-+A-FU-Y]\\d{3}[0-9A-FHJ-NPR-Y]$'], patternPlaceholder: 'DDMMYYCZZZQ' },
  // SSN or ITIN; never starting with 000, 666 or 9xx.
  { countryCode: 'US', validationRegex: ['^\\d{3}-?\\d{2}-?\\d{4}$', '^(?!000|666|9)'], patternPlaceholder: 'XXX-XX-XXXX' },
  // Unique Taxpayer Reference (10 digits) or National Insurance number.
  { countryCode: 'GB', validationRegex: ['^(\\d{10}|[A-CEGHJ-PR-TW-Z]{2}\\d{6}[A-D])$'], patternPlaceholder: '1234567890' },
  // Steuerliche Identifikationsnummer: 11 digits, the first never 0.
  { countryCode: 'DE', validationRegex: ['^\\d{11}$', '^[1-9]'], patternPlaceholder: '12345678901' },
];

/**
 * The upstream's own check of a tax submit: the number format of the country, a start date between the
 * person's birth and today, no home country in the foreign list. Answers the invalid field names.
 */
export function taxInfoProblems(body: z.infer<typeof taxInfoStepRequest>, home: CountryCode, birthDate: string, today: string): string[] {
  const problems: string[] = [];
  body.taxInformationListOutsideOfTld.forEach((item, i) => {
    const field = (name: string) => `taxInformationListOutsideOfTld[${i}].${name}`;
    if (item.countryCode === home) problems.push(field('countryCode'));
    const rule = TAX_VALIDATION_RULES.find((r) => r.countryCode === item.countryCode);
    if (rule && !rule.validationRegex.every((re) => new RegExp(re).test(item.taxIdentificationNumber))) problems.push(field('taxIdentificationNumber'));
    if (item.startDate < birthDate || item.startDate > today) problems.push(field('startDate'));
  });
  if (!body.taxableInTld && body.taxInformationListOutsideOfTld.length === 0) problems.push('taxableInTld');
  return problems;
}

// --- contact information -------------------------------------------------------------------

/** Why an account choice is not allowed for the prospect's country, or null when it is fine. */
export function accountChoiceProblem(country: CountryCode, codes: readonly AccountTypeWithCountry[]): string | null {
  const foreign = codes.filter((code) => !code.endsWith(`_${country}`));
  if (foreign.length) return `Account types not offered in ${country}: ${foreign.join(', ')}`;
  // In SE the stock and fund depot is always part of the account choice; the upstream refuses a choice without it.
  if (country === 'SE' && !codes.includes('DEP_SE')) return 'A stock and fund account (DEP_SE) is required in SE';
  return null;
}
