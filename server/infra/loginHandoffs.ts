// The login session's hand-off code of a creation run (identification-routing-creation §4): the worker keeps what the
// brokerage's login answered, the web's Continue sends the browser to the bank site's hand-off address with it. The code
// logs the person in on the bank's site until it is redeemed or expires, so it is a credential: sealed under
// JOB_SECRET_KEY (bound to its prospect and run), kept no longer than it lives, never in job data, creation events or
// logs. In Redis, or in memory without REDIS_URL (development only).
import type { Logger } from 'pino';
import type { RedisConnection } from './redis.ts';
import { loginHandoffCode, type LoginHandoff } from '../../shared/contracts/brokerageContract.ts';
import { openSecret, sealSecret } from './secretBox.ts';
import { memoryExpiringEntries, redisExpiringEntries, type ExpiringEntries } from './expiringEntries.ts';

export interface LoginHandoffs {
  /** Keeps the run's code for as long as it can be redeemed. */
  keep(prospectId: string, runId: string, handoff: LoginHandoff): Promise<void>;
  /** The run's code while it lives, else null. Read, not taken: a second click of Continue hands the same code over. */
  codeOf(prospectId: string, runId: string): Promise<string | null>;
}

interface Options {
  /** config.jobSecretKey: 32 bytes. */
  key: Buffer;
  logger?: Pick<Logger, 'warn'>;
}

function createStore(backend: ExpiringEntries, name: (prospectId: string, runId: string) => string, options: Options): LoginHandoffs {
  const context = (prospectId: string, runId: string) => `login-handoff:${prospectId}:${runId}`;
  return {
    async keep(prospectId, runId, handoff) {
      await backend.set(name(prospectId, runId), sealSecret(options.key, handoff.handoffCode, context(prospectId, runId)), handoff.expiresInSeconds);
    },
    async codeOf(prospectId, runId) {
      const sealed = await backend.get(name(prospectId, runId));
      if (sealed === null) return null;
      try {
        return loginHandoffCode.parse(openSecret(options.key, sealed, context(prospectId, runId)));
      } catch {
        // Sealed under another key (a rotated JOB_SECRET_KEY) or altered: as good as none.
        options.logger?.warn({ prospectId, runId }, 'login hand-off does not open');
        return null;
      }
    },
  };
}

export function createRedisLoginHandoffs(options: Options & { client: RedisConnection; prefix: string }): LoginHandoffs {
  const { client, prefix } = options;
  return createStore(redisExpiringEntries(client), (prospectId, runId) => `${prefix}:creation:${prospectId}:login-handoff:${runId}`, options);
}

/** In-process stand-in (development, unit tests); the same sealing, so the same code path runs. */
export function createMemoryLoginHandoffs(options: Options & { now?: () => number }): LoginHandoffs {
  return createStore(memoryExpiringEntries(options.now), (prospectId, runId) => `${prospectId}:${runId}`, options);
}
