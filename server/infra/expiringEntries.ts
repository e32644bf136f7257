// Strings under keys, each with a lifetime: in Redis (SET EX), or in memory without REDIS_URL (development only, the same
// code path above it). The backend of stores that seal their values themselves (server/infra/caseDrafts.ts, loginHandoffs.ts).
import type { RedisConnection } from './redis.ts';

export interface ExpiringEntries {
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
}

export function redisExpiringEntries(client: RedisConnection): ExpiringEntries {
  return {
    async set(key, value, ttlSeconds) {
      await client.set(key, value, { EX: ttlSeconds });
    },
    get: (key) => client.get(key),
    async del(key) {
      await client.del(key);
    },
  };
}

export function memoryExpiringEntries(now: () => number = Date.now): ExpiringEntries {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  return {
    async set(key, value, ttlSeconds) {
      entries.set(key, { value, expiresAt: now() + ttlSeconds * 1000 });
    },
    async get(key) {
      const entry = entries.get(key);
      if (entry && entry.expiresAt <= now()) entries.delete(key);
      return entries.get(key)?.value ?? null;
    },
    async del(key) {
      entries.delete(key);
    },
  };
}
