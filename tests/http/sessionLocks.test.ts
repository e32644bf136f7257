// The per-session lock behind serialiseSession (server/infra/sessionLocks.ts), in memory and on Redis:
// one holder at a time, renewed while held, lapsing only when its holder is gone or stuck; and the
// middleware refusing (never going on unlocked) when it cannot get or keep the lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import express from 'express';
import session from 'express-session';
import request from 'supertest';
import { createClient, type RedisClientType } from 'redis';
import {
  createMemorySessionLocks,
  createRedisSessionLocks,
  serialiseSession,
  type HeldLock,
  type LockTiming,
  type SessionLocks,
} from '../../server/infra/sessionLocks.ts';
import { REDIS_URL } from '../support/stack.ts';
import { sessionLockKey } from '../support/redisKeys.ts';

let redis: RedisClientType;

beforeAll(async () => {
  redis = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
  await redis.connect();
});

afterAll(async () => {
  await redis?.quit();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const prefix = () => `test-${randomUUID().slice(0, 8)}`;
const timing = (t: Partial<LockTiming>): LockTiming => ({ holdMs: 5_000, waitMs: 5_000, maxHoldMs: 60_000, ...t });

const kinds: [string, (timing: LockTiming) => SessionLocks][] = [
  ['memory', (t) => createMemorySessionLocks(t)],
  ['Redis', (t) => createRedisSessionLocks({ client: redis, prefix: prefix(), timing: t, retryMs: 5 })],
];

describe.each(kinds)('session locks (%s)', (_kind, create) => {
  it('lets one holder in at a time per session, in turn, and other sessions meanwhile', async () => {
    const locks = create(timing({}));
    const log: string[] = [];
    const holder = async (name: string, session: string, holdMs: number) => {
      const lock = await locks.acquire(session);
      expect(lock).not.toBeNull();
      log.push(`${name} in`);
      await sleep(holdMs);
      log.push(`${name} out`);
      await lock!.release();
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
    const locks = create(timing({ waitMs: 100 }));
    const lock = await locks.acquire('s');
    expect(await locks.acquire('s')).toBeNull();
    expect(await lock!.confirm()).toBe(true);
    await lock!.release();
    expect(await lock!.confirm()).toBe(false);
    const again = await locks.acquire('s');
    expect(again).not.toBeNull();
    await again!.release();
  });

  it('does not let the next one in before the holder is done when a request in between gave up waiting', async () => {
    const locks = create(timing({ waitMs: 100 }));
    const holder = await locks.acquire('s');
    expect(await locks.acquire('s')).toBeNull();
    // The holder still holds it: this one waits, and gives up too.
    expect(await locks.acquire('s')).toBeNull();
    await holder!.release();
    const next = await locks.acquire('s');
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("keeps a live holder's lock past holdMs (renewed), until maxHoldMs; a late release does not free the next holder's lock", async () => {
    // Renewed every 200 ms: a busy machine may hold the holder's timer back by a few hundred without losing the lock.
    const locks = create(timing({ holdMs: 600, waitMs: 100, maxHoldMs: 3000 }));
    const stuck = await locks.acquire('s');
    await sleep(1800);
    // Three holdMs later it is still held: nobody else gets in, and the holder may still write.
    expect(await locks.acquire('s')).toBeNull();
    expect(await stuck!.confirm()).toBe(true);
    // Past maxHoldMs (and the holdMs its last renewal gave it) a stuck holder loses it, and finds out before it writes.
    await sleep(2000);
    expect(await stuck!.confirm()).toBe(false);
    const next = await locks.acquire('s');
    expect(next).not.toBeNull();
    await stuck!.release();
    expect(await next!.confirm()).toBe(true);
    await next!.release();
  });
});

describe('session locks (memory): lapse and late release', () => {
  it("lets the next one in after maxHoldMs, and the stuck holder's late release leaves the next holder's lock alone", async () => {
    const locks = createMemorySessionLocks(timing({ waitMs: 2_000, maxHoldMs: 150 }));
    const stuck = await locks.acquire('s');
    const next = await locks.acquire('s');
    expect(next).not.toBeNull();
    expect(await stuck!.confirm()).toBe(false);
    await stuck!.release();
    expect(await next!.confirm()).toBe(true);
    const waiting = locks.acquire('s');
    const raced = await Promise.race([waiting.then(() => 'got it'), sleep(60).then(() => 'waiting')]);
    expect(raced).toBe('waiting');
    await next!.release();
    const got = await waiting;
    expect(got).not.toBeNull();
    await got!.release();
  });
});

describe('session locks (Redis): lapse, late release, store unreachable', () => {
  it("lets a dead process's lock lapse after holdMs (nobody renews it), and a late release does not free the next holder's lock", async () => {
    const p = prefix();
    const locks = createRedisSessionLocks({ client: redis, prefix: p, timing: timing({ holdMs: 150, waitMs: 2_000, maxHoldMs: 200 }), retryMs: 5 });
    // A process that died holding the lock: its key, never renewed.
    await redis.set(sessionLockKey(p, 's'), 'dead-process-token', { PX: 150 });
    const next = await locks.acquire('s');
    expect(next).not.toBeNull();
    // A holder stuck past maxHoldMs stops renewing; its late release must not free whoever holds it then.
    await sleep(500);
    expect(await next!.confirm()).toBe(false);
    const after = await locks.acquire('s');
    expect(after).not.toBeNull();
    await next!.release();
    // Still after's: the guarded renewal only succeeds on after's own token.
    expect(await after!.confirm()).toBe(true);
    await after!.release();
  });

  it('rejects acquire when Redis cannot be reached, and a held lock then confirms false instead of rejecting', async () => {
    const client = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
    await client.connect();
    const locks = createRedisSessionLocks({ client, prefix: prefix(), timing: timing({}), retryMs: 5 });
    const lock = await locks.acquire('s');
    client.destroy();
    expect(await lock!.confirm()).toBe(false);
    await expect(locks.acquire('t')).rejects.toThrow();
  });
});

// serialiseSession over HTTP: a tiny app whose locked route appends to a list in the session.
type ItemsSession = { items?: string[] };

function appWith(locks: SessionLocks) {
  const app = express();
  const handled: string[] = [];
  app.use(session({ secret: 'test-secret-test-secret-test-secret', resave: false, saveUninitialized: false, store: new session.MemoryStore() }));
  app.use('/locked', serialiseSession(locks, { warn: () => undefined }));
  app.post('/locked/add/:item', (req, res) => {
    handled.push(req.params.item);
    const s = req.session as unknown as ItemsSession;
    s.items = [...(s.items ?? []), req.params.item];
    res.redirect(303, '/read');
  });
  app.get('/read', (req, res) => {
    res.json((req.session as unknown as ItemsSession).items ?? []);
  });
  return { app, handled };
}

/** Locks that behave as `current` says, switchable between requests of one agent. */
function switchableLocks(initial: SessionLocks) {
  const state = { current: initial };
  const locks: SessionLocks = { acquire: (id) => state.current.acquire(id) };
  return { locks, state };
}

describe('serialiseSession', () => {
  it('refuses (503, handler never runs, session unchanged) when the lock store is unreachable or waiting runs out', async () => {
    const { locks, state } = switchableLocks(createMemorySessionLocks(timing({})));
    const { app, handled } = appWith(locks);
    const agent = request.agent(app);
    await agent.post('/locked/add/a').expect(303);

    state.current = { acquire: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const unreachable = await agent.post('/locked/add/b').expect(503);
    expect(unreachable.headers['retry-after']).toBe('1');

    state.current = { acquire: async () => null };
    await agent.post('/locked/add/c').expect(503);

    expect(handled).toEqual(['a']);
    expect((await agent.get('/read').expect(200)).body).toEqual(['a']);
  });

  it("does not save, and answers the refusal instead of the handler's answer, when the lock was lost before the save", async () => {
    const { locks, state } = switchableLocks(createMemorySessionLocks(timing({})));
    const { app, handled } = appWith(locks);
    const agent = request.agent(app);
    await agent.post('/locked/add/a').expect(303);

    let released = 0;
    const lapsed: HeldLock = { confirm: async () => false, release: async () => void (released += 1) };
    state.current = { acquire: async () => lapsed };
    const res = await agent.post('/locked/add/b');
    // The handler ran, but its "done" (303) is not what the person gets: nothing was kept.
    expect(handled).toEqual(['a', 'b']);
    expect(res.status).toBe(503);
    expect(res.headers.location).toBeUndefined();
    expect(released).toBe(1);

    state.current = createMemorySessionLocks(timing({}));
    expect((await agent.get('/read').expect(200)).body).toEqual(['a']);
  });

  it('keeps every item when overlapping posts take turns', async () => {
    const { app } = appWith(createMemorySessionLocks(timing({})));
    const agent = request.agent(app);
    await agent.post('/locked/add/first').expect(303);
    await Promise.all(Array.from({ length: 10 }, (_, i) => agent.post(`/locked/add/${i}`).expect(303)));
    expect(((await agent.get('/read').expect(200)).body as string[]).length).toBe(11);
  });
});

// Two browsers of one person: two sessions whose journeys own the same prospect, on a page of it.
describe.each(kinds)('serialiseSession per application (%s)', (_name, make) => {
  it("takes the application's lock beside the session's: two sessions of one prospect take turns on its pages, others do not wait", async () => {
    const inner = make(timing({}));
    const waiting: string[] = [];
    const locks: SessionLocks = {
      acquire: (id) => {
        waiting.push(id);
        openIfBothArrived();
        return inner.acquire(id);
      },
    };
    const app = express();
    app.use(session({ secret: 'test-secret-test-secret-test-secret', resave: false, saveUninitialized: false, store: new session.MemoryStore() }));
    app.post('/login/:prospectId', (req, res) => {
      (req.session as unknown as { journey: { prospectId: string } }).journey = { prospectId: req.params.prospectId };
      res.status(204).end();
    });
    let running = 0;
    let mostAtOnce = 0;
    const entered: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    // The first holder waits until the second request is either inside the handler too or waiting for the application's lock.
    function openIfBothArrived() {
      if (entered.length >= 2 || waiting.filter((id) => id === 'application:p1').length >= 2) open();
    }
    app.post('/application/:prospectId/hold', serialiseSession(locks, { warn: () => undefined }), async (req, res) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      entered.push(String(req.params.prospectId));
      openIfBothArrived();
      if (entered.length === 1) await gate;
      running -= 1;
      res.status(204).end();
    });
    const phone = request.agent(app);
    const laptop = request.agent(app);
    await phone.post('/login/p1').expect(204);
    await laptop.post('/login/p1').expect(204);
    await Promise.all([phone.post('/application/p1/hold').expect(204), laptop.post('/application/p1/hold').expect(204)]);
    expect(mostAtOnce).toBe(1);
    expect(waiting.filter((id) => id === 'application:p1')).toHaveLength(2);

    // The application's lock not had in time: refused, the handler not run, the session's lock given back.
    const held = await inner.acquire('application:p1');
    const refusing: SessionLocks = { acquire: (id) => (id === 'application:p1' ? Promise.resolve(null) : inner.acquire(id)) };
    const strict = express();
    strict.use(session({ secret: 'test-secret-test-secret-test-secret', resave: false, saveUninitialized: false, store: new session.MemoryStore() }));
    strict.post('/login/:prospectId', (req, res) => {
      (req.session as unknown as { journey: { prospectId: string } }).journey = { prospectId: req.params.prospectId };
      res.status(204).end();
    });
    strict.post('/application/:prospectId/hold', serialiseSession(refusing, { warn: () => undefined }), (_req, res) => void res.status(204).end());
    const tablet = request.agent(strict);
    await tablet.post('/login/p1').expect(204);
    await tablet.post('/application/p1/hold').expect(503);
    await held!.release();
    await tablet.post('/application/p2/hold').expect(204);

    // Someone whose journey does not own the prospect takes no lock of it (the page refuses them anyway).
    const stranger = request.agent(app);
    await stranger.post('/login/p2').expect(204);
    const before = waiting.length;
    await stranger.post('/application/p1/hold').expect(204);
    expect(waiting.slice(before).some((id) => id.startsWith('application:'))).toBe(false);
  });
});
