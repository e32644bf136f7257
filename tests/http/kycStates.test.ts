// The KYC state store on Redis (server/infra/kycStates.ts): the latest state per prospect under the
// prefix, with its lifetime, parsed with the schema on read, and a publish that an older run (or a late
// re-run after the run ended) cannot win, even when publishes race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type RedisClientType } from 'redis';
import { createRedisKycStates, kycStateKey, KYC_STATE_TTL_SECONDS } from '../../server/infra/kycStates.ts';
import type { KycState } from '../../shared/kycJobContract.ts';
import { REDIS_URL } from '../support/stack.ts';

const PREFIX = `test-kyc-states-${process.pid}-${Date.now()}`;
let client: RedisClientType;
let n = 0;

beforeAll(async () => {
  client = createClient({ url: REDIS_URL });
  client.on('error', () => {});
  await client.connect();
});

afterAll(async () => {
  const keys: string[] = [];
  for await (const batch of client.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 })) keys.push(...batch);
  if (keys.length) await client.del(keys);
  await client.quit();
});

const prospect = () => `p-${++n}`;
const state = (prospectId: string, runId: string, status: KycState['status'], over: Partial<KycState> = {}): KycState => ({
  prospectId,
  runId,
  at: new Date().toISOString(),
  attempt: 1,
  status,
  ...over,
});

describe('Redis KYC states', () => {
  it('stores the latest state under the prefix with its lifetime, and reads it back whole', async () => {
    const store = createRedisKycStates({ client, prefix: PREFIX });
    const p = prospect();
    const questions = state(p, 'kyc-1', 'questions', {
      answerSessionId: 'session-1',
      page: { title: 'About you', hasNextPage: false, questions: [{ id: 83, text: 'Why?', type: 'SINGLE_CHOICE', options: [{ id: 1, text: 'Savings' }] }] },
    });
    expect(await store.latest(p)).toBeNull();
    expect(await store.publish(state(p, 'kyc-1', 'preparing'))).toBe(true);
    expect(await store.publish(questions)).toBe(true);
    expect(await store.latest(p)).toEqual(questions);
    const key = kycStateKey(PREFIX, p);
    expect(key.startsWith(`${PREFIX}:`)).toBe(true);
    const ttl = await client.ttl(key);
    expect(ttl).toBeGreaterThan(KYC_STATE_TTL_SECONDS - 10);
    expect(ttl).toBeLessThanOrEqual(KYC_STATE_TTL_SECONDS);
    expect(KYC_STATE_TTL_SECONDS).toBe(24 * 3600);
  });

  it('a given lifetime is used', async () => {
    const store = createRedisKycStates({ client, prefix: PREFIX, ttlSeconds: 60 });
    const p = prospect();
    await store.publish(state(p, 'kyc-1', 'preparing'));
    const ttl = await client.ttl(kycStateKey(PREFIX, p));
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('an older run cannot overwrite a newer run; a newer run replaces an older one, even after its end', async () => {
    const store = createRedisKycStates({ client, prefix: PREFIX });
    const p = prospect();
    expect(await store.publish(state(p, 'kyc-10', 'preparing'))).toBe(true);
    expect(await store.publish(state(p, 'kyc-9', 'questions'))).toBe(false);
    expect(await store.publish(state(p, 'kyc-2', 'error'))).toBe(false);
    expect(await store.latest(p)).toMatchObject({ runId: 'kyc-10', status: 'preparing' });
    expect(await store.publish(state(p, 'kyc-10', 'error'))).toBe(true);
    expect(await store.publish(state(p, 'kyc-11', 'preparing'))).toBe(true);
    expect(await store.latest(p)).toMatchObject({ runId: 'kyc-11', status: 'preparing' });
  });

  it("a run's final state is not moved back by the same run", async () => {
    const store = createRedisKycStates({ client, prefix: PREFIX });
    const p = prospect();
    await store.publish(state(p, 'kyc-1', 'analysing', { attempt: 3 }));
    expect(await store.publish(state(p, 'kyc-1', 'submitted', { attempt: 4 }))).toBe(true);
    expect(await store.publish(state(p, 'kyc-1', 'analysing', { attempt: 3 }))).toBe(false);
    expect(await store.publish(state(p, 'kyc-1', 'error', { attempt: 4 }))).toBe(false);
    expect(await store.latest(p)).toMatchObject({ status: 'submitted', attempt: 4 });
  });

  it('run ids that cannot be ordered replace each other (last write wins)', async () => {
    const store = createRedisKycStates({ client, prefix: PREFIX });
    const p = prospect();
    await store.publish(state(p, 'kyc-2', 'preparing'));
    expect(await store.publish(state(p, 'other', 'questions'))).toBe(true);
    expect(await store.publish(state(p, 'kyc-1', 'preparing'))).toBe(true);
    expect(await store.latest(p)).toMatchObject({ runId: 'kyc-1' });
  });

  it('racing publishes of many runs end with the newest run', async () => {
    const store = createRedisKycStates({ client, prefix: PREFIX });
    const p = prospect();
    const runs = Array.from({ length: 30 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    await Promise.all(runs.map((r) => store.publish(state(p, `kyc-${r}`, 'preparing'))));
    expect(await store.latest(p)).toMatchObject({ runId: 'kyc-30' });
  });

  it('reads with the schema: a stored value of another shape is none, unknown fields are dropped', async () => {
    const store = createRedisKycStates({ client, prefix: PREFIX, logger: { warn: () => {} } });
    const p = prospect();
    const key = kycStateKey(PREFIX, p);
    await client.set(key, 'not json');
    expect(await store.latest(p)).toBeNull();
    await client.set(key, JSON.stringify({ ...state(p, 'kyc-1', 'preparing'), status: 'unknown' }));
    expect(await store.latest(p)).toBeNull();
    await client.set(key, JSON.stringify({ ...state(p, 'kyc-1', 'preparing'), token: 'secret' }));
    expect(await store.latest(p)).not.toHaveProperty('token');
    // A garbled stored value does not block the next publish.
    await client.set(key, 'not json');
    expect(await store.publish(state(p, 'kyc-1', 'preparing'))).toBe(true);
  });

  it('stores exactly the schema fields, and refuses a state of another shape', async () => {
    const store = createRedisKycStates({ client, prefix: PREFIX });
    const p = prospect();
    await store.publish({ ...state(p, 'kyc-1', 'preparing'), jwt: 'secret-access-token' } as KycState);
    expect(await client.get(kycStateKey(PREFIX, p))).not.toContain('secret-access-token');
    await expect(store.publish({ ...state(p, 'kyc-1', 'preparing'), attempt: -1 })).rejects.toThrow();
  });
});
