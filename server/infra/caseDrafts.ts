// The status page's unsent answers per person and task (what was typed, the files uploaded, how far sending got), kept
// beyond the session so that identifying again finds them, until the answer is sent or they lapse. Keyed by an HMAC of
// the person's national id (no personal data in keys or logs), the value sealed under JOB_SECRET_KEY and bound to its
// key. In Redis, or in memory without REDIS_URL (development only).
import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { RedisConnection } from './redis.ts';
import { openSecret, sealSecret } from './secretBox.ts';
import { memoryExpiringEntries, redisExpiringEntries, type ExpiringEntries } from './expiringEntries.ts';

const caseDraft = z.object({
  actionId: z.string(),
  files: z.array(z.object({ attachmentId: z.string(), fileName: z.string(), kind: z.string().optional(), digest: z.string() })),
  typed: z.object({ address: z.string().optional(), zipCode: z.string().optional(), city: z.string().optional(), comment: z.string().optional() }).optional(),
  attempt: z.string().optional(),
  actionUpdated: z.boolean().optional(),
});
/** One task's answer not yet sent, for its open action `actionId` (server/journey.ts CaseTaskState without `sent`). */
export type CaseDraft = z.infer<typeof caseDraft>;

/** A draft lives as long as a case's review may take; every write starts its time again. */
export const CASE_DRAFT_TTL_SECONDS = 90 * 24 * 3600;

/** One person's drafts, per task. */
export interface PersonDrafts {
  read(taskId: string): Promise<CaseDraft | null>;
  keep(taskId: string, draft: CaseDraft): Promise<void>;
  drop(taskId: string): Promise<void>;
}

export interface CaseDrafts {
  /** The drafts of the person with this national id (only the HMAC of it names them). */
  of(natregno: string): PersonDrafts;
}

interface Options {
  /** config.jobSecretKey: 32 bytes (the HMAC's and the seal's key). */
  key: Buffer;
  logger?: Pick<Logger, 'warn'>;
}

/** The person's name in keys: not their national id, and no guessing it back without the key. */
const personKeyOf = (key: Buffer, natregno: string) => createHmac('sha256', key).update(`case-draft\0${natregno}`).digest('base64url');

function createStore(backend: ExpiringEntries, name: (person: string, taskId: string) => string, options: Options): CaseDrafts {
  return {
    of(natregno) {
      const person = personKeyOf(options.key, natregno);
      const context = (taskId: string) => `case-draft:${person}:${taskId}`;
      return {
        async read(taskId) {
          const sealed = await backend.get(name(person, taskId));
          if (sealed === null) return null;
          try {
            return caseDraft.parse(JSON.parse(openSecret(options.key, sealed, context(taskId))));
          } catch {
            // Sealed under another key (a rotated JOB_SECRET_KEY), altered or of an older shape: as good as none.
            options.logger?.warn('case draft does not open');
            return null;
          }
        },
        async keep(taskId, draft) {
          const value = sealSecret(options.key, JSON.stringify(caseDraft.parse(draft)), context(taskId));
          await backend.set(name(person, taskId), value, CASE_DRAFT_TTL_SECONDS);
        },
        drop: (taskId) => backend.del(name(person, taskId)),
      };
    },
  };
}

export function createRedisCaseDrafts(options: Options & { client: RedisConnection; prefix: string }): CaseDrafts {
  const { client, prefix } = options;
  return createStore(redisExpiringEntries(client), (person, taskId) => `${prefix}:case-draft:${person}:${taskId}`, options);
}

/** In-process stand-in (development, unit tests); the same sealing, so the same code path runs. */
export function createMemoryCaseDrafts(options: Options & { now?: () => number }): CaseDrafts {
  return createStore(memoryExpiringEntries(options.now), (person, taskId) => `${person}:${taskId}`, options);
}
