// The brokerage API's Idempotency-Key (docs/decisions.md "Idempotency-Key"): a POST or PUT carrying the header runs
// once per person and key; the same key and body answer the first answer again, even when its client had given up (a
// late call, POST /sandbox/faults delayMs); another body 422; a first call still running 409. Answers that say the call
// did not happen (401, 408, 409, 429, 5xx) are not kept, so a retry runs anew. Mounted before the injected faults
// (sandbox/app.ts), so a late call holds its key from the moment it arrives.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKeyHeader } from '../shared/contracts/brokerageContract.ts';
import { sendBrokerageError } from './brokerage.ts';
import type { IdempotentCall, SandboxState } from './state.ts';

const NOT_KEPT = new Set([401, 408, 409, 429]);
const kept = (status: number) => status >= 200 && status < 500 && !NOT_KEPT.has(status);

/** JSON with the object keys sorted: the same body sent with another key order is the same body. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The person the bearer token belongs to (an expired token too: the route itself answers its 401). */
function personOf(state: SandboxState, req: Request): string | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
  const sessionId = token ? state.accessTokens.get(token)?.sessionId : undefined;
  return sessionId ? state.sessions.get(sessionId)?.persona.nationalId : undefined;
}

export function idempotency(state: SandboxState) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.get(IDEMPOTENCY_KEY_HEADER);
    if (header === undefined || (req.method !== 'POST' && req.method !== 'PUT') || !req.path.startsWith('/api/')) return next();
    const key = parseIdempotencyKeyHeader(header);
    if (!key) return sendBrokerageError(res, 400, 'Idempotency-Key must be one quoted string', [IDEMPOTENCY_KEY_HEADER]);
    const person = personOf(state, req);
    // No person: the route answers 401 and nothing is kept.
    if (!person) return next();
    const id = `${person} ${req.method} ${req.path} ${key}`;
    const fingerprint = createHash('sha256')
      .update(canonical(req.body ?? null))
      .digest('base64url');
    const earlier = state.idempotentCalls.get(id);
    if (earlier) {
      if (earlier.fingerprint !== fingerprint) return sendBrokerageError(res, 422, 'The Idempotency-Key was used with another request');
      if (!earlier.answer) return sendBrokerageError(res, 409, 'A request with this Idempotency-Key is still being processed');
      if (earlier.answer.body === undefined) return void res.status(earlier.answer.status).end();
      return void res.status(earlier.answer.status).json(earlier.answer.body);
    }

    // The answer is kept when the route gives it, whether or not the client still listens.
    const call: IdempotentCall = { fingerprint };
    state.idempotentCalls.set(id, call);
    let body: unknown;
    const json = res.json.bind(res);
    res.json = (sent: unknown) => {
      body = sent;
      return json(sent);
    };
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      // An answer without a body (a 204) is kept too: a repeat must not run the call again.
      if (kept(res.statusCode)) call.answer = { status: res.statusCode, body };
      else if (state.idempotentCalls.get(id) === call) state.idempotentCalls.delete(id);
      return end(...args);
    }) as Response['end'];
    next();
  };
}
