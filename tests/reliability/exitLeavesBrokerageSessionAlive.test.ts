// Exit left the person's brokerage session alive. Now Exit of the customer-information page and Return to site of the
// status page end the person's sessions upstream with their own access token (identification-routing-creation §7
// logout), then ours, and clear the cookie. In production the session cookie is `__Host-` prefixed and lives only for
// the browser session; the server ends it after SESSION_TTL_MINUTES idle. Separate web, worker and sandbox processes on
// Redis, with secure cookies behind a TLS-terminating router.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, startRedisStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { sessionTokensOf, workingTokens } from '../support/sandboxApi.ts';

type Agent = ReturnType<typeof request.agent>;
type Res = Awaited<ReturnType<Agent['get']>>;

const COOKIE = '__Host-onb.sid';
const prefix = `test-exit-${randomUUID().slice(0, 8)}`;
let stack: Stack;
let redis: ReturnType<typeof createClient>;

beforeAll(async () => {
  stack = await startRedisStack({ COOKIE_SECURE: 'true', REDIS_PREFIX: prefix, SESSION_TTL_MINUTES: '30' });
  redis = createClient({ url: REDIS_URL });
  await redis.connect();
});

afterAll(async () => {
  // stop() removes the keys under the stack's prefix.
  await stack?.stop();
  if (redis?.isOpen) await redis.quit();
});

/**
 * A browser on https behind the TLS-terminating router: the router tells the web process so
 * (X-Forwarded-Proto, trusted on loopback), the browser sends its Secure cookies, and its posts come from
 * our own pages (Sec-Fetch-Site).
 */
function browser(): Agent {
  const agent = request.agent(stack.webUrl);
  agent.set('x-forwarded-proto', 'https').set('sec-fetch-site', 'same-origin');
  // supertest's jar sends Secure cookies only over https; the browser's side of the router is https.
  const internal = agent as unknown as {
    jar: { getCookies(access: object): { toValueString(): string } };
    _attachCookies(req: { url: string; cookies: string }): void;
  };
  internal._attachCookies = (req) => {
    const url = new URL(req.url);
    req.cookies = internal.jar.getCookies({ domain: url.hostname, path: url.pathname, secure: true, script: false }).toValueString();
  };
  return agent;
}

const setCookies = (res: Res): string[] => {
  const raw = res.headers['set-cookie'] as unknown;
  return Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
};
const sessionSetCookie = (res: Res) => setCookies(res).find((c) => c.startsWith(`${COOKIE}=`));
const attributes = (setCookie: string) =>
  setCookie
    .split(';')
    .slice(1)
    .map((p) => p.trim().split('=')[0]!.toLowerCase())
    .sort();

interface LogoutCall {
  path: string;
  bearer: string | null;
  status: number;
}

async function logoutsWith(tokens: string[]): Promise<LogoutCall[]> {
  const res = await request(stack.sandboxUrl).get('/sandbox/logouts');
  const calls = res.status === 200 ? (res.body as LogoutCall[]) : [];
  return calls.filter((c) => c.bearer !== null && tokens.includes(c.bearer));
}

/** The session cookie as the browser holds it (whatever its name), to replay it after the exit. */
function heldCookie(agent: Agent): string {
  const jar = (agent as unknown as { jar: { getCookies(access: object): { toValueString(): string } } }).jar;
  const cookie = jar
    .getCookies({ domain: '127.0.0.1', path: '/', secure: true, script: false })
    .toValueString()
    .split(';')
    .map((c) => c.trim())
    .find((c) => /^(__Host-)?onb\.sid=/.test(c));
  expect(cookie, 'the session cookie the browser holds').toBeDefined();
  return cookie!;
}

/** The value of the session cookie named COOKIE. */
const valueOf = (held: string) => (held.startsWith(`${COOKIE}=`) ? held.slice(COOKIE.length + 1) : undefined);

/** After leaving, the person's tokens are dead upstream, both logout calls came with them, and our session is gone. */
async function expectJourneyEnded(left: Res, tokens: string[], oldCookie: string, pageOfTheJourney: string): Promise<void> {
  expect(await workingTokens(stack.sandboxUrl, tokens), "the person's tokens still working at the brokerage API after leaving").toBe(0);
  const calls = await logoutsWith(tokens);
  expect(new Set(calls.map((c) => c.path)), 'logout calls made with the person’s own token').toEqual(
    new Set([brokeragePaths.logoutCurrent, brokeragePaths.logoutLegacy]),
  );
  // Our session: the cookie is cleared (same name, Path=/, Secure) and the old value opens nothing.
  const cleared = sessionSetCookie(left);
  expect(cleared, 'Set-Cookie clearing the session cookie').toBeDefined();
  expect(cleared!).toMatch(new RegExp(`^${COOKIE}=;`));
  expect(cleared!).toMatch(/Expires=Thu, 01 Jan 1970/);
  expect(attributes(cleared!)).toEqual(expect.arrayContaining(['path', 'secure', 'httponly']));
  const replay = await request(stack.webUrl).get(pageOfTheJourney).set('x-forwarded-proto', 'https').set('cookie', oldCookie);
  expect(replay.status, 'the old session cookie after leaving').toBe(303);
  expect(replay.headers.location).toBe('/onboarding');
}

describe('exit leaves the brokerage session alive', () => {
  it('Exit (the abort modal’s “Yes, exit”) logs the person out upstream with their token, then ends our session', async () => {
    const agent = browser();
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    expect(page).toMatch(/^\/onboarding\/customer-information\//);
    await agent.get(page).expect(200);
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    expect(await workingTokens(stack.sandboxUrl, tokens), 'a working access token before the exit').toBeGreaterThan(0);
    const oldCookie = heldCookie(agent);

    // The modal as a page (no JavaScript), then its "Yes, exit" post.
    await agent.get(`${page}/exit`).expect(200);
    const left = await agent.post(`${page}/exit`).type('form').send({}).expect(303);
    expect(left.headers.location).toBe('/');
    await expectJourneyEnded(left, tokens, oldCookie, page);
  });

  it('Return to site of the status page does the same', async () => {
    const agent = browser();
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'openCase');
    expect(page).toBe('/onboarding/case-status');
    await agent.get(page).expect(200);
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    expect(await workingTokens(stack.sandboxUrl, tokens)).toBeGreaterThan(0);
    const oldCookie = heldCookie(agent);

    const left = await agent.post('/onboarding/case-status/return').type('form').send({}).expect(303);
    // The bank's home (HOME_URL "/" on BANK_SITE_URL, the sandbox here), not ours.
    expect(left.headers.location).toBe(`${stack.sandboxUrl}/`);
    // After the exit the routing step (the journey's own page) no longer knows the person.
    await expectJourneyEnded(left, tokens, oldCookie, '/onboarding/routing');
  });

  it('an access token that expired while the person sat on the page: Exit still ends the session', async () => {
    const agent = browser();
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    await request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId: persona.nationalId }).expect(200);
    const left = await agent.post(`${page}/exit`).type('form').send({}).expect(303);
    expect(left.headers.location).toBe('/');
    // The refresh token would have bought a new access token to a live session: it no longer does.
    const refreshed = [];
    for (const token of tokens) refreshed.push((await request(stack.sandboxUrl).post(brokeragePaths.refreshToken).send({ refreshToken: token })).status);
    expect(
      refreshed.filter((status) => status === 200),
      'tokens that still buy an access token after leaving',
    ).toEqual([]);
    expect((await sessionTokensOf(stack.sandboxUrl, persona.nationalId)).filter((t) => tokens.includes(t))).toEqual([]);
  });

  it('a failing or slow logout upstream does not hold the exit; the calls still end the session', async () => {
    // The session service fails: the exit goes on (the other call still ends the session).
    {
      const agent = browser();
      const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
      const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
      await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'DELETE', path: brokeragePaths.logoutCurrent, status: 500, count: 1 }).expect(204);
      const left = await agent.post(`${page}/exit`).type('form').send({}).expect(303);
      expect(left.headers.location).toBe('/');
      expect(await workingTokens(stack.sandboxUrl, tokens)).toBe(0);
      expect(sessionSetCookie(left)).toMatch(/Expires=Thu, 01 Jan 1970/);
    }
    // The session service is slow (answers after 8 s): the exit answers first, the call ends the session later.
    {
      const agent = browser();
      const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
      const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
      await request(stack.sandboxUrl)
        .post('/sandbox/faults')
        .send({ method: 'DELETE', path: brokeragePaths.logoutCurrent, delayMs: 8000, count: 1 })
        .expect(204);
      await request(stack.sandboxUrl)
        .post('/sandbox/faults')
        .send({ method: 'DELETE', path: brokeragePaths.logoutLegacy, delayMs: 8000, count: 1 })
        .expect(204);
      const left = await agent.post(`${page}/exit`).type('form').send({}).expect(303);
      expect(await logoutsWith(tokens), 'logout calls answered before the exit answered').toEqual([]);
      await expect.poll(async () => (await logoutsWith(tokens)).length, { timeout: 15_000 }).toBe(2);
      expect(await workingTokens(stack.sandboxUrl, tokens)).toBe(0);
      expect(sessionSetCookie(left)).toMatch(/Expires=Thu, 01 Jan 1970/);
    }
  });

  it('the session cookie is __Host- prefixed, Secure, HttpOnly, Path=/ and lives for the browser session; Redis ends it after 30 idle minutes', async () => {
    const agent = browser();
    await agent.post('/onboarding/customer-type').type('form').send({ customerType: 'corporate' }).expect(303);
    const res = await agent.get('/onboarding').expect(200);
    const cookie = sessionSetCookie(res);
    expect(cookie, 'session cookie of a journey').toBeDefined();
    expect(attributes(cookie!)).toEqual(['httponly', 'path', 'samesite', 'secure']);
    expect(cookie!).toMatch(/; Path=\/(;|$)/);

    // The server side: the Redis key's TTL is the idle timeout, renewed by each request (rolling).
    const sid = decodeURIComponent(valueOf(heldCookie(agent))!)
      .replace(/^s:/, '')
      .split('.')[0]!;
    const key = `${prefix}:sess:${sid}`;
    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(29 * 60);
    expect(ttl).toBeLessThanOrEqual(30 * 60);
    await redis.expire(key, 60);
    await agent.get('/onboarding').expect(200);
    expect(await redis.ttl(key)).toBeGreaterThan(29 * 60);
  });
});
