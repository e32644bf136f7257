// Pages hung when Redis was down: node-redis queued each command until the connection came back. Now commands fail at
// once while the connection is down (or after REDIS_COMMAND_TIMEOUT_MS when Redis stalls) and the answer is 503: a
// translated "temporarily unavailable" page, JSON for API callers, 503 from /readyz; when Redis returns, the same web
// process serves the same person again. A Redis of the test's own with AOF, so the session survives the outage;
// separate sandbox, web and worker processes on it. Nothing here asserts a speed.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisStack, type Stack } from '../support/stack.ts';
import { createOwnRedis, type OwnRedis } from '../support/ownRedis.ts';
import { identifyOverHttp } from '../support/journey.ts';

type Agent = ReturnType<typeof request.agent>;

/** Longer than any answer we expect (Redis down answers at once), shorter than a hang. */
const CLIENT_TIMEOUT_MS = 5000;
const UNAVAILABLE = { en: 'Temporarily unavailable', 'sv-SE': 'Tillfälligt otillgänglig', 'fi-FI': 'Tilapäisesti poissa käytöstä' };

let redis: OwnRedis;
let stack: Stack | undefined;

type Answer = { status: number; type: string; text: string; body: unknown; ms: number } | 'no answer';
const durations: Array<[string, number]> = [];

/** The answer, or 'no answer' when the client's timeout ran out first (the defect). */
async function answer(label: string, test: request.Test): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await test.timeout(CLIENT_TIMEOUT_MS).redirects(0);
    durations.push([label, Date.now() - started]);
    return { status: res.status, type: res.type, text: res.text, body: res.body as unknown, ms: Date.now() - started };
  } catch (err) {
    if ((err as { timeout?: unknown }).timeout !== undefined) return 'no answer';
    throw err;
  }
}

beforeAll(async () => {
  redis = await createOwnRedis('redis-down');
  await redis.start();
  // The production deadline of a Redis command (the test stacks' own is longer): a stalled Redis answers 503 after it.
  stack = await startRedisStack({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '1000' });
});

afterAll(async () => {
  // The stack cleans its keys in this Redis: it must be up for that.
  if (!redis.process) await redis.start().catch(() => {});
  await stack?.stop();
  await redis.remove();
  if (durations.length) console.log(`answer times (ms): ${durations.map(([l, ms]) => `${l} ${ms}`).join(', ')}`);
});

/** Each request's outcome: its status, 'no answer' when the client gave up, and whether it showed the unavailable page (and in which language). */
function outcome(a: Answer): string {
  if (a === 'no answer') return 'no answer';
  const page = (Object.entries(UNAVAILABLE) as Array<[string, string]>).find(([, text]) => a.type === 'text/html' && a.text.includes(text));
  return page ? `${a.status} unavailable page (${page[0]})` : `${a.status} ${a.type}`;
}

/** A person identified over HTTP, on their customer-information page. */
async function identified(): Promise<{ agent: Agent; page: string; step: string }> {
  const agent: Agent = request.agent(stack!.webUrl);
  const { page } = await identifyOverHttp(agent, stack!.sandboxUrl, 'onboarding');
  expect(page).toMatch(/^\/onboarding\/customer-information\//);
  const step = /data-step="([A-Z_]+)"/.exec((await agent.get(page).expect(200)).text)?.[1];
  expect(step).toBeDefined();
  return { agent, page, step: step! };
}

/** The same person at the same step: the session outlived the outage. */
async function expectServedAgain(agent: Agent, page: string, step: string): Promise<void> {
  const again = await answer('GET customer information (after)', agent.get(page));
  expect(again !== 'no answer' && again.status).toBe(200);
  if (again !== 'no answer') expect(/data-step="([A-Z_]+)"/.exec(again.text)?.[1]).toBe(step);
}

describe('pages hang when Redis is down', () => {
  it('Redis stalled (accepts, never answers): pages and /readyz answer 503 after the command timeout; served again when it resumes', async () => {
    const web = stack!.webUrl;
    const { agent, page, step } = await identified();

    redis.process!.kill('SIGSTOP');
    let answers: Array<[string, Answer]>;
    try {
      answers = await Promise.all(
        (
          [
            ['GET /onboarding', agent.get('/onboarding')],
            ['GET /onboarding (no cookie)', request(web).get('/onboarding')],
            ['GET customer information', agent.get(page)],
            ['POST customer type', agent.post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'private' })],
            ['GET /readyz', request(web).get('/readyz')],
          ] as Array<[string, request.Test]>
        ).map(async ([label, test]) => [label, await answer(`stalled: ${label}`, test)] as [string, Answer]),
      );
    } finally {
      redis.process!.kill('SIGCONT');
    }
    expect(Object.fromEntries(answers.map(([label, a]) => [label, outcome(a)]))).toEqual({
      'GET /onboarding': '503 unavailable page (en)',
      // A stranger's page view reads nothing from Redis (no session, no lock), so it is served.
      'GET /onboarding (no cookie)': '200 text/html',
      'GET customer information': '503 unavailable page (en)',
      'POST customer type': '503 unavailable page (en)',
      'GET /readyz': '503 application/json',
    });

    await expect.poll(async () => (await request(web).get('/readyz').timeout(CLIENT_TIMEOUT_MS)).status, { timeout: 15_000, interval: 200 }).toBe(200);
    await expectServedAgain(agent, page, step);
  });

  it('Redis killed: every page answers the translated 503 page (JSON for API callers, 503 from /readyz) at once; served again when it restarts, without restarting the web process', async () => {
    const web = stack!.webUrl;
    const { agent, page, step } = await identified();
    expect((await request(web).get('/readyz')).status).toBe(200);

    await redis.kill();
    // Side by side: each must answer on its own (before the fix each hung until the client gave up).
    const answers = await Promise.all(
      (
        [
          ['GET /onboarding (session)', agent.get('/onboarding')],
          ['GET /onboarding (no cookie)', request(web).get('/onboarding')],
          ['GET customer information', agent.get(page)],
          ['POST customer type', agent.post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'private' })],
          // Rendered without the session, in the visitor's language (the locale cookie).
          ['GET /onboarding (sv-SE)', request(web).get('/onboarding').set('cookie', 'locale=sv-SE')],
          ['GET /onboarding (fi-FI)', request(web).get('/onboarding').set('cookie', 'locale=fi-FI')],
          ['GET /onboarding (JSON caller)', agent.get('/onboarding').set('accept', 'application/json')],
          ['GET /readyz', request(web).get('/readyz')],
        ] as Array<[string, request.Test]>
      ).map(async ([label, test]) => [label, await answer(label, test)] as [string, Answer]),
    );
    expect(Object.fromEntries(answers.map(([label, a]) => [label, outcome(a)]))).toEqual({
      'GET /onboarding (session)': '503 unavailable page (en)',
      'GET /onboarding (no cookie)': '503 unavailable page (en)',
      'GET customer information': '503 unavailable page (en)',
      'POST customer type': '503 unavailable page (en)',
      'GET /onboarding (sv-SE)': '503 unavailable page (sv-SE)',
      'GET /onboarding (fi-FI)': '503 unavailable page (fi-FI)',
      'GET /onboarding (JSON caller)': '503 application/json',
      'GET /readyz': '503 application/json',
    });
    const ready = answers.find(([label]) => label === 'GET /readyz')![1];
    if (ready !== 'no answer') expect(ready.body).toMatchObject({ ok: false, checks: { redis: false } });

    // Redis returns on the same port; the web process was never restarted.
    await redis.start();
    await expect.poll(async () => (await request(web).get('/readyz').timeout(CLIENT_TIMEOUT_MS)).status, { timeout: 15_000, interval: 200 }).toBe(200);
    await expectServedAgain(agent, page, step);
    const fresh = await answer('GET /onboarding (no cookie, after)', request(web).get('/onboarding'));
    expect(fresh !== 'no answer' && fresh.status).toBe(200);
    const posted = await answer(
      'POST customer type (after)',
      request.agent(web).post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'corporate' }),
    );
    expect(posted !== 'no answer' && posted.status).toBe(303);
  });
});
