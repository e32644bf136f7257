// How the run picks its Redis (tests/support/testRedis.ts): a Redis that answers PING but refuses writes (a replica, a
// full memory, a snapshot that failed under stop-writes-on-bgsave-error) is unfit, and the run starts one of its own
// instead of failing every Redis test with a 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { createOwnRedis, type OwnRedis } from '../support/ownRedis.ts';
import { freePort } from '../support/productEnv.ts';
import { whyRedisUnfit } from '../support/testRedis.ts';

let redis: OwnRedis;

beforeAll(async () => {
  redis = await createOwnRedis('unfit-redis');
  await redis.start();
});

afterAll(async () => {
  await redis?.remove();
});

async function command(...args: string[]): Promise<string> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    return String(await client.sendCommand(args));
  } finally {
    client.destroy();
  }
}

describe('the run’s Redis', () => {
  it('takes one that takes a write', async () => {
    expect(await whyRedisUnfit(redis.url)).toBeUndefined();
  });

  it('refuses one that answers PING but refuses writes: full memory, then a read-only replica', async () => {
    await command('CONFIG', 'SET', 'maxmemory', '1');
    await command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    expect(await command('PING')).toBe('PONG');
    expect(await whyRedisUnfit(redis.url)).toMatch(/^a write was refused: OOM /);
    await command('CONFIG', 'SET', 'maxmemory', '0');

    // A replica of a master that is not there: it answers, and refuses every write.
    await command('REPLICAOF', '127.0.0.1', String(await freePort()));
    expect(await command('PING')).toBe('PONG');
    expect(await whyRedisUnfit(redis.url)).toMatch(/^a write was refused: READONLY /);
    await command('REPLICAOF', 'NO', 'ONE');
    expect(await whyRedisUnfit(redis.url)).toBeUndefined();
  });

  it('refuses a port where nothing answers', async () => {
    expect(await whyRedisUnfit(`redis://127.0.0.1:${await freePort()}`)).toMatch(/^no answer \(/);
  });
});
