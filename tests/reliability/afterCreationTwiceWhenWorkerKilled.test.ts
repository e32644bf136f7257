// After creation exactly once per run, even when the worker is killed or the page is open in two tabs: a worker killed
// during the last poll leaves the job to BullMQ's stalled-job re-run, which runs after creation again
// (workers/afterCreation.ts); the tracking claim and the calls' Idempotency-Keys keep it to one tracking event, one
// login session, one lead number. Separate web, worker and sandbox processes on Redis, as in production.
import { readFileSync, existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createClient, type RedisClientType } from 'redis';
import { REDIS_URL, startRedisStack, type Stack } from '../support/stack.ts';
import { signOverHttp } from '../support/customerInformation.ts';
import type { CreationState } from '../../shared/creationOutcome.ts';

const PREFIX = `test-afterkill-${randomUUID().slice(0, 8)}`;
const SUCCESS_URL_SE = 'https://se.bank.example/welcome';
/** The bank's site the success URL is on: Continue hands the login over at its hand-off address. */
const BANK_SITE_URL = 'https://se.bank.example';
let stack: Stack;
let redis: RedisClientType;

beforeAll(async () => {
  stack = await startRedisStack({ REDIS_PREFIX: PREFIX, SUCCESS_URL_SE, BANK_SITE_URL, BANK_SITE_HANDOFF_PATH: '/login/handoff' });
  redis = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
  await redis.connect();
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await redis?.quit();
}, 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, pred: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(25);
  }
}

async function latest(prospectId: string): Promise<CreationState | null> {
  const raw = await redis.get(`${PREFIX}:creation:${prospectId}:latest`);
  return raw ? (JSON.parse(raw) as { state: CreationState }).state : null;
}

/** The worker processes' log lines (both workers write the stack's one worker log) with message `msg`, since `since`. */
function workerLogLines(msg: string, since: number): Array<Record<string, unknown>> {
  const file = `test-results/worker-${new URL(stack.webUrl).port}.log`;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg && Number(l.time) >= since);
}

describe('the actions when polling stops, with the worker killed during the last poll and the page open in two tabs', () => {
  it('give exactly one tracking event, one login session and one lead number', async () => {
    const startedAt = Date.now();
    const { agent, prospectId } = await signOverHttp(stack.webUrl, stack.sandboxUrl, 'onboarding');

    // The login session answers late (it still completes upstream, as a slow brokerage does): the worker is killed
    // while it waits, after the affiliate conversion has given the lead number.
    await request(stack.sandboxUrl)
      .post('/sandbox/faults')
      .send({ method: 'POST', path: '/api/2/authentication/nnx-session/login', delayMs: 1500, count: 1 })
      .expect(204);
    const creation = `/onboarding/customer-creation/${encodeURIComponent(prospectId)}`;
    // Two tabs of the same session open the page: one run starts.
    await Promise.all([agent.get(creation).expect(200), agent.get(creation).expect(200)]);
    const leadKey = `${PREFIX}:creation:${prospectId}:lead-number`;
    await until('the lead number kept (the last poll is at its login session)', async () => (await redis.exists(leadKey)) === 1, 30_000);
    // The login session's call is on its way (the sandbox holds it 1.5 s): the worker dies waiting for it.
    await sleep(300);
    await stack.killWorker();
    expect((await latest(prospectId))?.outcome).toBe('queued');
    // The late login session completes upstream; then a new worker re-runs the stalled poll, whose login session call
    // (the same attempt, so the same Idempotency-Key) gets the first call's answer and starts no second session.
    await sleep(2000);
    await stack.startWorker();
    await until('the final state', async () => (await latest(prospectId))?.outcome === 'done', 60_000);
    // A late duplicate (another re-run) would come within a few lock periods.
    await sleep(3000);

    // Both tabs show the outcome; Continue finds the login session there and goes to the market's success URL.
    const [one, two] = await Promise.all([agent.get(creation).expect(200), agent.get(creation).expect(200)]);
    for (const tab of [one, two]) expect(tab.text).toContain('Agreements signed');
    const continued = new URL(
      (await agent.post(`${creation}/continue`).set('sec-fetch-site', 'same-origin').type('form').send('').expect(303)).headers.location as string,
    );
    expect(`${continued.origin}${continued.pathname}?returnTo=${continued.searchParams.get('returnTo')}`).toBe(
      `${BANK_SITE_URL}/login/handoff?returnTo=/welcome`,
    );
    expect(continued.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{32,}$/);

    const afterCreation = (await request(stack.sandboxUrl).get('/sandbox/after-creation').query({ prospectId }).expect(200)).body as {
      loginSessions: number;
      leadNumbers: string[];
    };
    expect(afterCreation.loginSessions).toBe(1);
    expect(afterCreation.leadNumbers).toHaveLength(1);
    // The lead number is kept with the application, and is the brokerage's one.
    expect(await redis.get(leadKey)).toBe(afterCreation.leadNumbers[0]);
    // One tracking event: one claim for the run, one log line (this stack's only run), without the lead number.
    expect(await redis.exists(`${PREFIX}:creation:${prospectId}:tracked:1`)).toBe(1);
    const tracked = workerLogLines('creation outcome tracked', startedAt);
    expect(tracked).toHaveLength(1);
    expect(tracked[0]).toMatchObject({ event: 'customerCreationOutcome', outcome: 'done', market: 'SE', mode: 'web' });
    expect(tracked[0]!.secondsSinceSigning).toBeTypeOf('number');
    const file = readFileSync(`test-results/worker-${new URL(stack.webUrl).port}.log`, 'utf8');
    expect(file).not.toContain(afterCreation.leadNumbers[0]);
  }, 180_000);
});
