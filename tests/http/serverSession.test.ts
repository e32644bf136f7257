// HTTP tests of the web server: the session cookie and health.
// The stack and helpers: tests/support/serverHttp.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createClient } from 'redis';
import { freePort, REDIS_URL } from '../support/stack.ts';
import { useServerStack, stopWeb, SECURE_SID, stack, startWeb, sessionCookie, cookieValue, cookieAttr, redisUp } from '../support/serverHttp.ts';

useServerStack();

describe('session cookie', () => {
  // No page view stores a session (entry values travel in the visit cookie); the person's first post does.
  const startSession = (test: request.Test) => test.set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'corporate' }).expect(303);

  it('is HttpOnly, SameSite=Lax, not Secure on plain http, and lives for the browser session only', async () => {
    const res = await startSession(request(stack.webUrl).post('/onboarding/customer-type'));
    const cookie = sessionCookie(res);
    expect(cookie, 'session cookie').toBeDefined();
    expect(cookieAttr(cookie!, 'HttpOnly')).toBe('HttpOnly');
    expect(cookieAttr(cookie!, 'SameSite')).toBe('SameSite=Lax');
    expect(cookieAttr(cookie!, 'Path')).toBe('Path=/');
    expect(cookieAttr(cookie!, 'Secure')).toBeUndefined();
    // No lifetime of its own: the browser drops it when it closes; the server ends it after 30 idle minutes.
    expect(cookieAttr(cookie!, 'Expires')).toBeUndefined();
    expect(cookieAttr(cookie!, 'Max-Age')).toBeUndefined();
  });

  it('is rolling: a later request re-issues the same session, still without an expiry of its own', async () => {
    const agent = request.agent(stack.webUrl);
    const first = sessionCookie(await startSession(agent.post('/onboarding/customer-type')))!;
    // A page that does not change the session still extends it (on the server: the store's idle TTL).
    const later = sessionCookie(await agent.get('/onboarding/cancel').expect(200));
    expect(later, 're-issued cookie').toBeDefined();
    expect(cookieValue(later!)).toBe(cookieValue(first));
    expect(cookieAttr(later!, 'Expires')).toBeUndefined();
  });

  it('is not set by the health endpoints', async () => {
    const res = await request(stack.webUrl).get('/healthz').expect(200);
    expect(sessionCookie(res)).toBeUndefined();
  });

  describe.skipIf(!redisUp)('in production mode (Redis sessions, COOKIE_SECURE defaulting to true)', () => {
    const prefix = `test-srv-${randomUUID().slice(0, 8)}`;
    let url: string;

    beforeAll(async () => {
      const port = await freePort();
      url = await startWeb({
        NODE_ENV: 'production',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        REDIS_URL,
        REDIS_PREFIX: prefix,
        SESSION_SECRET: randomUUID() + randomUUID(),
        JOB_SECRET_KEY: 'cd'.repeat(32),
      });
    });

    afterAll(async () => {
      await stopWeb(url);
      const client = createClient({ url: REDIS_URL });
      await client.connect();
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length) await client.del(keys);
      await client.quit();
    });

    it('behind the TLS-terminating router the cookie is __Host- prefixed, Secure, HttpOnly, SameSite=Lax, Path=/', async () => {
      const res = await startSession(request(url).post('/onboarding/customer-type').set('x-forwarded-proto', 'https'));
      const cookie = sessionCookie(res, SECURE_SID);
      expect(cookie, 'session cookie').toBeDefined();
      expect(cookieAttr(cookie!, 'Path')).toBe('Path=/');
      expect(cookieAttr(cookie!, 'Domain')).toBeUndefined();
      expect(cookieAttr(cookie!, 'Expires')).toBeUndefined();
      expect(cookieAttr(cookie!, 'Secure')).toBe('Secure');
      expect(cookieAttr(cookie!, 'HttpOnly')).toBe('HttpOnly');
      expect(cookieAttr(cookie!, 'SameSite')).toBe('SameSite=Lax');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      // The visit cookie (the entry values kept before identification) has the same flags.
      const entry = await request(url).get('/onboarding?lang=en').set('x-forwarded-proto', 'https').expect(200);
      expect(sessionCookie(entry, SECURE_SID), 'a session cookie for a page view').toBeUndefined();
      const visit = sessionCookie(entry, '__Host-onb.visit');
      expect(visit, 'visit cookie').toBeDefined();
      for (const attr of ['Path=/', 'Secure', 'HttpOnly', 'SameSite=Lax']) expect(cookieAttr(visit!, attr.split('=')[0]!)).toBe(attr);
      expect(cookieAttr(visit!, 'Domain')).toBeUndefined();
      expect(cookieAttr(visit!, 'Expires')).toBeUndefined();
    });

    it('a web started for a test answers its first post, however slowly its Redis connects', async () => {
      // The process listens before its Redis client connects and answers 503 until then; startWeb waits, as a router
      // does, until /readyz says it is ready. A proxy holds each connection to Redis back for 800 ms.
      const target = new URL(REDIS_URL);
      const sockets = new Set<net.Socket>();
      const proxy = net.createServer((inbound) => {
        sockets.add(inbound);
        inbound.pause();
        setTimeout(() => {
          const outbound = net.connect(Number(target.port || 6379), target.hostname, () => inbound.resume());
          sockets.add(outbound);
          inbound.pipe(outbound).pipe(inbound);
          const close = () => (inbound.destroy(), outbound.destroy());
          inbound.on('error', close).on('close', close);
          outbound.on('error', close).on('close', close);
        }, 800);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const proxied = new URL(REDIS_URL);
      proxied.port = String((proxy.address() as AddressInfo).port);
      const port = await freePort();
      try {
        const slow = await startWeb({
          NODE_ENV: 'production',
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          REDIS_URL: proxied.href,
          REDIS_PREFIX: prefix,
          SESSION_SECRET: randomUUID() + randomUUID(),
          JOB_SECRET_KEY: 'cd'.repeat(32),
        });
        await startSession(request(slow).post('/onboarding/customer-type').set('x-forwarded-proto', 'https'));
        await stopWeb(slow);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => proxy.close(resolve));
      }
    });

    it('never hands a Secure cookie out over a plain http connection', async () => {
      const res = await startSession(request(url).post('/onboarding/customer-type'));
      expect(sessionCookie(res, SECURE_SID)).toBeUndefined();
      const entry = await request(url).get('/onboarding?lang=en').expect(200);
      expect(sessionCookie(entry, '__Host-onb.visit')).toBeUndefined();
    });
  });

  // Secure cookies follow the app's TRUST_PROXY: behind a trusted TLS proxy the journey keeps its session.
  it('with COOKIE_SECURE=true behind a trusted loopback proxy (x-forwarded-proto: https) issues a Secure cookie', async () => {
    const url = await startWeb({ COOKIE_SECURE: 'true' });
    const res = await startSession(request(url).post('/onboarding/customer-type').set('x-forwarded-proto', 'https'));
    const cookie = sessionCookie(res, SECURE_SID);
    expect(cookie, 'session cookie').toBeDefined();
    expect(cookieAttr(cookie!, 'Secure')).toBe('Secure');
  });
});

// --- 3. health ---------------------------------------------------------------------------------

describe('health', () => {
  it('/healthz answers 200 and /readyz 200 while the upstreams are up', async () => {
    const health = await request(stack.webUrl).get('/healthz').expect(200);
    expect(health.body).toEqual({ ok: true });
    expect(health.headers['cache-control']).toBe('no-store');
    const ready = await request(stack.webUrl).get('/readyz').expect(200).expect('content-type', /json/);
    expect(ready.body).toEqual({ ok: true, checks: { redis: true } });
  });

  it.each([
    { down: 'bankid', env: 'BANKID_API_URL' },
    { down: 'brokerage', env: 'BROKERAGE_API_URL' },
  ])('/readyz stays ready (200) while $down is unreachable; /healthz stays 200', async ({ env }) => {
    const closed = await freePort();
    const url = await startWeb({ [env]: `http://127.0.0.1:${closed}` });
    await request(url).get('/healthz').expect(200);
    const ready = await request(url).get('/readyz').expect(200).expect('content-type', /json/);
    expect(ready.body).toEqual({ ok: true, checks: { redis: true } });
    // The process stays in rotation, so a person meets the try-again page rather than no answer.
    const start = await request(url).get('/onboarding?lang=en').expect(200);
    expect(start.text).toContain('Before we get started');
  });

  it('/readyz answers from Redis alone: with both upstreams hanging forever it answers, and nothing reached them', async () => {
    // Accepts every connection and request and never answers any: a call waiting on it would wait out its timeout.
    const reached: string[] = [];
    const hanging = http.createServer((req) => void reached.push(`${req.method ?? ''} ${req.url ?? ''}`));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const upstream = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    try {
      // The pages' content (fetched as the process starts) stays on the sandbox: only BankID and the brokerage API hang.
      const url = await startWeb({
        BANKID_API_URL: upstream,
        BROKERAGE_API_URL: upstream,
        CONTENT_SERVICE_URL: stack.sandboxUrl,
        UPSTREAM_TIMEOUT_MS: '600000',
        REQUEST_DEADLINE_MS: '600000',
      });
      for (let i = 0; i < 3; i++) {
        const ready = await request(url).get('/readyz').timeout(10_000).expect(200);
        expect(ready.body).toEqual({ ok: true, checks: { redis: true } });
      }
      expect(reached).toEqual([]);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});
