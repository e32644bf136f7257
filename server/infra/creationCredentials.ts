// What the customer-creation worker needs to call the brokerage API on the person's behalf, kept out of
// the job data: the refresh token the web hands over when a run starts, and the access token the worker
// last obtained with it. One entry per prospect and run, sealed with AES-256-GCM under JOB_SECRET_KEY
// (server/infra/secretBox.ts), with a lifetime; the worker removes it when the run ends.
import type { RedisConnection } from './redis.ts';
import type { Logger } from 'pino';
import { z } from 'zod';
import { openSecret, sealSecret } from './secretBox.ts';
import type { CreationCredentials } from '../../shared/creationJobContract.ts';

export type { CreationCredentials };

export interface CreationCredentialsStore {
  /** Stores (or replaces) the run's credentials and restarts their lifetime. */
  put(prospectId: string, runId: string, credentials: CreationCredentials): Promise<void>;
  /** The run's credentials; null when there are none, they lapsed, or they do not open under our key. */
  get(prospectId: string, runId: string): Promise<CreationCredentials | null>;
  remove(prospectId: string, runId: string): Promise<void>;
}

/**
 * Longer than any run (45 polls at 2 s, their retries with backoff, a worker restart in between), short
 * enough that the credentials of a run nobody finished lapse by themselves.
 */
export const CREATION_CREDENTIALS_TTL_SECONDS = 2 * 3600;

const sealedShape = z.object({ r: z.string().min(1).optional(), a: z.string().min(1).optional() });

interface Backend {
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
}

interface StoreOptions {
  /** config.jobSecretKey: 32 bytes. */
  key: Buffer;
  ttlSeconds?: number;
  logger?: Pick<Logger, 'warn'>;
}

function createStore(backend: Backend, name: (prospectId: string, runId: string) => string, options: StoreOptions): CreationCredentialsStore {
  const ttl = options.ttlSeconds ?? CREATION_CREDENTIALS_TTL_SECONDS;
  // The associated data names the entry: a sealed value moved to another prospect's or run's key is refused.
  const context = (prospectId: string, runId: string) => `creation-credentials:${prospectId}:${runId}`;
  return {
    async put(prospectId, runId, credentials) {
      const plain = JSON.stringify({ r: credentials.refreshToken, a: credentials.accessToken });
      await backend.set(name(prospectId, runId), sealSecret(options.key, plain, context(prospectId, runId)), ttl);
    },
    async get(prospectId, runId) {
      const sealed = await backend.get(name(prospectId, runId));
      if (sealed === null) return null;
      try {
        const { r, a } = sealedShape.parse(JSON.parse(openSecret(options.key, sealed, context(prospectId, runId))));
        return { ...(r ? { refreshToken: r } : {}), ...(a ? { accessToken: a } : {}) };
      } catch {
        // Sealed under another key (a rotated JOB_SECRET_KEY) or altered: as good as none.
        options.logger?.warn({ prospectId, runId }, 'creation credentials do not open');
        return null;
      }
    },
    async remove(prospectId, runId) {
      await backend.del(name(prospectId, runId));
    },
  };
}

export function createRedisCreationCredentials(options: StoreOptions & { client: RedisConnection; prefix: string }): CreationCredentialsStore {
  const { client, prefix } = options;
  return createStore(
    {
      async set(key, value, ttlSeconds) {
        await client.set(key, value, { EX: ttlSeconds });
      },
      get: (key) => client.get(key),
      async del(key) {
        await client.del(key);
      },
    },
    (prospectId, runId) => `${prefix}:creation-credentials:${prospectId}:${runId}`,
    options,
  );
}

/** In-process stand-in (development, unit tests); the same sealing, so the same code path runs. */
export function createMemoryCreationCredentials(options: StoreOptions & { now?: () => number }): CreationCredentialsStore & { size(): number } {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) entries.delete(key);
    return entries.get(key) ?? null;
  };
  const store = createStore(
    {
      async set(key, value, ttlSeconds) {
        entries.set(key, { value, expiresAt: now() + ttlSeconds * 1000 });
      },
      async get(key) {
        return live(key)?.value ?? null;
      },
      async del(key) {
        entries.delete(key);
      },
    },
    (prospectId, runId) => `${prospectId}:${runId}`,
    options,
  );
  return {
    ...store,
    size: () => [...entries.keys()].filter((k) => live(k) !== null).length,
  };
}

export interface RunMemoryOptions {
  /** How long a run's credentials are held in memory after they were last read or written (longer than a run). */
  holdMs?: number;
  /** At most this many runs held; past it, the oldest is let go (it is read from the store again if needed). */
  maxRuns?: number;
  now?: () => number;
}

/**
 * The creation worker's view of the store: a run's credentials are read and opened once, then held in this process
 * while the run lives, instead of once per poll; every write still goes to the store first, and the run's end (remove)
 * lets them go. For runs whose credentials the web hands over once (a creation run; "Try again" starts a new run).
 * Another worker may take the next poll: docs/infrastructure.md "Creation credentials held by the worker".
 */
export function heldWhileRunLives(store: CreationCredentialsStore, options: RunMemoryOptions = {}): CreationCredentialsStore {
  const holdMs = options.holdMs ?? 10 * 60_000;
  const maxRuns = options.maxRuns ?? 10_000;
  const now = options.now ?? Date.now;
  const held = new Map<string, { credentials: CreationCredentials; until: number }>();
  const keyOf = (prospectId: string, runId: string) => `${prospectId}\u0000${runId}`;
  const hold = (key: string, credentials: CreationCredentials) => {
    held.delete(key);
    held.set(key, { credentials: { ...credentials }, until: now() + holdMs });
    // A Map keeps insertion order: the first key is the one held longest without use.
    if (held.size > maxRuns) held.delete(held.keys().next().value!);
  };
  return {
    async put(prospectId, runId, credentials) {
      await store.put(prospectId, runId, credentials);
      hold(keyOf(prospectId, runId), credentials);
    },
    async get(prospectId, runId) {
      const key = keyOf(prospectId, runId);
      const entry = held.get(key);
      if (entry && entry.until > now()) {
        hold(key, entry.credentials);
        return { ...entry.credentials };
      }
      held.delete(key);
      const credentials = await store.get(prospectId, runId);
      if (credentials) hold(key, credentials);
      return credentials;
    },
    async remove(prospectId, runId) {
      held.delete(keyOf(prospectId, runId));
      await store.remove(prospectId, runId);
    },
  };
}
