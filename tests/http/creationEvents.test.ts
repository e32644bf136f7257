import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import express from 'express';
import { createClient, type RedisClientType } from 'redis';
import { createMemoryCreationEvents, createRedisCreationEvents, type CreationEvents } from '../../server/infra/creationEvents.ts';
import { openStream, type Stream } from '../support/sse.ts';
import { createCreationEventsHandler, createSseConnections, type SseConnections } from '../../server/stages/customerCreation/creationEventsStream.ts';
import type { CreationOutcome, CreationState } from '../../shared/creationOutcome.ts';
import { REDIS_URL } from '../support/redisKeys.ts';

const PREFIX = `test-sse-${process.pid}-${Date.now()}`;

const state = (prospectId: string, outcome: CreationOutcome, attempt: number): CreationState => ({
  prospectId,
  outcome,
  attempt,
  runId: '1',
  at: new Date(0).toISOString(),
});
const events = (s: Stream) => s.messages().filter((m) => m.event === 'creation');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Impl = {
  name: string;
  /** The web process's events, and a publisher: for Redis, another process's own connection. */
  make: () => Promise<{ server: CreationEvents; publisher: CreationEvents; close: () => Promise<void> }>;
};

const redisClients: RedisClientType[] = [];
async function redisClient(): Promise<RedisClientType> {
  const c = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
  c.on('error', () => {});
  await c.connect();
  redisClients.push(c);
  return c;
}

const impls: Impl[] = [
  {
    name: 'memory',
    async make() {
      const e = createMemoryCreationEvents();
      return { server: e, publisher: e, close: () => e.close() };
    },
  },
  {
    name: 'redis',
    async make() {
      const server = createRedisCreationEvents({ client: await redisClient(), prefix: PREFIX });
      const publisher = createRedisCreationEvents({ client: await redisClient(), prefix: PREFIX });
      return {
        server,
        publisher,
        close: async () => {
          await server.close();
          await publisher.close();
        },
      };
    },
  },
];

afterAll(async () => {
  const c = await redisClient();
  const keys: string[] = [];
  for await (const batch of c.scanIterator({ MATCH: `${PREFIX}:*`, COUNT: 500 })) keys.push(...batch);
  if (keys.length) await c.del(keys);
  for (const client of redisClients) if (client.isOpen) await client.quit();
});

describe.each(impls)('creation events over SSE ($name)', (impl) => {
  let server: http.Server;
  let base: string;
  let ev: Awaited<ReturnType<Impl['make']>>;
  let connections: SseConnections;
  let activeSubscriptions: number;
  let n = 0;
  let prospect: string;

  beforeAll(async () => {
    ev = await impl.make();
    connections = createSseConnections({ heartbeatMs: 100 });
    activeSubscriptions = 0;
    // Counts live subscriptions, to see the handler let go when the page leaves.
    const counted: CreationEvents = {
      ...ev.server,
      publish: (s) => ev.server.publish(s),
      latest: (id) => ev.server.latest(id),
      close: () => ev.server.close(),
      async subscribe(id, listener) {
        const off = await ev.server.subscribe(id, listener);
        activeSubscriptions++;
        return async () => {
          activeSubscriptions--;
          await off();
        };
      },
    };
    const app = express();
    const handler = createCreationEventsHandler({ events: counted, connections });
    // Who may listen is the page kit's to decide (tests/http/serverProspect.test.ts: someone else's prospect is refused).
    app.get('/onboarding/customer-creation/:prospectId/events', (req, res) =>
      handler(req, res, req.params.prospectId, (s) => ({ outcome: s.outcome, attempt: s.attempt })),
    );
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await ev.close();
  });

  beforeEach(() => {
    prospect = `p-${impl.name}-${++n}`;
  });
  afterEach(async () => {
    // Every stream of a test has gone: the handler unsubscribed.
    for (let i = 0; i < 50 && (activeSubscriptions > 0 || connections.size > 0); i++) await sleep(20);
    expect(activeSubscriptions).toBe(0);
    expect(connections.size).toBe(0);
  });

  const url = (id: string) => `/onboarding/customer-creation/${id}/events`;

  it('sends the retry hint, then the latest event first', async () => {
    await ev.publisher.publish(state(prospect, 'queued', 0));
    await ev.publisher.publish(state(prospect, 'queued', 1));
    const s = await openStream(base, url(prospect));
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream');
    expect(s.headers['cache-control']).toBe('no-cache, no-transform');
    expect(s.headers['x-accel-buffering']).toBe('no');
    await s.waitFor((t) => t.includes('event: creation'));
    expect(s.text().startsWith('retry: 2000\n\n')).toBe(true);
    expect(events(s)).toEqual([{ id: '2', event: 'creation', data: JSON.stringify({ outcome: 'queued', attempt: 1 }) }]);
    s.close();
  });

  it('skips what Last-Event-ID says the page has seen, and sends the latest when it is behind', async () => {
    await ev.publisher.publish(state(prospect, 'queued', 0));
    await ev.publisher.publish(state(prospect, 'queued', 1));
    const upToDate = await openStream(base, url(prospect), { 'last-event-id': '2' });
    const behind = await openStream(base, url(prospect), { 'last-event-id': '1' });
    await behind.waitFor((t) => t.includes('id: 2'));
    await upToDate.waitFor((t) => t.includes('retry: 2000'));
    await sleep(50);
    expect(events(upToDate)).toEqual([]);
    await ev.publisher.publish(state(prospect, 'done', 2));
    await upToDate.waitFor((t) => t.includes('id: 3'));
    expect(events(upToDate).map((m) => m.id)).toEqual(['3']);
    await behind.waitFor((t) => t.includes('id: 3'));
    expect(events(behind).map((m) => m.id)).toEqual(['2', '3']);
    upToDate.close();
    behind.close();
  });

  it('sends the latest to a page whose Last-Event-ID is ahead (ids restarted)', async () => {
    await ev.publisher.publish(state(prospect, 'queued', 0));
    const s = await openStream(base, url(prospect), { 'last-event-id': '40' });
    await s.waitFor((t) => t.includes('id: 1'));
    await ev.publisher.publish(state(prospect, 'done', 1));
    await s.waitFor((t) => t.includes('id: 2'));
    expect(events(s).map((m) => m.id)).toEqual(['1', '2']);
    s.close();
  });

  it('streams live updates published by another process, without duplicates of the same state', async () => {
    const s = await openStream(base, url(prospect));
    await s.waitFor((t) => t.includes('retry: 2000'));
    await sleep(30);
    const first = await ev.publisher.publish(state(prospect, 'queued', 0));
    const again = await ev.publisher.publish(state(prospect, 'queued', 0));
    expect(again.id).toBe(first.id);
    await ev.publisher.publish(state(prospect, 'customerExists', 1));
    await s.waitFor((t) => t.includes('customerExists'));
    expect(events(s).map((m) => [m.id, JSON.parse(m.data!).outcome])).toEqual([
      ['1', 'queued'],
      ['2', 'customerExists'],
    ]);
    // The run id must survive storage: the creation page shows only its own run's states.
    expect(await ev.server.latest(prospect)).toEqual({ id: 2, state: state(prospect, 'customerExists', 1) });
    s.close();
  });

  it('keeps an idle stream alive with heartbeat comments', async () => {
    const s = await openStream(base, url(prospect));
    await s.waitFor((t) => (t.match(/: heartbeat\n\n/g) ?? []).length >= 2, 2000);
    s.close();
  });

  it('closeAll ends every stream with a reconnect hint', async () => {
    const a = await openStream(base, url(prospect));
    const b = await openStream(base, url(prospect));
    await a.waitFor((t) => t.includes('retry: 2000'));
    await b.waitFor((t) => t.includes('retry: 2000'));
    for (let i = 0; i < 50 && connections.size < 2; i++) await sleep(10);
    expect(connections.size).toBe(2);
    connections.closeAll();
    await Promise.all([a.ended, b.ended]);
    expect(a.text().endsWith('retry: 1000\n\n')).toBe(true);
    expect(b.text().endsWith('retry: 1000\n\n')).toBe(true);
    // During shutdown a late stream is ended at once.
    const late = await openStream(base, url(prospect));
    await late.ended;
    expect(late.text()).toContain('retry: 1000');
  });
});

// redisMode's SIGTERM test once read an event after the reconnect hint: express-session holds the answer's end back
// while it saves the session, and an event published meanwhile was written after the hint.
describe("closeAll while the answer's end is held back (the session being saved)", () => {
  it('writes nothing after the reconnect hint', async () => {
    const ev = createMemoryCreationEvents();
    const connections = createSseConnections({ heartbeatMs: 20 });
    const app = express();
    app.use((_req, res, next) => {
      const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
      res.end = ((...args: unknown[]) => {
        setTimeout(() => end(...args), 150);
        return res;
      }) as typeof res.end;
      next();
    });
    const handler = createCreationEventsHandler({ events: ev, connections });
    app.get('/events/:prospectId', (req, res) => handler(req, res, req.params.prospectId, (s) => ({ outcome: s.outcome })));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const s = await openStream(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/events/p-held');
      await s.waitFor((t) => t.includes('retry: 2000'));
      for (let i = 0; i < 50 && connections.size < 1; i++) await sleep(10);
      connections.closeAll();
      await ev.publish(state('p-held', 'queued', 1));
      await s.ended;
      expect(s.text().endsWith('retry: 1000\n\n'), s.text()).toBe(true);
      expect(events(s)).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await ev.close();
    }
  });
});
