// The development memory store's idle expiry (server/session.ts): the session cookie has no expiry of
// its own, so the store forgets a session after SESSION_TTL_MINUTES without a request, as Redis does.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionData } from 'express-session';
import { IdleMemoryStore, sessionCookieName } from '../../server/session.ts';

const get = (store: IdleMemoryStore, sid: string) =>
  new Promise<SessionData | null | undefined>((resolve, reject) => store.get(sid, (err, s) => (err ? reject(err) : resolve(s))));
const set = (store: IdleMemoryStore, sid: string, data: object) =>
  new Promise<void>((resolve) => store.set(sid, { cookie: {}, ...data } as SessionData, () => resolve()));
const touch = (store: IdleMemoryStore, sid: string) => new Promise<void>((resolve) => store.touch(sid, { cookie: {} } as SessionData, () => resolve()));

describe('IdleMemoryStore', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());

  it('keeps a session while it is used and forgets it after the idle time', async () => {
    const store = new IdleMemoryStore(30 * 60_000);
    await set(store, 'a', { n: 1 });
    vi.advanceTimersByTime(29 * 60_000);
    expect(await get(store, 'a')).toMatchObject({ n: 1 });
    // A request that changes nothing still counts (express-session touches the session).
    await touch(store, 'a');
    vi.advanceTimersByTime(29 * 60_000);
    expect(await get(store, 'a')).toMatchObject({ n: 1 });
    vi.advanceTimersByTime(2 * 60_000);
    expect(await get(store, 'a')).toBeFalsy();
  });

  it('drops sessions nobody asks for again on a later write', async () => {
    const store = new IdleMemoryStore(60_000);
    await set(store, 'old', {});
    vi.advanceTimersByTime(2 * 60_000);
    await set(store, 'new', {});
    const all = await new Promise<Record<string, unknown>>((resolve) => store.all((_e, s) => resolve((s ?? {}) as Record<string, unknown>)));
    expect(Object.keys(all)).toEqual(['new']);
  });
});

describe('sessionCookieName', () => {
  it.each([
    [true, '__Host-onb.sid'],
    [false, 'onb.sid'],
  ])('secure %s → %s', (secure, name) => {
    expect(sessionCookieName(secure)).toBe(name);
  });
});
