// What after creation (workers/afterCreation.ts) leaves behind once a run's polling stops: the tracking claim, one
// per prospect and run (whichever worker claims it first records the tracking event, so a stalled job's re-run records
// nothing twice), and the application's lead number from the affiliate conversion (one per prospect, never shown on
// a page nor logged). In Redis (SET NX with a lifetime), or in memory without REDIS_URL (development only).
import type { RedisConnection } from './redis.ts';

export interface AfterCreationRecords {
  /** True for the first caller per prospect and run only: it records the run's tracking event. */
  claimTracking(prospectId: string, runId: string): Promise<boolean>;
  /** The lead number the affiliate conversion gave the application, if any. */
  leadNumber(prospectId: string): Promise<string | null>;
  /** Keeps the application's lead number (the first one kept stays). */
  keepLeadNumber(prospectId: string, leadNumber: string): Promise<void>;
}

/** A tracking claim outlives every re-run of the run's jobs (they are retried within minutes). */
export const TRACKING_CLAIM_TTL_SECONDS = 7 * 24 * 3600;
/** The lead number stays with the application well past its creation (the affiliate's reporting period). */
export const LEAD_NUMBER_TTL_SECONDS = 90 * 24 * 3600;

export function createRedisAfterCreationRecords(options: { client: RedisConnection; prefix: string }): AfterCreationRecords {
  const { client, prefix } = options;
  const tracked = (prospectId: string, runId: string) => `${prefix}:creation:${prospectId}:tracked:${runId}`;
  const lead = (prospectId: string) => `${prefix}:creation:${prospectId}:lead-number`;
  return {
    async claimTracking(prospectId, runId) {
      return (await client.set(tracked(prospectId, runId), '1', { NX: true, EX: TRACKING_CLAIM_TTL_SECONDS })) === 'OK';
    },
    async leadNumber(prospectId) {
      return client.get(lead(prospectId));
    },
    async keepLeadNumber(prospectId, leadNumber) {
      await client.set(lead(prospectId), leadNumber, { NX: true, EX: LEAD_NUMBER_TTL_SECONDS });
    },
  };
}

export function createMemoryAfterCreationRecords(): AfterCreationRecords & { trackingClaims(): number } {
  const claims = new Set<string>();
  const leads = new Map<string, string>();
  return {
    async claimTracking(prospectId, runId) {
      const key = JSON.stringify([prospectId, runId]);
      if (claims.has(key)) return false;
      claims.add(key);
      return true;
    },
    async leadNumber(prospectId) {
      return leads.get(prospectId) ?? null;
    },
    async keepLeadNumber(prospectId, leadNumber) {
      if (!leads.has(prospectId)) leads.set(prospectId, leadNumber);
    },
    trackingClaims: () => claims.size,
  };
}
