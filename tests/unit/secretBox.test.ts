import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret, SealedSecretError } from '../../server/infra/secretBox.ts';
import type { RedisClientType } from 'redis';
import { createMemoryCreationCredentials, createRedisCreationCredentials } from '../../server/infra/creationCredentials.ts';

const key = randomBytes(32);
const SECRET = 'refresh-token-0123456789';

/** Flips one bit of the sealed payload at byte `index` (iv, tag or ciphertext). */
function flipBit(sealed: string, index: number): string {
  const [version, payload] = sealed.split('.');
  const raw = Buffer.from(payload!, 'base64url');
  raw[index]! ^= 1;
  return `${version}.${raw.toString('base64url')}`;
}

describe('secret box (AES-256-GCM)', () => {
  it('round trip: what is sealed opens under the same key and context, and never shows the plaintext', () => {
    const sealed = sealSecret(key, SECRET, 'creation-credentials:p-1:1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(Buffer.from(sealed.slice(3), 'base64url').toString('latin1')).not.toContain(SECRET);
    expect(openSecret(key, sealed, 'creation-credentials:p-1:1')).toBe(SECRET);
    // A fresh IV each time: sealing the same secret twice gives different values.
    expect(sealSecret(key, SECRET, 'c')).not.toBe(sealSecret(key, SECRET, 'c'));
    expect(openSecret(key, sealSecret(key, '', 'c'), 'c')).toBe('');
  });

  it.each([
    { part: 'iv', index: 0 },
    { part: 'tag', index: 12 },
    { part: 'ciphertext', index: 28 },
  ])('refuses a value whose $part was tampered with', ({ index }) => {
    const sealed = sealSecret(key, SECRET, 'c');
    expect(() => openSecret(key, flipBit(sealed, index), 'c')).toThrow(SealedSecretError);
  });

  it.each([
    { name: 'another key', open: (s: string) => openSecret(randomBytes(32), s, 'c') },
    { name: 'another context (another prospect or run)', open: (s: string) => openSecret(key, s, 'd') },
    { name: 'a truncated value', open: (s: string) => openSecret(key, s.slice(0, 20), 'c') },
    { name: 'an unknown version', open: (s: string) => openSecret(key, s.replace(/^v1\./, 'v2.'), 'c') },
    { name: 'plain text', open: () => openSecret(key, SECRET, 'c') },
  ])('refuses $name', ({ open }) => {
    expect(() => open(sealSecret(key, SECRET, 'c'))).toThrow(SealedSecretError);
  });

  it('needs a 32-byte key', () => {
    expect(() => sealSecret(randomBytes(16), SECRET, 'c')).toThrow(/32-byte/);
  });
});

describe('creation credentials store', () => {
  it('keeps sealed credentials per prospect and run, for a lifetime, until removed', async () => {
    let now = 0;
    const store = createMemoryCreationCredentials({ key, ttlSeconds: 60, now: () => now });
    await store.put('p-1', '1', { refreshToken: 'r-1', accessToken: 'a-1' });
    await store.put('p-1', '2', { refreshToken: 'r-2' });
    expect(await store.get('p-1', '1')).toEqual({ refreshToken: 'r-1', accessToken: 'a-1' });
    expect(await store.get('p-1', '2')).toEqual({ refreshToken: 'r-2' });
    expect(await store.get('p-2', '1')).toBeNull();
    await store.remove('p-1', '1');
    expect(await store.get('p-1', '1')).toBeNull();
    now = 60_000;
    expect(await store.get('p-1', '2')).toBeNull();
    expect(store.size()).toBe(0);
  });

  it("stores only the sealed value in Redis, with a lifetime; another key, or another entry's value, opens nothing", async () => {
    const redis = new Map<string, { value: string; ex?: number }>();
    const client = {
      async set(k: string, value: string, opts?: { EX?: number }) {
        redis.set(k, { value, ex: opts?.EX });
        return 'OK';
      },
      async get(k: string) {
        return redis.get(k)?.value ?? null;
      },
      async del(k: string) {
        return redis.delete(k) ? 1 : 0;
      },
    } as unknown as RedisClientType;
    const store = createRedisCreationCredentials({ client, prefix: 'pre', key, ttlSeconds: 7200 });
    await store.put('p-1', '1', { refreshToken: 'refresh-secret', accessToken: 'access-secret' });
    const entry = redis.get('pre:creation-credentials:p-1:1')!;
    expect(entry.ex).toBe(7200);
    expect(entry.value).not.toMatch(/refresh-secret|access-secret/);
    expect(await store.get('p-1', '1')).toEqual({ refreshToken: 'refresh-secret', accessToken: 'access-secret' });

    // A process with another JOB_SECRET_KEY reads nothing.
    const otherKey = createRedisCreationCredentials({ client, prefix: 'pre', key: randomBytes(32) });
    expect(await otherKey.get('p-1', '1')).toBeNull();
    // A sealed value copied to another prospect's entry does not open there.
    redis.set('pre:creation-credentials:p-2:1', entry);
    expect(await store.get('p-2', '1')).toBeNull();

    await store.remove('p-1', '1');
    expect(redis.has('pre:creation-credentials:p-1:1')).toBe(false);
  });
});
