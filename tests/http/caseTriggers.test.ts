// OnboardingTriggerCase's once-only state (server/infra/caseTriggers.ts), in Redis and in memory: of many requests at
// once one calls; a failed call leaves the next one the same attempt; once done, nobody calls again.
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCaseTriggers, createRedisCaseTriggers, type CaseTriggers } from '../../server/infra/caseTriggers.ts';
import type { RedisConnection } from '../../server/infra/redis.ts';
import { deleteRedisKeys, REDIS_URL } from '../support/redisKeys.ts';

let redis: RedisClientType;
const prefixes: string[] = [];

beforeAll(async () => {
  redis = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
  await redis.connect();
});

afterAll(async () => {
  for (const prefix of prefixes) await deleteRedisKeys(prefix);
  await redis?.quit();
});

const kinds: [string, () => CaseTriggers][] = [
  ['memory', () => createMemoryCaseTriggers()],
  [
    'Redis',
    () => {
      const prefix = `test-${randomUUID().slice(0, 8)}`;
      prefixes.push(prefix);
      return createRedisCaseTriggers({ client: redis as unknown as RedisConnection, prefix });
    },
  ],
];

describe.each(kinds)('case triggers (%s)', (_kind, make) => {
  it('ten requests at once: one calls, the others find it in flight; once done, nobody calls', async () => {
    const triggers = make();
    const turns = await Promise.all(Array.from({ length: 10 }, (_, i) => triggers.claim('p-1', `attempt-${i}`, 60_000)));
    const calling = turns.filter((t) => t.call);
    expect(calling).toHaveLength(1);
    expect(turns.filter((t) => !t.call && t.reason === 'inFlight')).toHaveLength(9);
    await triggers.done('p-1');
    expect(await triggers.claim('p-1', 'later', 60_000)).toEqual({ call: false, reason: 'done' });
    // Another application is another case.
    expect((await triggers.claim('p-2', 'other', 60_000)).call).toBe(true);
  });

  it('a failed call leaves the next request the first attempt (so the same Idempotency-Key); a claim lapses', async () => {
    const triggers = make();
    const first = await triggers.claim('p-1', 'first', 60_000);
    expect(first).toEqual({ call: true, attempt: 'first' });
    await triggers.release('p-1');
    expect(await triggers.claim('p-1', 'second', 50)).toEqual({ call: true, attempt: 'first' });
    // The holder died without releasing: its claim lapses after its hold.
    await expect.poll(async () => (await triggers.claim('p-1', 'third', 60_000)).call, { interval: 20 }).toBe(true);
  });
});
