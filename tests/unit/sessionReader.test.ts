// The creation event stream reads its session without express-session (server/session.ts
// sessionReader): the same cookie, signature and store, so the same sessions are found and the same forgeries refused.
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createSessionStore, sessionMiddleware, sessionReader, signedSessionId } from '../../server/session.ts';

const secret = 'unit-test-secret';

/** express-session over `store`, and a post that stores a session (its cookie is answered). */
function signedCookieFrom(store: ReturnType<typeof createSessionStore>) {
  const app = express();
  app.use(sessionMiddleware({ secret, ttlMinutes: 30, secureCookie: false, prefix: 'unit', store }));
  app.post('/keep', (req, res) => {
    (req.session as unknown as Record<string, unknown>).journey = { prospectId: 'p-1', jwt: 'x' };
    res.end();
  });
  return async () => {
    const res = await request(app).post('/keep').expect(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
    return decodeURIComponent(cookie.slice('onb.sid='.length).split(';')[0]!);
  };
}

describe('sessionReader', () => {
  it('finds the session express-session stored, through its signed cookie', async () => {
    const store = createSessionStore({ ttlMinutes: 30, prefix: 'unit' });
    const value = await signedCookieFrom(store)();
    const read = sessionReader({ store, secret, secureCookie: false });
    const session = await read({ headers: { cookie: `other=1; onb.sid=${encodeURIComponent(value)}` } });
    expect(session?.journey).toEqual({ prospectId: 'p-1', jwt: 'x' });
  });

  it('refuses a cookie that is unsigned, signed with another secret, or altered; finds nothing without one', async () => {
    const store = createSessionStore({ ttlMinutes: 30, prefix: 'unit' });
    const value = await signedCookieFrom(store)();
    const sid = signedSessionId(value, secret)!;
    expect(sid).toMatch(/^[\w-]{20,}$/);
    const read = sessionReader({ store, secret, secureCookie: false });
    const withCookie = (v: string) => read({ headers: { cookie: `onb.sid=${encodeURIComponent(v)}` } });
    expect(await withCookie(sid)).toBeNull();
    expect(await withCookie(value.slice(0, -1))).toBeNull();
    expect(await withCookie(`s:${sid}x${value.slice(2 + sid.length)}`)).toBeNull();
    expect(await sessionReader({ store, secret: 'another', secureCookie: false })({ headers: { cookie: `onb.sid=${encodeURIComponent(value)}` } })).toBeNull();
    expect(await read({ headers: {} })).toBeNull();
    // The secure name only, with secure cookies (`__Host-`).
    expect(await sessionReader({ store, secret, secureCookie: true })({ headers: { cookie: `onb.sid=${encodeURIComponent(value)}` } })).toBeNull();
  });

  it('passes a failing store on (Redis away: the stream answers 503)', async () => {
    const store = createSessionStore({ ttlMinutes: 30, prefix: 'unit' });
    const value = await signedCookieFrom(store)();
    store.get = (_sid, callback) => callback(new Error('store down'));
    const read = sessionReader({ store, secret, secureCookie: false });
    await expect(read({ headers: { cookie: `onb.sid=${encodeURIComponent(value)}` } })).rejects.toThrow('store down');
  });
});
