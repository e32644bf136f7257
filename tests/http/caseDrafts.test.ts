// The status page's drafts (server/infra/caseDrafts.ts), in Redis and in memory: kept per person and task, never seen
// by another person, gone once dropped; in Redis under a key without the national id, sealed, with a lifetime.
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_DRAFT_TTL_SECONDS, createMemoryCaseDrafts, createRedisCaseDrafts, type CaseDraft, type CaseDrafts } from '../../server/infra/caseDrafts.ts';
import type { RedisConnection } from '../../server/infra/redis.ts';
import { deleteRedisKeys, REDIS_URL } from '../support/redisKeys.ts';

// One prefix for the file; each store under its own part of it.
const PREFIX = `test-${randomUUID().slice(0, 8)}`;
let stores = 0;
const newPrefix = () => `${PREFIX}:${(stores += 1)}`;
const redis = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
const KEY = Buffer.alloc(32, 7);
const PERSON = '199001011234';
const OTHER = '198502029876';
const draft: CaseDraft = {
  actionId: 'action-1',
  files: [{ attachmentId: 'att-1', fileName: 'kept.pdf', digest: 'd1' }],
  typed: { comment: 'A private note' },
};

beforeAll(async () => void (await redis.connect()));
afterAll(async () => {
  await deleteRedisKeys(PREFIX);
  await redis.quit();
});

const kinds: [string, () => CaseDrafts][] = [
  ['memory', () => createMemoryCaseDrafts({ key: KEY })],
  ['Redis', () => createRedisCaseDrafts({ client: redis as unknown as RedisConnection, prefix: newPrefix(), key: KEY })],
];

describe.each(kinds)('case drafts (%s)', (_kind, make) => {
  it('keeps a draft per person and task until dropped; another person finds none', async () => {
    const drafts = make();
    await drafts.of(PERSON).keep('task-1', draft);
    expect(await drafts.of(PERSON).read('task-1')).toEqual(draft);
    expect(await drafts.of(PERSON).read('task-2')).toBeNull();
    expect(await drafts.of(OTHER).read('task-1')).toBeNull();
    await drafts.of(PERSON).drop('task-1');
    expect(await drafts.of(PERSON).read('task-1')).toBeNull();
  });
});

describe('case drafts in Redis', () => {
  it('names no national id in the key, seals the value and gives it a lifetime; another key does not open it', async () => {
    const prefix = newPrefix();
    await createRedisCaseDrafts({ client: redis as unknown as RedisConnection, prefix, key: KEY })
      .of(PERSON)
      .keep('task-1', draft);
    const keys: string[] = [];
    for await (const batch of redis.scanIterator({ MATCH: `${prefix}*` })) keys.push(...batch);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(PERSON);
    expect(keys[0]).toMatch(new RegExp(`^${prefix}:case-draft:[A-Za-z0-9_-]{43}:task-1$`));
    const value = (await redis.get(keys[0]!))!;
    expect(value).not.toContain('private');
    expect(value).not.toContain('kept.pdf');
    const ttl = await redis.ttl(keys[0]!);
    expect(ttl).toBeGreaterThan(CASE_DRAFT_TTL_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(CASE_DRAFT_TTL_SECONDS);
    const rotated = createRedisCaseDrafts({ client: redis as unknown as RedisConnection, prefix, key: Buffer.alloc(32, 8) });
    expect(await rotated.of(PERSON).read('task-1')).toBeNull();
  });
});
