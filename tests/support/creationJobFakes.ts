// The customer-creation job's scripted brokerage for unit tests (tests/unit/customerCreationJob.test.ts,
// tests/unit/afterCreation.test.ts): creation statuses per poll, and the calls when polling stops, each kept by
// its attempt as the brokerage keeps them by Idempotency-Key.
import { randomBytes } from 'node:crypto';
import type { CreationStatus } from '../../shared/contracts/brokerageContract.ts';
import { UpstreamError } from '../../server/upstream/http.ts';

export const REFRESH = 'secret-refresh-token-never-logged';
export const PROSPECT = 'prospect-123';

export type StatusAnswer = { httpStatus: number; body: CreationStatus | null };
export const st = (over: Partial<CreationStatus> = {}): StatusAnswer => ({
  httpStatus: 200,
  body: {
    done: false,
    creation_process_status: 'customer_creation_started',
    nightly_downtime: false,
    creation_requests: [{ request_type: 'create_customer', status: 'queued' }],
    ...over,
  },
});
export const uninitiated = st({ creation_process_status: 'uninitiated', creation_requests: [] });
export const done = st({
  done: true,
  creation_process_status: 'customer_creation_done',
  creation_requests: [{ request_type: 'create_customer', status: 'done' }],
});
export const unauthorized = () => new UpstreamError('brokerage', 401, { code: 'EXPIRED_ACCESS_TOKEN' }, 'brokerage answered 401');

/**
 * Scripted brokerage: the first creation status is the initial check, then one answer per poll (the last
 * repeats). Access tokens come from refreshToken(REFRESH) and are honoured until expireTokens(); a call
 * with any other token is answered 401 the way each client function reports it.
 */
export function fakeBrokerage(script: {
  initial: StatusAnswer;
  polls: Array<StatusAnswer | Error>;
  post?: { ok: boolean; status: number };
  paused?: boolean;
  /** The system status per call instead of `paused`: creationPaused, or the error the call throws (the last repeats). */
  systemStatuses?: Array<boolean | Error>;
  /** The login session call throws this (after the token check). */
  loginFails?: Error;
  /** The affiliate conversion throws this (after the token check). */
  affiliateFails?: Error;
}) {
  const calls = { createCustomer: 0, creationStatus: 0, systemStatus: 0, refreshToken: 0, unauthorized: 0, pollTimes: [] as number[], jwts: new Set<string>() };
  // As the brokerage keeps them by Idempotency-Key: each attempt's first call counts, a repeat gets its first answer.
  const after = { loginCalls: 0, loginAttempts: new Set<string>(), affiliateCalls: 0, leadNumbers: new Map<string, string>() };
  const valid = new Set<string>();
  const issued: string[] = [];
  let refreshRefused = false;
  let polled = 0;
  const accepts = (jwt: string) => {
    calls.jwts.add(jwt);
    if (!valid.has(jwt)) calls.unauthorized++;
    return valid.has(jwt);
  };
  return {
    calls,
    after,
    issued,
    expireTokens: () => valid.clear(),
    refuseRefresh: () => (refreshRefused = true),
    brokerage: {
      async refreshToken(refreshToken: string) {
        calls.refreshToken++;
        if (refreshToken !== REFRESH || refreshRefused) throw new UpstreamError('brokerage', 401, { code: 'INVALID_REFRESH_TOKEN' }, 'brokerage answered 401');
        const jwt = `jwt-${randomBytes(8).toString('hex')}`;
        valid.add(jwt);
        issued.push(jwt);
        return { jwt, expiresIn: 1800 };
      },
      async createCustomer(jwt: string, _prospectId: string) {
        if (!accepts(jwt)) return { ok: false, status: 401 };
        calls.createCustomer++;
        return script.post ?? { ok: true, status: 200 };
      },
      async creationStatus(jwt: string, _prospectId: string): Promise<StatusAnswer> {
        if (!accepts(jwt)) return { httpStatus: 401, body: null };
        calls.creationStatus++;
        if (calls.creationStatus === 1) return script.initial;
        calls.pollTimes.push(Date.now());
        const answer = script.polls[Math.min(polled++, script.polls.length - 1)]!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      async systemStatus(jwt: string) {
        if (!accepts(jwt)) throw unauthorized();
        calls.systemStatus++;
        const scripted = script.systemStatuses?.[Math.min(calls.systemStatus, script.systemStatuses.length) - 1];
        if (scripted instanceof Error) throw scripted;
        return { creationPaused: scripted ?? script.paused ?? false, feedbackBanner: null };
      },
      async startLoginSession(jwt: string, attempt: string) {
        if (!accepts(jwt)) throw unauthorized();
        after.loginCalls++;
        if (script.loginFails) throw script.loginFails;
        after.loginAttempts.add(attempt);
        // One code per attempt, as the brokerage's Idempotency-Key gives (base64url of the attempt, padded to the contract's length).
        return { handoffCode: Buffer.from(`handoff:${attempt}`).toString('base64url').padEnd(32, 'A'), expiresInSeconds: 300 };
      },
      async affiliateConversion(jwt: string, _prospectId: string, attempt: string) {
        if (!accepts(jwt)) throw unauthorized();
        after.affiliateCalls++;
        if (script.affiliateFails) throw script.affiliateFails;
        const leadNumber = after.leadNumbers.get(attempt) ?? `LEAD-${randomBytes(4).toString('hex')}`;
        after.leadNumbers.set(attempt, leadNumber);
        return { leadNumber };
      },
    },
  };
}
