// An anonymous GET stored a session and logged out upstream: every visit of /onboarding without a cookie wrote a
// session to Redis, set a cookie, and sent the brokerage two logout calls without credentials. Now a page view only
// reads: a session is stored once it holds something (a POST; entry values travel in the visit cookie), and the logout
// happens once per identification, with that identification's credentials. Redis mode: separate web, worker and sandbox
// processes; the sandbox records the logout calls it gets.
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, startRedisStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp, personaFor } from '../support/journey.ts';

const prefix = `test-anon-${randomUUID().slice(0, 8)}`;
const VISITS = 50;
let stack: Stack;
let redis: RedisClientType;

beforeAll(async () => {
  stack = await startRedisStack({ REDIS_PREFIX: prefix });
  redis = createClient({ url: REDIS_URL });
  await redis.connect();
});

afterAll(async () => {
  // stop() removes the keys under the stack's prefix.
  await stack?.stop();
  if (redis?.isOpen) await redis.quit();
});

interface LogoutCall {
  path: string;
  bearer: string | null;
  status: number;
}

async function logoutCalls(): Promise<LogoutCall[]> {
  const res = await fetch(`${stack.sandboxUrl}/sandbox/logouts`);
  expect(res.status, 'the sandbox records logout calls').toBe(200);
  return (await res.json()) as LogoutCall[];
}

async function storedSessions(): Promise<number> {
  let count = 0;
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}:sess:*`, COUNT: 500 })) count += keys.length;
  return count;
}

/** The session cookie the answer sets, if any (the CSRF defence's own token cookie holds no session). */
const sessionCookie = (res: { headers: Record<string, unknown> }): string | undefined => {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  return all.find((c) => /^(__Host-)?onb\.sid=/.test(c));
};

describe('anonymous GET stores a session and logs out upstream', () => {
  it(`${VISITS} anonymous visits of /onboarding set no session cookie, store no session and make no logout call`, async () => {
    const [sessionsBefore, logoutsBefore] = [await storedSessions(), (await logoutCalls()).length];
    let cookies = 0;
    for (let i = 0; i < VISITS; i++) {
      const res = await request(stack.webUrl).get('/onboarding').expect(200);
      expect(res.text).toContain('Before we get started. Who&#x27;s the account for?');
      if (sessionCookie(res)) cookies++;
    }
    expect.soft(cookies, 'answers setting a session cookie').toBe(0);
    expect.soft((await storedSessions()) - sessionsBefore, 'sessions stored in Redis').toBe(0);
    // The sandbox answers a logout as it arrives; give a fire-and-forget call time to get there.
    await new Promise((r) => setTimeout(r, 300));
    expect.soft((await logoutCalls()).length - logoutsBefore, 'logout calls upstream').toBe(0);
  });

  it('the person’s first click stores the session; an entry value worth keeping (campaign) does not (it is kept in the visit cookie)', async () => {
    const before = await storedSessions();
    const chose = await request(stack.webUrl)
      .post('/onboarding/customer-type')
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send({ customerType: 'corporate' })
      .expect(303);
    expect(sessionCookie(chose)).toBeDefined();
    const campaign = await request(stack.webUrl).get('/onboarding?campaign=ask').expect(200);
    expect(sessionCookie(campaign)).toBeUndefined();
    expect((await storedSessions()) - before).toBe(1);
  });

  it('identifying again in the same browser ends the earlier identification’s brokerage session upstream, with its own token', async () => {
    const logoutsBefore = (await logoutCalls()).length;
    const agent = request.agent(stack.webUrl);
    const first = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    const tokensOf = async (nationalId: string) =>
      ((await (await fetch(`${stack.sandboxUrl}/sandbox/sessions/tokens?nationalId=${encodeURIComponent(nationalId)}`)).json()) as { tokens: string[] }).tokens;
    expect(await tokensOf(first.persona.nationalId)).not.toEqual([]);
    // Viewing pages logs nobody out.
    await agent.get('/onboarding');
    expect.soft((await logoutCalls()).length, 'logout calls by identifying and viewing pages').toBe(logoutsBefore);

    // Back to the start in the same browser, and another person identifies.
    const second = await personaFor(stack.sandboxUrl, 'onboardingIntent');
    const waiting = async () => ((await (await fetch(`${stack.sandboxUrl}/sandbox/bankid/orders`)).json()) as { orderRef: string }[]).map((o) => o.orderRef);
    const known = new Set(await waiting());
    await agent.post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'private' }).expect(303);
    await agent.get('/onboarding').expect(200);
    const orderRef = (await waiting()).find((ref) => !known.has(ref))!;
    await request(stack.sandboxUrl).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: second.nationalId }).expect(200);
    expect((await agent.get('/onboarding/identification/bankid/status').expect(200)).body).toMatchObject({ state: 'complete' });

    expect.soft(await tokensOf(first.persona.nationalId), 'the earlier identification’s tokens upstream').toEqual([]);
    expect(await tokensOf(second.nationalId)).not.toEqual([]);
    const calls = (await logoutCalls()).slice(logoutsBefore);
    // Once for this identification: both logout paths, each with a bearer token, one of them ending the session.
    expect(calls.map((c) => c.path).sort()).toEqual(['/api/2/login', '/nnxapi/authentication/v1/sessions/current']);
    expect(calls.every((c) => c.bearer !== null)).toBe(true);
    expect(calls.some((c) => c.status === 204)).toBe(true);
  });
});
