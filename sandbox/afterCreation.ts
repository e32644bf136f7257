// Simulated calls of the end of customer creation (identification-routing-creation §4, §7): the nnx-session login,
// the affiliate conversion, the bank site's redemption of the login's hand-off code, and the read-out
// GET /sandbox/after-creation?prospectId=. Strict: the person's token, Idempotency-Keys (a replay counts nothing),
// one-time hand-off codes that expire; personas loginSessionFails and affiliateConversionFails answer 500.
import { randomBytes, randomInt } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import {
  affiliateConversionRequest,
  affiliateConversionResponse,
  brokeragePaths,
  IDEMPOTENCY_KEY_HEADER,
  LOGIN_HANDOFF_REFUSED,
  loginHandoffRedeemRequest,
  loginHandoffRedeemResponse,
  nnxSessionLoginResponse,
  parseIdempotencyKeyHeader,
  type LoginHandoffRedeemed,
} from '../shared/contracts/brokerageContract.ts';
import { authenticate, sendBrokerageError } from './brokerage.ts';
import { findPersona, type Persona } from './personas.ts';
import type { AfterCreationRecord, Prospect, SandboxState } from './state.ts';

const readOutQuery = z.object({ prospectId: z.string().min(1).max(100) });
const expireBody = z.object({ nationalId: z.string().min(1).max(32) });

/** How long a login hand-off code can be redeemed: long enough to read the done screen and press Continue. */
export const LOGIN_HANDOFF_LIFETIME_SECONDS = 300;

/** The bank site's client token at the sandbox's redeem call (the stand-in redeems in-process; tests call it over HTTP). */
export const SANDBOX_BANK_SITE_TOKEN = 'sandbox-bank-site-client-token';

/** Why a code logs nobody in. */
export type HandoffRefusal = 'unknown' | 'used' | 'expired';

/**
 * The bank site's redemption of a hand-off code: the customer it logs in, once. A used code stays used (a replay is
 * refused, also within its lifetime); an expired one is refused and forgotten.
 */
export function redeemLoginHandoff(state: SandboxState, code: string): LoginHandoffRedeemed | { refused: HandoffRefusal } {
  const record = state.loginHandoffs.get(code);
  if (!record) return { refused: 'unknown' };
  if (record.redeemed) return { refused: 'used' };
  if (record.expiresAt <= Date.now()) return { refused: 'expired' };
  const persona = findPersona(record.nationalId);
  if (!persona) return { refused: 'unknown' };
  record.redeemed = true;
  return { customer: { nationalId: persona.nationalId, givenName: persona.givenName, surname: persona.surname } };
}

const refusalMessages: Record<HandoffRefusal, string> = {
  unknown: 'The hand-off code is unknown',
  used: 'The hand-off code has already been used',
  expired: 'The hand-off code has expired',
};

/** A lead number of 10 digits, new on every call. */
const newLeadNumber = () => `LN-${String(randomInt(0, 10_000_000_000)).padStart(10, '0')}`;

/** The person's newest prospect (the Map keeps creation order), or undefined when they have none. */
function newestProspect(state: SandboxState, persona: Persona): Prospect | undefined {
  return [...state.prospects.values()].filter((p) => p.owner.nationalId === persona.nationalId).at(-1);
}

function recordOf(state: SandboxState, prospectId: string): AfterCreationRecord {
  let record = state.afterCreation.get(prospectId);
  if (!record) state.afterCreation.set(prospectId, (record = { loginSessions: 0, leadNumbers: [] }));
  return record;
}

/**
 * The id under which a call's Idempotency-Key is remembered (person, path, key); null for a call without the header;
 * undefined after answering 400 for a header that is not one quoted key (sandbox/idempotency.ts answers that first).
 */
function keyIdOf(req: Request, res: Response, persona: Persona): string | null | undefined {
  const header = req.get(IDEMPOTENCY_KEY_HEADER);
  if (header === undefined) return null;
  const key = parseIdempotencyKeyHeader(header);
  if (key === null) return void sendBrokerageError(res, 400, 'Idempotency-Key must be one quoted string', [IDEMPOTENCY_KEY_HEADER]);
  return `${persona.nationalId} ${req.path} ${key}`;
}

export function afterCreationRouter(state: SandboxState): express.Router {
  const router = express.Router();

  router.post(brokeragePaths.nnxSessionLogin, (req, res) => {
    const session = authenticate(state, req, res);
    if (!session) return;
    const { persona } = session;
    const keyId = keyIdOf(req, res, persona);
    if (keyId === undefined) return;
    if (persona.behaviour.loginSessionFails) return sendBrokerageError(res, 500, 'The login session could not be started');
    const earlier = keyId === null ? undefined : state.afterCreationKeys.get(keyId)?.handoff;
    if (earlier) return void res.json(nnxSessionLoginResponse.parse({ handoffCode: earlier.code, expiresInSeconds: earlier.expiresInSeconds }));
    const prospect = newestProspect(state, persona);
    if (!prospect) return sendBrokerageError(res, 409, 'The person has no prospect to log in with');
    recordOf(state, prospect.id).loginSessions += 1;
    const code = randomBytes(32).toString('base64url');
    const expiresInSeconds = LOGIN_HANDOFF_LIFETIME_SECONDS;
    state.loginHandoffs.set(code, {
      nationalId: persona.nationalId,
      prospectId: prospect.id,
      expiresAt: Date.now() + expiresInSeconds * 1000,
      redeemed: false,
    });
    if (keyId !== null) state.afterCreationKeys.set(keyId, { prospectId: prospect.id, handoff: { code, expiresInSeconds } });
    res.json(nnxSessionLoginResponse.parse({ handoffCode: code, expiresInSeconds }));
  });

  // The bank's site, server to server: the customer the code logs in, once.
  router.post(brokeragePaths.loginHandoffRedeem, (req, res) => {
    // Only the bank's site redeems: a caller without its client token is refused, and the code stays unspent.
    if (req.get('authorization') !== `Bearer ${SANDBOX_BANK_SITE_TOKEN}`) {
      return void res.status(401).json({ code: 'INVALID_CLIENT', data: { message: "Only the bank's site redeems a hand-off code" } });
    }
    const body = loginHandoffRedeemRequest.safeParse(req.body ?? {});
    if (!body.success) return sendBrokerageError(res, 400, 'Invalid request', ['code']);
    const redeemed = redeemLoginHandoff(state, body.data.code);
    if ('refused' in redeemed) return void res.status(400).json({ code: LOGIN_HANDOFF_REFUSED, data: { message: refusalMessages[redeemed.refused] } });
    res.json(loginHandoffRedeemResponse.parse(redeemed));
  });

  // Test control: the person's hand-off codes expire now (as if their lifetime had passed).
  router.post('/sandbox/login-handoffs/expire', (req, res) => {
    const body = expireBody.safeParse(req.body ?? {});
    if (!body.success) return void res.status(400).json({ error: 'nationalId is required' });
    let expired = 0;
    for (const record of state.loginHandoffs.values()) {
      if (record.nationalId === body.data.nationalId && record.expiresAt > Date.now()) {
        record.expiresAt = Date.now();
        expired += 1;
      }
    }
    res.json({ expired });
  });

  router.post(brokeragePaths.affiliateConversion, (req, res) => {
    const session = authenticate(state, req, res);
    if (!session) return;
    const { persona } = session;
    const body = affiliateConversionRequest.safeParse(req.body ?? {});
    if (!body.success) return sendBrokerageError(res, 400, 'Invalid request', ['prospectId']);
    const prospect = state.prospects.get(body.data.prospectId);
    if (!prospect) return sendBrokerageError(res, 404, 'No such prospect');
    if (prospect.owner.nationalId !== persona.nationalId) return sendBrokerageError(res, 403, 'The prospect belongs to another customer');
    const keyId = keyIdOf(req, res, persona);
    if (keyId === undefined) return;
    if (persona.behaviour.affiliateConversionFails) return sendBrokerageError(res, 500, 'The affiliate conversion failed');
    const earlier = keyId === null ? undefined : state.afterCreationKeys.get(keyId);
    if (earlier?.leadNumber) return void res.json(affiliateConversionResponse.parse({ leadNumber: earlier.leadNumber }));
    const leadNumber = newLeadNumber();
    recordOf(state, prospect.id).leadNumbers.push(leadNumber);
    if (keyId !== null) state.afterCreationKeys.set(keyId, { prospectId: prospect.id, leadNumber });
    res.json(affiliateConversionResponse.parse({ leadNumber }));
  });

  // Test-only read-out of one prospect: how many login sessions were started for it and the lead numbers handed out.
  router.get('/sandbox/after-creation', (req, res) => {
    const query = readOutQuery.safeParse(req.query);
    if (!query.success) return void res.status(400).json({ error: 'prospectId is required: one prospect id' });
    if (!state.prospects.has(query.data.prospectId)) return void res.status(404).json({ error: 'No such prospect' });
    const record = state.afterCreation.get(query.data.prospectId);
    res.json({ loginSessions: record?.loginSessions ?? 0, leadNumbers: record?.leadNumbers ?? [] });
  });

  return router;
}
