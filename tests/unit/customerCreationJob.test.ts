import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import { UpstreamError } from '../../server/upstream/http.ts';
import { createMemoryQueue, JOB_ATTEMPTS, type CustomerCreationJob, type MemoryJobQueue } from '../../server/infra/jobQueue.ts';
import { createMemoryCreationEvents, type CreationEvent, type CreationEvents } from '../../server/infra/creationEvents.ts';
import { createMemoryLoginHandoffs } from '../../server/infra/loginHandoffs.ts';
import { createMemoryCreationCredentials, type CreationCredentials } from '../../server/infra/creationCredentials.ts';
import { enqueueCustomerCreation } from '../../server/infra/creationJobs.ts';
import { creationJobId, isOlderRun } from '../../shared/creationJobContract.ts';
import { createMemoryAfterCreationRecords } from '../../server/infra/afterCreationRecords.ts';
import { createCustomerCreationJob } from '../../workers/customerCreationJob.ts';
import { done, fakeBrokerage, PROSPECT, REFRESH, st, uninitiated } from '../support/creationJobFakes.ts';

let queue: MemoryJobQueue;
let events: CreationEvents;
let credentials: ReturnType<typeof createMemoryCreationCredentials>;
let logLines: string[];
let secrets: string[];

function setup(fake: ReturnType<typeof fakeBrokerage>, opts: { pollIntervalMs?: number; maxPollingTries?: number; systemStatusShareMs?: number } = {}) {
  queue = createMemoryQueue({ backoffMs: 1 });
  events = createMemoryCreationEvents();
  credentials = createMemoryCreationCredentials({ key: randomBytes(32) });
  logLines = [];
  secrets = fake.issued;
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(String(chunk));
      cb();
    },
  });
  const logger = pino({ level: 'trace' }, sink);
  const job = createCustomerCreationJob({
    brokerage: fake.brokerage,
    credentials,
    events,
    records: createMemoryAfterCreationRecords(),
    loginHandoffs: createMemoryLoginHandoffs({ key: randomBytes(32) }),
    queue,
    logger,
    pollIntervalMs: opts.pollIntervalMs ?? 5,
    maxPollingTries: opts.maxPollingTries ?? 45,
    systemStatusShareMs: opts.systemStatusShareMs,
  });
  queue.runner.start({ customerCreation: job });
  const seen: CreationEvent[] = [];
  void events.subscribe(PROSPECT, (e) => seen.push(e));
  return { job, seen };
}

async function run(runId = '1', handedOver: CreationCredentials = { refreshToken: REFRESH }) {
  await enqueueCustomerCreation({ queue, credentials }, { prospectId: PROSPECT, runId, credentials: handedOver });
  await queue.runner.idle();
}

const outcomes = (seen: CreationEvent[]) => seen.map((e) => `${e.state.outcome}@${e.state.attempt}`);

afterEach(async () => {
  await queue?.close();
  await events?.close();
  // No token is a log field: neither the refresh token nor any access token the worker bought.
  const logged = logLines.join('');
  for (const secret of [REFRESH, ...secrets]) expect(logged).not.toContain(secret);
});

describe('customer creation job', () => {
  it('does not post when the initial status is already done, and polls to done', async () => {
    const fake = fakeBrokerage({ initial: done, polls: [done] });
    const { seen } = setup(fake);
    await run();
    expect(fake.calls.createCustomer).toBe(0);
    expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
    // The run began with a fresh access token bought with the handed-over refresh token, and kept it.
    expect(fake.calls.refreshToken).toBe(1);
    expect(fake.calls.jwts).toEqual(new Set(fake.issued));
  });

  it('does not post when creation has started', async () => {
    const fake = fakeBrokerage({ initial: st(), polls: [done] });
    const { seen } = setup(fake);
    await run();
    expect(fake.calls.createCustomer).toBe(0);
    expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
  });

  it('shows the generic error when the creation request fails, and stops', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done], post: { ok: false, status: 400 } });
    const { seen } = setup(fake);
    await run();
    expect(fake.calls.createCustomer).toBe(1);
    expect(fake.calls.creationStatus).toBe(1);
    expect(outcomes(seen)).toEqual(['unspecifiedApiResponseError@0']);
  });

  it('shows the generic error when the initial status check answers an error', async () => {
    const fake = fakeBrokerage({ initial: { httpStatus: 500, body: null }, polls: [done] });
    const { seen } = setup(fake);
    await run();
    expect(fake.calls.createCustomer).toBe(0);
    expect(outcomes(seen)).toEqual(['unspecifiedApiResponseError@0']);
  });

  it('posts, then polls every interval until done', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), st(), st(), done] });
    const { seen } = setup(fake, { pollIntervalMs: 30 });
    const started = Date.now();
    await run();
    expect(fake.calls.createCustomer).toBe(1);
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'queued@2', 'queued@3', 'done@4']);
    expect(fake.calls.systemStatus).toBe(4);
    // Poll k no earlier than k intervals after the run began (on the run's grid: tests/unit/creationPollGrid.test.ts).
    fake.calls.pollTimes.forEach((at, i) => expect(at - started, `poll ${i + 1}`).toBeGreaterThanOrEqual((i + 1) * 30 - 2));
    expect(seen.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('decides with the creation-paused flag of the system status', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st()], paused: true });
    const { seen } = setup(fake);
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'creationPaused@1']);
  });

  it('a failing system status never fails the run: a poll decides with the status this run last read, or none', async () => {
    const down = new UpstreamError('brokerage', 503, undefined, 'brokerage answered 503');
    // Never read: not paused, so the run goes on to done.
    const never = fakeBrokerage({ initial: uninitiated, polls: [st(), st(), done], systemStatuses: [down] });
    const first = setup(never);
    await run();
    expect(outcomes(first.seen)).toEqual(['queued@0', 'queued@1', 'queued@2', 'done@3']);
    expect(never.calls.creationStatus).toBe(1 + 3);

    // Read as paused while no request was queued, then failing: the queued request meets the paused status it last read (rule 3).
    const processing = st({ creation_requests: [{ request_type: 'create_customer', status: 'processing' }] });
    const lastPaused = fakeBrokerage({ initial: uninitiated, polls: [processing, st()], systemStatuses: [true, down] });
    await queue.close();
    const second = setup(lastPaused);
    await run();
    expect(outcomes(second.seen)).toEqual(['queued@0', 'queued@1', 'creationPaused@2']);
    expect(logLines.join('')).toContain('system status failed; the poll decides with the last known status');
  });

  it('a reading of the system status serves the polls of its share time: one brokerage call per poll', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), st(), done], paused: false });
    const { seen } = setup(fake, { systemStatusShareMs: 60_000 });
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'queued@2', 'done@3']);
    expect(fake.calls.systemStatus).toBe(1);
    expect(fake.calls.creationStatus).toBe(1 + 3);
  });

  it('a shared reading that failed serves as unknown: each poll decides with its last known status', async () => {
    const down = new UpstreamError('brokerage', 503, undefined, 'brokerage answered 503');
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), st(), done], systemStatuses: [down] });
    const { seen } = setup(fake, { systemStatusShareMs: 60_000 });
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'queued@2', 'done@3']);
    expect(fake.calls.systemStatus).toBe(1);
    expect(logLines.filter((l) => l.includes('system status failed; the poll decides with the last known status'))).toHaveLength(3);
  });

  it('stops with maxPollingTries on the 45th attempt, and a new run polls afresh', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st()] });
    const { seen } = setup(fake, { pollIntervalMs: 1 });
    await run('1');
    expect(fake.calls.creationStatus).toBe(1 + 45);
    expect(seen.at(-1)?.state).toMatchObject({ outcome: 'maxPollingTries', attempt: 45 });
    expect(seen.filter((e) => e.state.outcome === 'queued')).toHaveLength(45); // attempt 0..44

    // "Try again" restarts polling with a new run id: fresh job ids, so not deduplicated.
    fake.calls.creationStatus = 1;
    await run('2');
    expect(seen.at(-1)?.state).toMatchObject({ outcome: 'maxPollingTries', attempt: 45 });
    expect(seen.filter((e) => e.state.outcome === 'maxPollingTries')).toHaveLength(2);
  });

  it('retries a thrown (transient) error and records the generic error after the last try', async () => {
    const down = new UpstreamError('brokerage', 0, undefined, 'brokerage unreachable');
    const fake = fakeBrokerage({ initial: uninitiated, polls: [down, st(), done] });
    const { seen } = setup(fake);
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'done@2']);

    const always = fakeBrokerage({ initial: uninitiated, polls: [down] });
    await queue.close();
    const second = setup(always);
    await run();
    expect(always.calls.creationStatus).toBe(1 + 5);
    expect(outcomes(second.seen)).toEqual(['queued@0', 'unspecifiedApiResponseError@1']);
  });

  it('is idempotent when a job runs again (a stalled job re-run, or a step added again after its job was removed)', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), st(), done] });
    const { job, seen } = setup(fake, { pollIntervalMs: 10_000 });
    const start: CustomerCreationJob = { prospectId: PROSPECT, runId: '1', phase: 'start', attempt: 0 };
    await credentials.put(PROSPECT, '1', { refreshToken: REFRESH });
    const ctx = { jobId: creationJobId(PROSPECT, '1', 'start'), attempt: 1, finalAttempt: false };
    const added: string[] = [];
    const add = queue.add.bind(queue);
    queue.add = async (name, data, opts) => {
      added.push(opts?.jobId ?? '');
      await add(name, data, opts);
    };

    await job(start, ctx);
    // A re-run after the start published: it neither calls the brokerage nor republishes.
    fake.calls.creationStatus = 0;
    await job(start, ctx);
    expect(fake.calls.createCustomer).toBe(1);
    expect(fake.calls.creationStatus).toBe(0);
    expect(outcomes(seen)).toEqual(['queued@0']);
    expect(seen[0]!.id).toBe(1);

    // The first poll runs twice: the second run does nothing at all.
    (fake.brokerage as { creationStatus: unknown }).creationStatus = async () => {
      fake.calls.creationStatus++;
      return st();
    };
    const poll1: CustomerCreationJob = { ...start, phase: 'poll', attempt: 1 };
    await job(poll1, ctx);
    await job(poll1, ctx);
    expect(fake.calls.creationStatus).toBe(1);
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1']);

    // A poll the run has moved past does nothing at all.
    const poll2: CustomerCreationJob = { ...start, phase: 'poll', attempt: 2 };
    await job(poll2, ctx);
    (fake.brokerage as { creationStatus: unknown }).creationStatus = async () => done;
    await job({ ...start, phase: 'poll', attempt: 3 }, ctx);
    await job(poll2, ctx);
    await job({ ...start, phase: 'poll', attempt: 3 }, ctx);
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'queued@2', 'done@3']);

    // Each next step is added once: the queue keeps no finished creation job to deduplicate a second add
    // (server/infra/jobQueue.ts KEPT_AFTER_THE_END), so a re-run that added it again could start a second chain.
    expect(added).toEqual(['creation-prospect-123-1-poll-1', 'creation-prospect-123-1-poll-2', 'creation-prospect-123-1-poll-3']);
  });

  it('a worker that dies between adding the next poll and publishing leaves a re-run that polls again and adds the same next poll', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), st()] });
    const { job, seen } = setup(fake, { pollIntervalMs: 10_000 });
    await credentials.put(PROSPECT, '1', { refreshToken: REFRESH });
    const ctx = { jobId: creationJobId(PROSPECT, '1', 1), attempt: 1, finalAttempt: false };
    await job({ prospectId: PROSPECT, runId: '1', phase: 'start', attempt: 0 }, ctx);
    const added: string[] = [];
    const add = queue.add.bind(queue);
    queue.add = async (name, data, opts) => {
      added.push(opts?.jobId ?? '');
      await add(name, data, opts);
      // Killed right after the add: nothing of this try is published.
      if (added.length === 1) throw new Error('worker killed');
    };
    const poll1: CustomerCreationJob = { prospectId: PROSPECT, runId: '1', phase: 'poll', attempt: 1 };
    await expect(job(poll1, ctx)).rejects.toThrow('worker killed');
    expect(outcomes(seen)).toEqual(['queued@0']);
    await job(poll1, ctx);
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1']);
    expect(added).toEqual(['creation-prospect-123-1-poll-2', 'creation-prospect-123-1-poll-2']);
  });

  it('renews an access token that expires mid-poll once, retries the calls, and reaches the real outcome', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), st(), st(), done] });
    const { seen } = setup(fake);
    let polls = 0;
    const unsubscribe = await events.subscribe(PROSPECT, (e) => {
      // After the second poll the 30 minutes are over: both calls of the next poll are answered 401.
      if (e.state.outcome === 'queued' && ++polls === 3) fake.expireTokens();
    });
    await run();
    await unsubscribe();
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'queued@2', 'queued@3', 'done@4']);
    // One refresh to begin the run, one after the expiry, shared by the two calls running side by side.
    expect(fake.calls.refreshToken).toBe(2);
    expect(fake.calls.unauthorized).toBe(2);
    // The renewed token was kept for the later polls; the run's credentials are gone once it ended.
    expect(fake.calls.jwts).toEqual(new Set(fake.issued));
    expect(credentials.size()).toBe(0);
  });

  it('uses a handed-over access token until it is refused, then refreshes', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), done] });
    const { seen } = setup(fake);
    await run('1', { refreshToken: REFRESH, accessToken: 'expired-or-unknown-token' });
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'done@2']);
    expect(fake.calls.refreshToken).toBe(1);
  });

  it.each([
    { name: 'the refresh token is refused (the brokerage session has ended)', handedOver: { refreshToken: REFRESH }, refuse: true },
    { name: 'there is no refresh token and the access token is refused', handedOver: { accessToken: 'expired-token' }, refuse: false },
  ])('ends with the generic error, without retries, when $name', async ({ handedOver, refuse }) => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done] });
    if (refuse) fake.refuseRefresh();
    const { seen } = setup(fake);
    await run('1', handedOver);
    expect(outcomes(seen)).toEqual(['unspecifiedApiResponseError@0']);
    expect(fake.calls.refreshToken).toBe(refuse ? 1 : 0);
    expect(credentials.size()).toBe(0);
  });

  it.each([429, 408, 503, 0])(
    'a refresh answered %i (throttled, timed out, down) is no ended session: the queue tries the step again and the run goes on',
    async (status) => {
      const fake = fakeBrokerage({ initial: uninitiated, polls: [done] });
      const refresh = fake.brokerage.refreshToken;
      let failed = 0;
      fake.brokerage.refreshToken = async (token: string) => {
        if (failed++ === 0) throw new UpstreamError('brokerage', status, undefined, `brokerage answered ${status}`);
        return refresh(token);
      };
      const { seen } = setup(fake);
      await run();
      expect(failed).toBe(2);
      expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
    },
  );

  it('a call still refused after the refresh ends in the generic error, with one refresh per try', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), done] });
    const { seen } = setup(fake);
    const refresh = fake.brokerage.refreshToken;
    let refreshes = 0;
    // From the first poll on, every token the brokerage hands out is already expired.
    fake.brokerage.refreshToken = async (token: string) => {
      const answer = await refresh(token);
      if (++refreshes > 1) fake.expireTokens();
      return answer;
    };
    const unsubscribe = await events.subscribe(PROSPECT, () => fake.expireTokens());
    await run();
    await unsubscribe();
    expect(outcomes(seen)).toEqual(['queued@0', 'unspecifiedApiResponseError@1']);
    // One refresh to begin the run, then one per try of the refused poll (a 401 is retried once per try).
    expect(refreshes).toBe(1 + JOB_ATTEMPTS);
    expect(credentials.size()).toBe(0);
  });

  it('without credentials for the run (lapsed, or sealed under another key) the run ends with the generic error', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done] });
    const { job, seen } = setup(fake);
    await job({ prospectId: PROSPECT, runId: '1', phase: 'start', attempt: 0 }, { jobId: 'j', attempt: 1, finalAttempt: false });
    expect(outcomes(seen)).toEqual(['unspecifiedApiResponseError@0']);
    expect(fake.calls.creationStatus).toBe(0);
  });

  it("removes the run's credentials when a step fails for good", async () => {
    const down = new UpstreamError('brokerage', 0, undefined, 'brokerage unreachable');
    const fake = fakeBrokerage({ initial: uninitiated, polls: [down] });
    const { seen } = setup(fake);
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'unspecifiedApiResponseError@1']);
    expect(credentials.size()).toBe(0);
  });

  it("Try again after an error starts a new run with fresh credentials, and the old run's late jobs stay out of it", async () => {
    const fake = fakeBrokerage({ initial: { httpStatus: 500, body: null }, polls: [st(), done] });
    const { job, seen } = setup(fake);
    await run('1');
    expect(outcomes(seen)).toEqual(['unspecifiedApiResponseError@0']);
    // Meanwhile every access token has expired; the new run's credentials are what the web hands over.
    fake.expireTokens();
    (fake.brokerage as { creationStatus: unknown }).creationStatus = async (jwt: string) =>
      fake.issued.at(-1) === jwt ? (fake.calls.creationStatus++ === 1 ? uninitiated : done) : { httpStatus: 401, body: null };
    await run('2');
    expect(outcomes(seen).slice(1)).toEqual(['queued@0', 'done@1']);
    expect(seen.slice(1).every((e) => e.state.runId === '2')).toBe(true);
    // A late poll of run 1 (a stalled re-run) neither publishes nor calls the brokerage.
    const before = fake.calls.jwts.size;
    await credentials.put(PROSPECT, '1', { refreshToken: REFRESH });
    await job({ prospectId: PROSPECT, runId: '1', phase: 'poll', attempt: 7 }, { jobId: 'late', attempt: 1, finalAttempt: false });
    await job({ prospectId: PROSPECT, runId: '1', phase: 'start', attempt: 0 }, { jobId: 'late-start', attempt: 1, finalAttempt: false });
    expect(outcomes(seen).slice(1)).toEqual(['queued@0', 'done@1']);
    expect(fake.calls.jwts.size).toBe(before);
    expect(credentials.size()).toBe(0);
  });
});

describe('isOlderRun', () => {
  it.each([
    ['1', '2', true],
    ['2', '1', false],
    ['2', '2', false],
    ['9', '10', true],
    ['1', undefined, false],
    [undefined, '1', false],
    ['a', 'b', false],
    ['', '1', false],
  ] as const)('%s older than %s: %s', (a, b, older) => {
    expect(isOlderRun(a, b)).toBe(older);
  });
});
