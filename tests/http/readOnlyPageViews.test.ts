// Page views declared read-only (server/session.ts readOnlyPageViews, server/app.ts): on Redis, as in production, they
// take no lock, so they never wait behind a held one, write nothing back, and roll the idle TTL; a change a handler makes
// is not stored and is logged by the names of the fields it changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { createClient, type RedisClientType } from 'redis';
import { readOnlyPageViews, sessionMiddleware } from '../../server/session.ts';
import { createRedisSessionLocks, serialiseSession } from '../../server/infra/sessionLocks.ts';
import { REDIS_URL } from '../support/stack.ts';
import { deleteRedisKeys, sessionLockKey } from '../support/redisKeys.ts';

let redis: RedisClientType;
const prefix = `test-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  redis = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
  await redis.connect();
});

afterAll(async () => {
  await redis?.quit();
  await deleteRedisKeys(prefix);
});

declare module 'express-session' {
  interface SessionData {
    items?: string[];
  }
}

function app() {
  const warned: { fields?: string[]; route?: string }[] = [];
  const debugged: string[] = [];
  const logger = {
    warn: (fields: object | string) => void (typeof fields === 'object' && warned.push(fields as (typeof warned)[number])),
    debug: (msg: string) => void debugged.push(msg),
  };
  const locks = createRedisSessionLocks({ client: redis, prefix, timing: { holdMs: 5_000, waitMs: 1_500, maxHoldMs: 60_000 }, retryMs: 5 });
  const web = express();
  web.use(sessionMiddleware({ secret: 'test-secret', ttlMinutes: 30, secureCookie: false, redis, prefix, logger }));
  web.get(['/view', '/view/saving', '/view/token'], readOnlyPageViews({ secureCookie: false, logger }));
  web.use(serialiseSession(locks, logger));
  web.post('/add/:item', (req, res) => {
    req.session.items = [...(req.session.items ?? []), String(req.params.item)];
    res.redirect(303, '/view');
  });
  // A read-only view whose handler changes the session anyway: a defect this guard makes visible, and harmless.
  web.get('/view', (req, res) => {
    const items = req.session.items ?? [];
    req.session.items = [...items, 'from-a-view'];
    res.json(items);
  });
  // The same, asking for a save as redirectAfterSave does.
  web.get('/view/saving', (req, res) => {
    req.session.items = ['replaced'];
    req.session.save(() => res.redirect(303, '/view'));
  });
  // A view whose calls renewed the person's access token (shared/asPerson.ts keeps it on the journey).
  web.get('/view/token', (req, res) => {
    const session = req.session as unknown as { journey?: { jwt?: string } };
    session.journey = { ...session.journey, jwt: 'renewed' };
    res.json(req.session.items ?? []);
  });
  web.post('/token', (req, res) => {
    (req.session as unknown as { journey?: { jwt?: string } }).journey = { jwt: 'first' };
    res.redirect(303, '/view');
  });
  web.get('/locked', (req, res) => res.json({ items: req.session.items ?? [], journey: (req.session as unknown as { journey?: object }).journey }));
  return { web, warned, debugged, locks };
}

const sessionKey = (sid: string) => `${prefix}:sess:${sid}`;
const sidOf = (agent: ReturnType<typeof request.agent>): string => {
  const cookie = agent.jar.getCookie('onb.sid', { domain: '127.0.0.1', path: '/', script: false, secure: false });
  return decodeURIComponent(cookie!.value).slice(2).split('.')[0]!;
};

describe('read-only page views on Redis', () => {
  it('do not store what their handler changes, and log the changed fields (names only)', async () => {
    const { web, warned } = app();
    const agent = request.agent(web);
    await agent.post('/add/a').expect(303);
    expect((await agent.get('/view').expect(200)).body).toEqual(['a']);
    // Still only a: the view's change was put back before express-session looked.
    expect((await agent.get('/view').expect(200)).body).toEqual(['a']);
    await agent.get('/view/saving').expect(303);
    expect((await agent.get('/locked').expect(200)).body).toEqual({ items: ['a'] });
    expect(JSON.parse((await redis.get(sessionKey(sidOf(agent))))!)).toMatchObject({ items: ['a'] });
    expect(warned.map((w) => w.fields)).toEqual([['items'], ['items'], ['items']]);
    expect(warned[0]!.route).toBe('/view');
    expect(JSON.stringify(warned)).not.toContain('from-a-view');
  });

  it('do not store a renewed access token either, without a warning (the next post renews and keeps it)', async () => {
    const { web, warned, debugged } = app();
    const agent = request.agent(web);
    await agent.post('/token').expect(303);
    await agent.get('/view/token').expect(200);
    expect((await agent.get('/locked').expect(200)).body).toEqual({ items: [], journey: { jwt: 'first' } });
    expect(warned).toEqual([]);
    expect(debugged).toEqual(['a read-only page view renewed the access token; not stored']);
  });

  it('answer while another request of the session holds its lock; a locked route waits and is refused', async () => {
    const { web, locks } = app();
    const agent = request.agent(web);
    await agent.post('/add/a').expect(303);
    const held = await locks.acquire(sidOf(agent));
    expect(held).not.toBeNull();
    try {
      expect((await agent.get('/view').expect(200)).body).toEqual(['a']);
      // The lock is still the holder's: the view did not wait for it, and did not take it.
      expect(await held!.confirm()).toBe(true);
      // A route under the lock waits for it (1.5 s here) and is refused.
      await agent.get('/locked').expect(503);
    } finally {
      await held!.release();
    }
  });

  it('do not send the session cookie again (a locked route does: rolling), so an answer that comes late cannot undo a new one', async () => {
    const { web } = app();
    const agent = request.agent(web);
    await agent.post('/add/a').expect(303);
    const cookiesOf = (res: { headers: Record<string, unknown> }) => (res.headers['set-cookie'] as string[] | undefined) ?? [];
    expect(cookiesOf(await agent.get('/locked').expect(200)).some((c) => c.startsWith('onb.sid='))).toBe(true);
    const viewed = await agent.get('/view').expect(200);
    expect(viewed.body).toEqual(['a']);
    expect(cookiesOf(viewed).some((c) => c.startsWith('onb.sid='))).toBe(false);
  });

  it('roll the idle TTL and write nothing: no lock key, the stored session unchanged', async () => {
    const { web } = app();
    const agent = request.agent(web);
    await agent.post('/add/a').expect(303);
    const key = sessionKey(sidOf(agent));
    const stored = await redis.get(key);
    await redis.expire(key, 100);
    await agent.get('/view').expect(200);
    expect(await redis.ttl(key)).toBeGreaterThan(30 * 60 - 10);
    expect(await redis.get(key)).toBe(stored);
    expect(await redis.exists(sessionLockKey(prefix, sidOf(agent)))).toBe(0);
  });
});
