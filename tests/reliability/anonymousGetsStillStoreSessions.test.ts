// Anonymous GETs still stored sessions: `?lang=…`, `?webview=…`, campaign and tracking parameters, the
// nightly-downtime page, `/onboarding/customer-creation/<any>` and `…/customer-information/<any>/shown` each stored one
// Redis session per request. Now nobody who has not identified gets a server-side session from a GET: the values kept
// before identification travel in a signed cookie and move into the session when the person identifies. Redis mode:
// separate web, worker and sandbox processes, as on the PaaS.
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, startRedisStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { fillPattern, routePatterns } from '../../shared/routes.ts';

const prefix = `test-anongets-${randomUUID().slice(0, 8)}`;
const GETS = 1000;
let stack: Stack;
let redis: RedisClientType;
let port: string;

beforeAll(async () => {
  stack = await startRedisStack({ REDIS_PREFIX: prefix });
  port = new URL(stack.webUrl).port;
  redis = createClient({ url: REDIS_URL });
  await redis.connect();
});

afterAll(async () => {
  // stop() removes the keys under the stack's prefix.
  await stack?.stop();
  if (redis?.isOpen) await redis.quit();
});

async function sessionKeys(): Promise<string[]> {
  const all: string[] = [];
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}:sess:*`, COUNT: 500 })) all.push(...keys);
  return all;
}

const setCookies = (res: { headers: Record<string, unknown> }): string[] => {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
};
const sessionCookie = (res: { headers: Record<string, unknown> }) => setCookies(res).find((c) => /^(__Host-)?onb\.sid=/.test(c));
const visitCookie = (res: { headers: Record<string, unknown> }) => setCookies(res).find((c) => /^(__Host-)?onb\.visit=/.test(c));

// Every journey path, its parameters filled with arbitrary ids: a route added to shared/routes.ts is covered too.
const ids = ['p-1', randomUUID(), '12345', 'x/y'];
const paths = Object.values(routePatterns).flatMap((pattern) =>
  pattern.includes(':') ? ids.map((id) => fillPattern(pattern, { prospectId: id } as never)) : [pattern],
);
// The entry values a page keeps, the tracking ids and the route queries (identification-routing-creation §2, §3).
const queries = [
  '',
  'lang=en',
  'lang=sv',
  'lang=fi',
  'lang=da',
  'webview=true',
  'webview=false',
  'campaign=ask',
  'campaign=unknown',
  'utm_source=newsletter&utm_campaign=spring&gclid=abc123&fbclid=def456',
  'shouldUseLegacyFlow=true',
  'justCompletedSignup=true&embedded=true&webview=true',
  'notSaved=upload',
  'lang=sv&webview=true&campaign=ask&utm_medium=email',
  'code=abc&state=xyz',
  'error=access_denied&state=xyz',
  `long=${'v'.repeat(600)}`,
];
const hosts = [undefined, 'se.localhost', 'no.localhost', 'dk.localhost', 'fi.localhost'];

describe('anonymous GETs still store sessions', () => {
  it(`${GETS} anonymous GETs over every page route, query and market store no session and set no session cookie`, async () => {
    const before = (await sessionKeys()).length;
    const visits: { url: string; host?: string }[] = [];
    for (let i = 0; visits.length < GETS; i++) {
      const path = paths[i % paths.length]!;
      const query = queries[Math.floor(i / paths.length) % queries.length]!;
      visits.push({ url: query ? `${path}?${query}` : path, host: hosts[i % hosts.length] });
    }
    const withCookie: string[] = [];
    const failed: string[] = [];
    // A few at a time, as one impatient client would.
    for (let i = 0; i < visits.length; i += 10) {
      await Promise.all(
        visits.slice(i, i + 10).map(async ({ url, host }) => {
          const req = request(stack.webUrl).get(url);
          if (host) req.set('host', `${host}:${port}`);
          const res = await req;
          if (res.status >= 500) failed.push(`${url} → ${res.status}`);
          if (sessionCookie(res)) withCookie.push(url.slice(0, 90));
        }),
      );
    }
    expect.soft(failed, 'answers that failed').toEqual([]);
    expect.soft([...new Set(withCookie)], 'GETs that set a session cookie').toEqual([]);
    expect((await sessionKeys()).length - before, 'sessions stored in Redis').toBe(0);
  }, 120_000);

  it('the values kept before identification travel in a signed cookie and reach the session when the person identifies', async () => {
    const agent = request.agent(stack.webUrl);
    const entry = await agent.get('/onboarding?lang=sv&webview=true&campaign=ask&utm_source=newsletter&gclid=abc123').expect(200);
    expect(sessionCookie(entry), 'a session cookie').toBeUndefined();
    const cookie = visitCookie(entry);
    expect(cookie, 'the visit cookie').toBeDefined();
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    // The page already speaks the chosen language and closes into the app.
    expect(entry.text).toContain('<html lang="sv-SE"');
    expect(entry.text).toContain('href="/onboarding/leave?webview=true"');
    // A later page of the visit without the query still knows them.
    const later = await agent.get('/onboarding/nightly-downtime-status').expect(200);
    expect(later.text).toContain('<html lang="sv-SE"');
    expect(later.text).toContain('href="/onboarding/leave?webview=true"');
    expect(sessionCookie(later)).toBeUndefined();

    const before = new Set(await sessionKeys());
    await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    const stored = (await sessionKeys()).filter((k) => !before.has(k));
    const journeys = await Promise.all(stored.map(async (k) => (JSON.parse((await redis.get(k))!) as { journey: Record<string, unknown> }).journey));
    const identified = journeys.find((j) => typeof j.natregno === 'string');
    expect(identified, 'the identified person’s session').toBeDefined();
    expect(identified).toMatchObject({
      locale: 'sv-SE',
      webview: true,
      campaign: 'ask',
      queryParams: { utm_source: 'newsletter', gclid: 'abc123', campaign: 'ask', webview: 'true' },
    });
  });

  it('a tampered or oversized visit cookie is ignored, never a 500', async () => {
    const entry = await request(stack.webUrl).get('/onboarding?lang=sv&webview=true').expect(200);
    const cookie = visitCookie(entry)!.split(';')[0]!;
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    // Its content changed (English instead of Swedish) without the signature to match.
    const decoded = decodeURIComponent(value);
    const body = decoded.split('.')[1]!;
    const forgedBody = Buffer.from(Buffer.from(body, 'base64url').toString('utf8').replace('sv-SE', 'en'), 'utf8').toString('base64url');
    const forged = `${name}=${encodeURIComponent(decoded.replace(body, forgedBody))}`;
    for (const sent of [
      forged,
      `${name}=${'A'.repeat(5000)}`,
      `${name}=v1.${Buffer.from('{"locale":').toString('base64url')}.x`,
      `${name}=%E0%A4%A`,
      `${name}=`,
    ]) {
      const res = await request(stack.webUrl).get('/onboarding').set('cookie', sent);
      expect(res.status, sent.slice(0, 60)).toBe(200);
      // Ignored: the default language (English in tests) and no webview.
      expect(res.text).toContain('<html lang="en"');
      expect(res.text).not.toContain('href="/onboarding/leave?webview=true"');
    }
    // The genuine cookie is honoured.
    const genuine = await request(stack.webUrl).get('/onboarding').set('cookie', cookie).expect(200);
    expect(genuine.text).toContain('<html lang="sv-SE"');
  });
});
