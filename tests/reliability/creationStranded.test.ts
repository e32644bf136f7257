// A signed customer could be stranded. The creation job carried only
// the 30-minute access token (in clear text, in the job data in Redis): when it expired mid-poll the
// outcome was the generic error, and Try again failed at once with the same token. Production shape:
// separate web, worker and sandbox processes on Redis; prospects driven over HTTP up to the signature.
import { readFileSync, existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createClient, type RedisClientType } from 'redis';
import { REDIS_URL, startRedisStack, type Stack } from '../support/stack.ts';
import { bullmqJobKey } from '../support/redisKeys.ts';
import type { Persona } from '../support/journey.ts';
import { signOverHttp } from '../support/customerInformation.ts';
import { isFinal, type CreationOutcome, type CreationState } from '../../shared/creationOutcome.ts';
import { sessionTokensOf } from '../support/sandboxApi.ts';

type Agent = ReturnType<typeof request.agent>;

const PREFIX = `test-stranded-${randomUUID().slice(0, 8)}`;
let stack: Stack;
let redis: RedisClientType;
let subscriber: RedisClientType;
/** Every creation event the worker published, per prospect, in order (Redis pub/sub, as the web hears them). */
const published = new Map<string, CreationState[]>();

beforeAll(async () => {
  stack = await startRedisStack({
    REDIS_PREFIX: PREFIX,
    // Long enough to act while a creationSlow persona polls (8 queued polls), short enough for a fast test.
    CREATION_POLL_MS: '600',
    // Twenty-odd identifications from one address within a minute (the limit is another item's concern).
    BANKID_STARTS_PER_IP_PER_MINUTE: '1000',
  });
  redis = createClient({ url: REDIS_URL }) as unknown as RedisClientType;
  await redis.connect();
  subscriber = redis.duplicate() as RedisClientType;
  await subscriber.connect();
  await subscriber.pSubscribe(`${PREFIX}:creation:*:events`, (message) => {
    const { state } = JSON.parse(message) as { state: CreationState };
    published.set(state.prospectId, [...(published.get(state.prospectId) ?? []), state]);
  });
});

afterAll(async () => {
  await subscriber?.quit();
  await stack?.stop();
  if (redis?.isOpen) {
    for await (const keys of redis.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 500 })) if (keys.length) await redis.del(keys);
    await redis.quit();
  }
});

const sameOrigin = { 'sec-fetch-site': 'same-origin' };
const creationPage = (prospectId: string) => `/onboarding/customer-creation/${encodeURIComponent(prospectId)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Identifies as the scenario's persona, answers every step and signs: the next stop is the creation page.
 * `identified` lets several prospects identify one after another (the helper picks the newest BankID
 * order) and walk their steps side by side.
 */
async function signedProspect(
  scenario: string,
  identified?: (ready: Promise<unknown>) => void,
): Promise<{ agent: Agent; prospectId: string; persona: Persona }> {
  const { agent, prospectId, persona } = await signOverHttp(stack.webUrl, stack.sandboxUrl, scenario, identified);
  return { agent, prospectId, persona };
}

/** `count` signed prospects of the scenario: identifications one at a time, the rest side by side. */
async function signedProspects(scenario: string, count: number): Promise<Array<Awaited<ReturnType<typeof signedProspect>>>> {
  const walks: Array<Promise<Awaited<ReturnType<typeof signedProspect>>>> = [];
  for (let i = 0; i < count; i++) {
    let ready: Promise<unknown> = Promise.resolve();
    walks.push(
      signedProspect(scenario, (r) => {
        ready = r;
      }),
    );
    await ready;
  }
  return Promise.all(walks);
}

async function latest(prospectId: string): Promise<CreationState | null> {
  const raw = await redis.get(`${PREFIX}:creation:${prospectId}:latest`);
  return raw ? (JSON.parse(raw) as { state: CreationState }).state : null;
}

const finals = (prospectId: string, runId?: string): CreationOutcome[] =>
  (published.get(prospectId) ?? []).filter((s) => isFinal(s.outcome) && (runId === undefined || s.runId === runId)).map((s) => s.outcome);

async function until(what: string, pred: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

async function expireTokens(persona: Persona): Promise<number> {
  return ((await request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId: persona.nationalId }).expect(200)).body as { expired: number })
    .expired;
}

/** The BullMQ job hashes under the stack's prefix: what a job's data holds in Redis. */
async function jobData(): Promise<string[]> {
  const data: string[] = [];
  for await (const keys of redis.scanIterator({ MATCH: bullmqJobKey(PREFIX, 'creation-*'), COUNT: 500 })) {
    for (const key of keys) if ((await redis.type(key)) === 'hash') data.push((await redis.hGet(key, 'data')) ?? '');
  }
  return data;
}

async function credentialKeys(): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of redis.scanIterator({ MATCH: `${PREFIX}:creation-credentials:*`, COUNT: 500 })) found.push(...keys);
  return found;
}

/**
 * Job data, the sealed credentials and the web and worker logs hold none of the person's tokens. While runs poll
 * their next jobs wait in Redis; once they have ended none is left (creation jobs are removed as they end).
 */
async function expectNoTokenInClear(persona: Persona, runs: 'polling' | 'ended'): Promise<void> {
  const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
  expect(tokens.length).toBeGreaterThan(0);
  const jobs = await jobData();
  if (runs === 'polling') expect(jobs.length).toBeGreaterThan(0);
  else expect(jobs).toEqual([]);
  for (const data of jobs) {
    // Ids and the run facts (market, webview mode, when signing returned), a poll's grid (when the run's polls
    // started) and the creationPaused flag the run last read from the system status: nothing personal.
    const job = JSON.parse(data) as { phase: string };
    const grid = job.phase === 'poll' ? ['pollsFrom'] : [];
    const keys = Object.keys(job).filter((key) => key !== 'creationPaused');
    expect(keys.sort()).toEqual(['attempt', 'market', 'phase', ...grid, 'prospectId', 'runId', 'signedAt', 'webview'].sort());
    for (const token of tokens) expect(data).not.toContain(token);
  }
  for (const key of await credentialKeys()) {
    const sealed = (await redis.get(key)) ?? '';
    for (const token of tokens) expect(sealed).not.toContain(token);
  }
  const port = new URL(stack.webUrl).port;
  for (const role of ['web', 'worker']) {
    const file = `test-results/${role}-${port}.log`;
    if (!existsSync(file)) continue;
    const log = readFileSync(file, 'utf8');
    for (const token of tokens) expect(log, `${role} log`).not.toContain(token);
  }
}

describe('A signed customer can be stranded: access token expires mid-poll', () => {
  it('a run whose access token expires while polling still reaches its real outcome (done), and no token is in clear text', async () => {
    const { agent, prospectId, persona } = await signedProspect('creationSlow');
    await agent.get(creationPage(prospectId)).expect(200);
    await until('polling', async () => ((await latest(prospectId))?.attempt ?? 0) >= 1, 20_000);
    expect(isFinal((await latest(prospectId))!.outcome)).toBe(false);
    await expectNoTokenInClear(persona, 'polling');
    // The 30 minutes are over while the worker polls.
    expect(await expireTokens(persona)).toBeGreaterThan(0);
    await until('final outcome', () => finals(prospectId).length > 0, 30_000);
    await sleep(1000);
    expect(finals(prospectId)).toEqual(['done']);
    expect((await agent.get(creationPage(prospectId)).expect(200)).text).toContain('Agreements signed');
    await expectNoTokenInClear(persona, 'ended');
    // The run has ended: its credentials are gone from Redis.
    expect(await credentialKeys()).toEqual([]);
  });

  it('Try again after an error works with a fresh token', async () => {
    const { agent, prospectId, persona } = await signedProspect('onboarding');
    // The initial status check fails once: run 1 ends with the generic error.
    await request(stack.sandboxUrl)
      .post('/sandbox/faults')
      .send({ method: 'GET', path: '/api/2/customers/creation_status', status: 500, count: 1 })
      .expect(204);
    await agent.get(creationPage(prospectId)).expect(200);
    await until('run 1 outcome', () => finals(prospectId, '1').length > 0, 20_000);
    expect(finals(prospectId, '1')).toEqual(['unspecifiedApiResponseError']);
    const errorPage = (await agent.get(creationPage(prospectId)).expect(200)).text;
    expect(errorPage).toContain('Something went wrong');
    // Time passes on the error screen: the session's access token expires before the person presses Try again.
    expect(await expireTokens(persona)).toBeGreaterThan(0);
    // The error screen's Try again posts the run it retries.
    const tryAgain = /<form class="actions" action="([^"]+)" method="post">/.exec(errorPage)?.[1];
    expect(tryAgain).toBe(`${creationPage(prospectId)}/retry?run=1`);
    await agent.post(tryAgain!).set(sameOrigin).type('form').send('').expect(303).expect('location', creationPage(prospectId));
    await until('run 2 outcome', () => finals(prospectId, '2').length > 0, 20_000);
    expect(finals(prospectId, '2')).toEqual(['done']);
    expect((await agent.get(creationPage(prospectId)).expect(200)).text).toContain('Agreements signed');
    await expectNoTokenInClear(persona, 'ended');
    expect(await credentialKeys()).toEqual([]);
  });
});

describe('A signed customer can be stranded: worker killed and tokens expired while 20 creations poll', () => {
  it('20 of 20 reach their outcome exactly once', async () => {
    const count = 20;
    const prospects = await signedProspects('creationSlow', count);
    const persona = prospects[0]!.persona;
    const ids = prospects.map((p) => p.prospectId);
    expect(new Set(ids).size).toBe(count);

    // All twenty land on the creation page together: twenty runs start.
    await Promise.all(prospects.map((p) => p.agent.get(creationPage(p.prospectId)).expect(200)));
    await until('all polling', async () => (await Promise.all(ids.map(latest))).every((s) => (s?.attempt ?? 0) >= 1), 20_000);
    // Mid-poll: the access tokens expire while the worker runs, and every run polls once more (renewing its
    // token); then the worker dies (no graceful shutdown) and the renewed tokens expire too. Nobody has an
    // outcome yet.
    await expireTokens(persona);
    const atExpiry = await Promise.all(ids.map(latest));
    await until('a poll after the expiry', async () => (await Promise.all(ids.map(latest))).every((s, i) => s!.attempt > atExpiry[i]!.attempt), 10_000);
    await stack.killWorker();
    const atKill = await Promise.all(ids.map(latest));
    expect(atKill.filter((s) => s && isFinal(s.outcome))).toEqual([]);
    await expectNoTokenInClear(persona, 'polling');
    await expireTokens(persona);
    await sleep(1000);
    await stack.startWorker();

    await until('20 outcomes', () => ids.every((id) => finals(id).length > 0), 45_000);
    // Late duplicates (a stalled job re-run) would arrive within a few polls.
    await sleep(2000);
    // How many prospects ended how, and how many final events each got.
    const tally = (values: string[]) => values.reduce<Record<string, number>>((t, v) => ({ ...t, [v]: (t[v] ?? 0) + 1 }), {});
    expect(tally(ids.flatMap((id) => finals(id)))).toEqual({ done: count });
    expect(tally(ids.map((id) => `${finals(id).length} final event(s)`))).toEqual({ '1 final event(s)': count });
    await expectNoTokenInClear(persona, 'ended');
    expect(await credentialKeys()).toEqual([]);
  }, 120_000);
});
