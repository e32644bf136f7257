// The sandbox: one Express app that simulates every upstream of the onboarding journey (BankID RP API, the
// brokerage API, the e-signing page) plus a test BankID app and test controls, all with in-memory state.
// It speaks the same wire contracts as the real upstreams (shared/contracts) and never imports server/ code.
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { BANKID_RP_BASE, bankidRpRouter, sendBankidError } from './bankidApi.ts';
import { bankidAppRouter } from './bankidApp.ts';
import { bankSiteRouter } from './bankSite.ts';
import { afterCreationRouter } from './afterCreation.ts';
import { applicationsRouter, seedApplications, stepSubmitRecorder } from './applications.ts';
import { brokerageRouter, expireAccessTokens, sendBrokerageError, startSession, tokensOf } from './brokerage.ts';
import { citizenshipRouter } from './citizenship.ts';
import { pagesRouter } from './pages.ts';
import { contentRouter } from './content.ts';
import { findPersona, personas, publicPersona } from './personas.ts';
import { idempotency } from './idempotency.ts';
import { DAY_MS, DEFAULT_PROSPECT_KEEP_DAYS } from './keptProspects.ts';
import { createOidcProvider, OIDC_MOUNT } from './oidcProvider.ts';
import { createSandboxState, resetSandboxState, type SandboxContext } from './state.ts';
import { caseStatusRouter } from './caseStatus.ts';
import { systemStatusRouter } from './systemStatusControl.ts';

export interface SandboxOptions {
  /** Absolute URL browsers use to reach the sandbox; signing links are built from it. */
  publicUrl: string;
  /** How long a BankID order stays pending before collect answers expiredTransaction. Default 30 s. */
  orderLifetimeMs?: number;
  /** How long a signing order can be signed on the signing page. Default 5 minutes (the web's SIGNING_ORDER_LIFETIME_MS default). */
  signingLifetimeMs?: number;
  /** How many days a person's unfinished prospect is kept for prospect creation to answer it again. Default 90; 0 keeps none. */
  prospectKeepDays?: number;
  /** The clock of keeping prospects (epoch ms); default Date.now. */
  now?: () => number;
}

export const DEFAULT_ORDER_LIFETIME_MS = 30_000;
export const DEFAULT_SIGNING_LIFETIME_MS = 300_000;

const sessionShortcutBody = z.object({ nationalId: z.string().min(1) });
const nationalIdQuery = z.object({ nationalId: z.string().min(1).max(32) });
const expireRequest = nationalIdQuery.extend({ refresh: z.boolean().optional() });
/**
 * POST /sandbox/faults: the next `count` calls of method + path (no query) answer `status` (and `code`),
 * or, with `delayMs` and no status, are answered as usual but that much later (a slow upstream).
 */
const faultBody = z
  .object({
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
    path: z.string().startsWith('/').max(500),
    status: z.number().int().min(400).max(599).optional(),
    delayMs: z.number().int().min(1).max(30_000).optional(),
    code: z.string().min(1).max(100).optional(),
    count: z.number().int().min(0).max(100).default(1),
  })
  .refine((f) => f.status !== undefined || f.delayMs !== undefined || f.count === 0, { message: 'status or delayMs' });

const faultKey = (method: string, path: string) => `${method} ${path}`;

const isBankidPath = (path: string) => path === '/rp' || path.startsWith('/rp/');

/** A call to the brokerage API (its /api and /nnxapi paths) with a method that changes something. */
const brokerageWrite = (req: Request) => req.method !== 'GET' && req.method !== 'HEAD' && /^\/(api|nnxapi)\//.test(req.path);

/** The prospect a brokerage call names: in its path (…/prospects/[v2/]<id>/…) or as prospect_id in its body. */
function prospectOfCall(req: Request): string | undefined {
  const inPath = /\/prospects\/(?:v[23]\/)?([^/]+)/.exec(req.path)?.[1];
  if (inPath && inPath !== 'regulation') return decodeURIComponent(inPath);
  const body: unknown = req.body;
  const named = typeof body === 'object' && body !== null && 'prospect_id' in body ? body.prospect_id : undefined;
  return typeof named === 'string' ? named : undefined;
}

export function createSandboxApp(options: SandboxOptions): express.Express {
  const ctx: SandboxContext = {
    state: createSandboxState(),
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    orderLifetimeMs: options.orderLifetimeMs ?? DEFAULT_ORDER_LIFETIME_MS,
    signingLifetimeMs: options.signingLifetimeMs ?? DEFAULT_SIGNING_LIFETIME_MS,
    prospectKeepMs: (options.prospectKeepDays ?? DEFAULT_PROSPECT_KEEP_DAYS) * DAY_MS,
    now: options.now ?? Date.now,
  };
  seedApplications(ctx);

  const app = express();
  app.disable('x-powered-by');
  // The OpenID provider parses its own bodies, so it is mounted before the body parsers.
  const oidc = createOidcProvider(ctx);
  app.use(OIDC_MOUNT, oidc.interactions);
  app.use(OIDC_MOUNT, oidc.provider.callback());
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));

  // Idempotency-Key (sandbox/idempotency.ts), before the faults: a late call holds its key from its arrival.
  app.use(idempotency(ctx.state));

  // Injected faults (test control) answer before the simulated upstream sees the call. A late one (delayMs) still
  // runs to the end after its caller gave up, as an upstream does: the timer is not tied to the connection.
  app.use((req, res, next) => {
    if (req.path.startsWith('/sandbox/faults')) return next();
    const key = faultKey(req.method, req.path);
    const fault = ctx.state.brokerageFaults.get(key);
    if (!fault) return next();
    if (fault.count <= 1) ctx.state.brokerageFaults.delete(key);
    else fault.count -= 1;
    if (fault.status === undefined) {
      setTimeout(next, fault.delayMs);
      return;
    }
    const answer = () => {
      // A 401 always names its reason, as the session service does.
      const code = fault.code ?? (fault.status === 401 ? 'INVALID_ACCESS_TOKEN' : undefined);
      res.status(fault.status!).json({ ...(code ? { code } : {}), data: { message: `Injected fault ${fault.status}` } });
    };
    if (fault.delayMs) setTimeout(answer, fault.delayMs);
    else answer();
  });

  // Read-out of the calls that change something upstream (a test counts those a page let through), before faults answer them.
  app.use((req, _res, next) => {
    if (brokerageWrite(req)) {
      const calls = ctx.state.brokerageCalls;
      const prospectId = prospectOfCall(req);
      calls.set(calls.size, { method: req.method, path: req.path, ...(prospectId ? { prospectId } : {}) });
    }
    next();
  });
  app.use(stepSubmitRecorder(ctx));

  app.use(BANKID_RP_BASE, bankidRpRouter(ctx));
  app.use(bankidAppRouter(ctx));
  app.use(pagesRouter(ctx));
  app.use(bankSiteRouter(ctx));
  app.use(systemStatusRouter(ctx));
  // The brokerage API, with the calls that read a saved application back (sandbox/applications.ts).
  app.use(brokerageRouter(ctx), applicationsRouter(ctx));
  app.use(citizenshipRouter(ctx));
  app.use(caseStatusRouter(ctx.state));
  app.use(afterCreationRouter(ctx.state));
  app.use(contentRouter(ctx));

  // --- test controls ---

  // Browsers ask every page's origin for an icon; the sandbox has none, and a 404 would be a console error.
  app.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });

  app.get('/sandbox/healthz', (_req, res) => {
    res.json({ ok: true });
  });

  app.get('/sandbox/personas', (_req, res) => {
    res.json(personas.map(publicPersona));
  });

  app.post('/sandbox/reset', (_req, res) => {
    resetSandboxState(ctx.state);
    seedApplications(ctx);
    res.status(204).end();
  });

  // NO, DK and FI identify through an external provider the sandbox does not simulate; this shortcut gives any
  // persona a brokerage session (the refresh token the session service would hand out) so their journeys can run.
  app.post('/sandbox/sessions', (req, res) => {
    const body = sessionShortcutBody.safeParse(req.body ?? {});
    const persona = body.success ? findPersona(body.data.nationalId) : undefined;
    if (!persona) return void res.status(400).json({ error: 'nationalId must be one of GET /sandbox/personas' });
    res.json({ refreshToken: startSession(ctx.state, persona).refreshToken });
  });

  app.post('/sandbox/faults', (req, res) => {
    const body = faultBody.safeParse(req.body ?? {});
    if (!body.success)
      return void res.status(400).json({ error: 'method, path (starting with /), status 400–599 and/or delayMs 1–30000, optional code and count 0–100' });
    const { method, path, status, delayMs, code, count } = body.data;
    if (count === 0) ctx.state.brokerageFaults.delete(faultKey(method, path));
    else
      ctx.state.brokerageFaults.set(faultKey(method, path), {
        count,
        ...(status ? { status } : {}),
        ...(delayMs ? { delayMs } : {}),
        ...(code ? { code } : {}),
      });
    res.status(204).end();
  });

  // The calls that changed something at the brokerage, in arrival order; ?prospectId= keeps those naming that prospect.
  app.get('/sandbox/brokerage-calls', (req, res) => {
    const query = z.object({ prospectId: z.string().min(1).max(100).optional() }).safeParse(req.query);
    if (!query.success) return void res.status(400).json({ error: 'prospectId must be a prospect id' });
    const calls = [...ctx.state.brokerageCalls.values()];
    res.json({ calls: query.data.prospectId ? calls.filter((c) => c.prospectId === query.data.prospectId) : calls });
  });

  // Ends the lifetime of the person's access tokens, as if 30 minutes had passed (their refresh tokens stay
  // valid); with refresh: true their refresh tokens' too, as if the brokerage session had ended (a refresh answers 401).
  app.post('/sandbox/sessions/expire', (req, res) => {
    const body = expireRequest.safeParse(req.body ?? {});
    if (!body.success) return void res.status(400).json({ error: 'nationalId is required; refresh is optional (true or false)' });
    res.json({ expired: expireAccessTokens(ctx.state, body.data.nationalId, { refresh: body.data.refresh }) });
  });

  // The person's refresh and access tokens, so tests can check that none of them reaches a page or a log.
  app.get('/sandbox/sessions/tokens', (req, res) => {
    const query = nationalIdQuery.safeParse(req.query);
    if (!query.success) return void res.status(400).json({ error: 'nationalId is required' });
    res.json({ tokens: tokensOf(ctx.state, query.data.nationalId) });
  });

  // --- fallbacks: JSON everywhere, in the error dialect of the upstream that owns the path ---

  app.use((req, res) => {
    const what = `No route for ${req.method} ${req.path}`;
    if (isBankidPath(req.path)) return sendBankidError(res, 404, 'notFound', what);
    sendBrokerageError(res, 404, what);
  });

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = typeof err === 'object' && err !== null && 'status' in err ? Number(err.status) : 500;
    const clientError = status >= 400 && status < 500;
    const message = clientError && err instanceof Error ? err.message : 'Internal sandbox error';
    if (!clientError) console.error('[sandbox]', err);
    if (isBankidPath(req.path)) {
      return sendBankidError(res, clientError ? 400 : 500, clientError ? 'invalidParameters' : 'internalError', message);
    }
    sendBrokerageError(res, clientError ? status : 500, message);
  });

  return app;
}
