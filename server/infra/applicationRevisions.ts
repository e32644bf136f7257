// Which copy of a person's application is current when several browsers of theirs hold one (each session keeps its
// own): every change a browser makes records a new revision per prospect, and a browser whose copy names an older one
// is behind (its next post is refused and it catches up from the brokerage). In Redis, or in memory without REDIS_URL.
import { randomUUID } from 'node:crypto';
import { memoryExpiringEntries, redisExpiringEntries, type ExpiringEntries } from './expiringEntries.ts';
import type { RedisConnection } from './redis.ts';

export interface ApplicationRevisions {
  /** The prospect's latest revision; null when none was recorded (or it lapsed): no browser is behind. */
  latest(prospectId: string): Promise<string | null>;
  /** Records a new revision of the prospect and answers it (under the application's lock, so no two at once). */
  record(prospectId: string): Promise<string>;
}

// Longer than any session lives: a revision that lapsed while an older copy's session lived would let it write again.
const REVISION_TTL_SECONDS = 30 * 24 * 3600;

function createStore(backend: ExpiringEntries, keyOf: (prospectId: string) => string): ApplicationRevisions {
  return {
    latest: (prospectId) => backend.get(keyOf(prospectId)),
    async record(prospectId) {
      const revision = randomUUID();
      await backend.set(keyOf(prospectId), revision, REVISION_TTL_SECONDS);
      return revision;
    },
  };
}

export function createRedisApplicationRevisions(options: { client: RedisConnection; prefix: string }): ApplicationRevisions {
  return createStore(redisExpiringEntries(options.client), (prospectId) => `${options.prefix}:application:${prospectId}:revision`);
}

export function createMemoryApplicationRevisions(now?: () => number): ApplicationRevisions {
  return createStore(memoryExpiringEntries(now), (prospectId) => prospectId);
}
