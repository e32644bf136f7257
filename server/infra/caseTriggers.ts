// OnboardingTriggerCase reaches the brokerage once per application, whatever the clicks, tabs or web processes: one
// attempt per prospect kept for good (SET NX; its Idempotency-Key derives from it), one request at a time holding a
// claim with a lifetime (SET NX PX), and no call once the brokerage has answered (docs/infrastructure.md "Trigger case
// once"). In Redis (single-key commands), or in memory without REDIS_URL (development only).
import type { RedisConnection } from './redis.ts';

/** What a request may do about the prospect's case: call with `attempt`, or nothing (made already, or being made). */
export type CaseTriggerTurn = { call: true; attempt: string } | { call: false; reason: 'done' | 'inFlight' };

export interface CaseTriggers {
  /** Claims the call for `holdMs` (the request's deadline); `attempt` is used unless the prospect has one already. */
  claim(prospectId: string, attempt: string, holdMs: number): Promise<CaseTriggerTurn>;
  /** The brokerage has the case: nobody calls again. Ends the claim. */
  done(prospectId: string): Promise<void>;
  /** The call failed: the claim ends, a later click tries again with the same attempt. */
  release(prospectId: string): Promise<void>;
}

/** The attempt and the done mark outlive any case's review; the claim lives as long as the call may. */
export const CASE_TRIGGER_TTL_SECONDS = 90 * 24 * 3600;
const DONE = 'done';

export function createRedisCaseTriggers(options: { client: RedisConnection; prefix: string }): CaseTriggers {
  const { client, prefix } = options;
  const keys = (prospectId: string) => {
    const base = `${prefix}:case-trigger:${prospectId}`;
    return { attempt: `${base}:attempt`, done: `${base}:done`, claim: `${base}:claim` };
  };
  return {
    async claim(prospectId, attempt, holdMs) {
      const key = keys(prospectId);
      if ((await client.get(key.done)) === DONE) return { call: false, reason: 'done' };
      await client.set(key.attempt, attempt, { NX: true, EX: CASE_TRIGGER_TTL_SECONDS });
      if ((await client.set(key.claim, '1', { NX: true, PX: holdMs })) !== 'OK') return { call: false, reason: 'inFlight' };
      // Read again under the claim: a holder may have finished between the first look and the claim.
      if ((await client.get(key.done)) === DONE) {
        await client.del(key.claim);
        return { call: false, reason: 'done' };
      }
      return { call: true, attempt: (await client.get(key.attempt)) ?? attempt };
    },
    async done(prospectId) {
      const key = keys(prospectId);
      await client.set(key.done, DONE, { EX: CASE_TRIGGER_TTL_SECONDS });
      await client.del(key.claim);
    },
    async release(prospectId) {
      await client.del(keys(prospectId).claim);
    },
  };
}

export function createMemoryCaseTriggers(now: () => number = Date.now): CaseTriggers {
  const attempts = new Map<string, string>();
  const done = new Set<string>();
  const claims = new Map<string, number>();
  return {
    async claim(prospectId, attempt, holdMs) {
      if (done.has(prospectId)) return { call: false, reason: 'done' };
      if (!attempts.has(prospectId)) attempts.set(prospectId, attempt);
      if ((claims.get(prospectId) ?? 0) > now()) return { call: false, reason: 'inFlight' };
      claims.set(prospectId, now() + holdMs);
      return { call: true, attempt: attempts.get(prospectId)! };
    },
    async done(prospectId) {
      done.add(prospectId);
      claims.delete(prospectId);
    },
    async release(prospectId) {
      claims.delete(prospectId);
    },
  };
}
