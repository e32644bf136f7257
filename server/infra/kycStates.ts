// The KYC preparation's state per prospect (customer-information §4.6): the worker and the web when it enqueues
// publish, the step's loader reads the latest (a GET reading Redis only; the page polls, so no pub/sub). One key per
// prospect with a lifetime; a publish is compared with the stored state in one step, so an older run's late job cannot
// overwrite a newer run's state, nor a late re-run move a run back from its final state (shared/kycJobContract.ts
// mayReplaceKycState).
import { redisScript, type RedisConnection } from './redis.ts';
import type { Logger } from 'pino';
import { kycStateSchema, mayReplaceKycState, type KycState } from '../../shared/kycJobContract.ts';

export type { KycState };

export interface KycStates {
  /** Stores the state unless it may not replace the latest (shared/kycJobContract.ts); answers whether it was stored. */
  publish(state: KycState): Promise<boolean>;
  latest(prospectId: string): Promise<KycState | null>;
}

export const KYC_STATE_TTL_SECONDS = 24 * 3600;

function parse(raw: string | null | undefined, logger?: Pick<Logger, 'warn'>): KycState | null {
  if (!raw) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  const parsed = kycStateSchema.safeParse(json);
  if (!parsed.success) {
    logger?.warn('kyc state with an unexpected shape ignored');
    return null;
  }
  return parsed.data;
}

// --- Redis ------------------------------------------------------------------------

// mayReplaceKycState in Lua: a run id `kyc-N` or `N` (at most 15 digits) orders by N; others are unordered.
// ARGV: 1 the state's JSON, 2 its runId, 3 the lifetime in seconds. Answers 1 when stored, 0 when refused.
const PUBLISH_SCRIPT = `
local function runNumber(id)
  if type(id) ~= 'string' then return nil end
  local n = string.match(id, '^kyc%-(%d+)$') or string.match(id, '^(%d+)$')
  if n == nil or #n > 15 then return nil end
  return tonumber(n)
end
local stored = redis.call('GET', KEYS[1])
if stored then
  local ok, latest = pcall(cjson.decode, stored)
  if ok and type(latest) == 'table' then
    local mine, theirs = runNumber(ARGV[2]), runNumber(latest.runId)
    if mine ~= nil and theirs ~= nil and mine < theirs then return 0 end
    local s = latest.status
    if latest.runId == ARGV[2] and (s == 'submitted' or s == 'moreInformationRequired' or s == 'error' or s == 'sessionEnded') then return 0 end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
return 1
`;
const publishScript = redisScript(PUBLISH_SCRIPT);

export interface RedisKycStatesOptions {
  /** Owned by the caller. */
  client: RedisConnection;
  prefix: string;
  ttlSeconds?: number;
  logger?: Pick<Logger, 'warn'>;
}

export function kycStateKey(prefix: string, prospectId: string): string {
  return `${prefix}:kyc:${prospectId}:state`;
}

export function createRedisKycStates(options: RedisKycStatesOptions): KycStates {
  const { client, prefix } = options;
  const ttl = options.ttlSeconds ?? KYC_STATE_TTL_SECONDS;
  return {
    async publish(state) {
      // Exactly the schema's fields: nothing else a caller's object carries is stored.
      const valid = kycStateSchema.parse(state);
      const stored = await publishScript(client, {
        keys: [kycStateKey(prefix, valid.prospectId)],
        arguments: [JSON.stringify(valid), valid.runId, String(ttl)],
      });
      return stored === 1;
    },
    async latest(prospectId) {
      return parse(await client.get(kycStateKey(prefix, prospectId)), options.logger);
    },
  };
}

// --- in-process -------------------------------------------------------------------

/** In-process stand-in (development, unit tests): the same rule, the same lifetime. */
export function createMemoryKycStates(options: { ttlSeconds?: number; now?: () => number } = {}): KycStates {
  const ttlMs = (options.ttlSeconds ?? KYC_STATE_TTL_SECONDS) * 1000;
  const now = options.now ?? Date.now;
  const states = new Map<string, { state: KycState; expiresAt: number }>();
  const live = (prospectId: string) => {
    const entry = states.get(prospectId);
    if (entry && entry.expiresAt <= now()) states.delete(prospectId);
    return states.get(prospectId)?.state ?? null;
  };
  return {
    async publish(state) {
      const valid = kycStateSchema.parse(state);
      if (!mayReplaceKycState(live(valid.prospectId), valid)) return false;
      states.set(valid.prospectId, { state: valid, expiresAt: now() + ttlMs });
      return true;
    },
    async latest(prospectId) {
      const state = live(prospectId);
      return state ? structuredClone(state) : null;
    },
  };
}
