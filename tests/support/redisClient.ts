// A test file's own node-redis client on the shared Redis. Apart from redisKeys.ts, which the run's global setup and
// the stacks load too: only a test file registers hooks.
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { REDIS_URL } from './redisKeys.ts';

/** A node-redis client on the shared Redis, connected before the file's tests and closed after them. */
export function useRedisClient(): () => RedisClientType {
  let client: RedisClientType | undefined;
  beforeAll(async () => {
    client = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
    await client.connect();
  });
  afterAll(async () => {
    await client?.quit();
  });
  return () => client!;
}
