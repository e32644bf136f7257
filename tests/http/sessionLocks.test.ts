// The per-session lock behind serialiseSession (server/infra/sessionLocks.ts), in memory and on Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { createMemorySessionLocks, createRedisSessionLocks, type LockTiming, type SessionLocks } from '../../server/infra/sessionLocks.ts';
import { REDIS_URL } from '../support/stack.ts';

let redis: RedisClientType;

beforeAll(async () => {
  redis = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
  await redis.connect();
});

afterAll(async () => {
  await redis?.quit();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const kinds: [string, (timing: LockTiming) => SessionLocks][] = [
  ['memory', (timing) => createMemorySessionLocks(timing)],
  ['Redis', (timing) => createRedisSessionLocks({ client: redis, prefix: `test-${randomUUID().slice(0, 8)}`, timing, retryMs: 5 })],
];

describe.each(kinds)('session locks (%s)', (_kind, create) => {
  it('lets one holder in at a time per session, in turn, and other sessions meanwhile', async () => {
    const locks = create({ holdMs: 5_000, waitMs: 5_000 });
    const log: string[] = [];
    const holder = async (name: string, session: string, holdMs: number) => {
      const release = await locks.acquire(session);
      expect(release).not.toBeNull();
      log.push(`${name} in`);
      await sleep(holdMs);
      log.push(`${name} out`);
      await release!();
    };
    const first = holder('a', 's1', 150);
    await sleep(20);
    const second = holder('b', 's1', 10);
    const other = holder('c', 's2', 10);
    await Promise.all([first, second, other]);
    // c (another session) did not wait for a; b did.
    expect(log.indexOf('c out')).toBeLessThan(log.indexOf('a out'));
    expect(log.indexOf('b in')).toBeGreaterThan(log.indexOf('a out'));
  });

  it('answers null when waiting runs out, and the lock is free again once the holder releases', async () => {
    const locks = create({ holdMs: 5_000, waitMs: 100 });
    const release = await locks.acquire('s');
    const started = Date.now();
    expect(await locks.acquire('s')).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    await release!();
    const again = await locks.acquire('s');
    expect(again).not.toBeNull();
    await again!();
  });

  it('lets a lock lapse after holdMs, and a late release does not free the next holder\'s lock', async () => {
    const locks = create({ holdMs: 150, waitMs: 2_000 });
    const stale = await locks.acquire('s');
    const started = Date.now();
    const next = await locks.acquire('s');
    expect(next).not.toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(120);
    await stale!();
    // Still held by `next`: a third comer has to wait.
    const waiting = locks.acquire('s');
    const raced = await Promise.race([waiting.then(() => 'got it'), sleep(60).then(() => 'waiting')]);
    expect(raced).toBe('waiting');
    await next!();
    const got = await waiting;
    expect(got).not.toBeNull();
    await got!();
  });
});
