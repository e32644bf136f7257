import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { CreationStatus } from '../../shared/contracts/brokerage.ts';
import { UpstreamError } from '../../server/upstream/http.ts';
import { createMemoryQueue, type CustomerCreationJob, type MemoryJobQueue } from '../../server/infra/jobQueue.ts';
import { createMemoryCreationEvents, type CreationEvent, type CreationEvents } from '../../server/infra/creationEvents.ts';
import { createCustomerCreationJob, creationJobId, enqueueCustomerCreation } from '../../workers/customerCreation.ts';

const JWT = 'secret-jwt-value-never-logged';
const PROSPECT = 'prospect-123';

type StatusAnswer = { httpStatus: number; body: CreationStatus | null };
const st = (over: Partial<CreationStatus> = {}): StatusAnswer => ({
  httpStatus: 200,
  body: { done: false, creation_process_status: 'customer_creation_started', nightly_downtime: false, creation_requests: [{ request_type: 'create_customer', status: 'queued' }], ...over },
});
const uninitiated = st({ creation_process_status: 'uninitiated', creation_requests: [] });
const done = st({ done: true, creation_process_status: 'customer_creation_done', creation_requests: [{ request_type: 'create_customer', status: 'done' }] });

/** Scripted brokerage: the first creation status is the initial check, then one answer per poll (the last repeats). */
function fakeBrokerage(script: { initial: StatusAnswer; polls: Array<StatusAnswer | Error>; post?: { ok: boolean; status: number }; paused?: boolean }) {
  const calls = { createCustomer: 0, creationStatus: 0, systemStatus: 0, pollTimes: [] as number[], jwts: new Set<string>() };
  let polled = 0;
  return {
    calls,
    brokerage: {
      async createCustomer(jwt: string, _prospectId: string) {
        calls.jwts.add(jwt);
        calls.createCustomer++;
        return script.post ?? { ok: true, status: 200 };
      },
      async creationStatus(jwt: string, _prospectId: string) {
        calls.jwts.add(jwt);
        calls.creationStatus++;
        if (calls.creationStatus === 1) return script.initial;
        calls.pollTimes.push(Date.now());
        const answer = script.polls[Math.min(polled++, script.polls.length - 1)]!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      async systemStatus(jwt: string) {
        calls.jwts.add(jwt);
        calls.systemStatus++;
        return { creationPaused: script.paused ?? false, feedbackBanner: null };
      },
    },
  };
}

let queue: MemoryJobQueue;
let events: CreationEvents;
let logLines: string[];

function setup(brokerage: ReturnType<typeof fakeBrokerage>['brokerage'], opts: { pollIntervalMs?: number; maxPollingTries?: number } = {}) {
  queue = createMemoryQueue({ backoffMs: 1 });
  events = createMemoryCreationEvents();
  logLines = [];
  const sink = new Writable({ write(chunk, _enc, cb) { logLines.push(String(chunk)); cb(); } });
  const logger = pino({ level: 'trace' }, sink);
  const job = createCustomerCreationJob({
    brokerage,
    events,
    queue,
    logger,
    pollIntervalMs: opts.pollIntervalMs ?? 5,
    maxPollingTries: opts.maxPollingTries ?? 45,
  });
  queue.runner.start({ customerCreation: job });
  const seen: CreationEvent[] = [];
  void events.subscribe(PROSPECT, (e) => seen.push(e));
  return { job, seen };
}

async function run(runId = '1') {
  await enqueueCustomerCreation(queue, { prospectId: PROSPECT, jwt: JWT, runId });
  await queue.runner.idle();
}

const outcomes = (seen: CreationEvent[]) => seen.map((e) => `${e.state.outcome}@${e.state.attempt}`);

afterEach(async () => {
  await queue?.close();
  await events?.close();
  // The access token is job data, never a log field.
  expect(logLines.join('')).not.toContain(JWT);
});

describe('customer creation job', () => {
  it('does not post when the initial status is already done, and polls to done', async () => {
    const fake = fakeBrokerage({ initial: done, polls: [done] });
    const { seen } = setup(fake.brokerage);
    await run();
    expect(fake.calls.createCustomer).toBe(0);
    expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
    expect(fake.calls.jwts).toEqual(new Set([JWT]));
  });

  it('does not post when creation has started', async () => {
    const fake = fakeBrokerage({ initial: st(), polls: [done] });
    const { seen } = setup(fake.brokerage);
    await run();
    expect(fake.calls.createCustomer).toBe(0);
    expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
  });

  it('shows the generic error when the creation request fails, and stops', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done], post: { ok: false, status: 400 } });
    const { seen } = setup(fake.brokerage);
    await run();
    expect(fake.calls.createCustomer).toBe(1);
    expect(fake.calls.creationStatus).toBe(1);
    expect(outcomes(seen)).toEqual(['unspecifiedApiResponseError@0']);
  });

  it('shows the generic error when the initial status check answers an error', async () => {
    const fake = fakeBrokerage({ initial: { httpStatus: 500, body: null }, polls: [done] });
    const { seen } = setup(fake.brokerage);
    await run();
    expect(fake.calls.createCustomer).toBe(0);
    expect(outcomes(seen)).toEqual(['unspecifiedApiResponseError@0']);
  });

  it('posts, then polls every interval until done', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), st(), st(), done] });
    const { seen } = setup(fake.brokerage, { pollIntervalMs: 30 });
    const started = Date.now();
    await run();
    expect(fake.calls.createCustomer).toBe(1);
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'queued@2', 'queued@3', 'done@4']);
    expect(fake.calls.systemStatus).toBe(4);
    const times = [started, ...fake.calls.pollTimes];
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(25);
    expect(seen.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('decides with the creation-paused flag of the system status', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st()], paused: true });
    const { seen } = setup(fake.brokerage);
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'creationPaused@1']);
  });

  it('stops with maxPollingTries on the 45th attempt, and a new run polls afresh', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st()] });
    const { seen } = setup(fake.brokerage, { pollIntervalMs: 1 });
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
    const { seen } = setup(fake.brokerage);
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'done@2']);

    const always = fakeBrokerage({ initial: uninitiated, polls: [down] });
    await queue.close();
    const second = setup(always.brokerage);
    await run();
    expect(always.calls.creationStatus).toBe(1 + 5);
    expect(outcomes(second.seen)).toEqual(['queued@0', 'unspecifiedApiResponseError@1']);
  });

  it('is idempotent when a job runs again (stalled job re-run)', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), st(), done] });
    const { job, seen } = setup(fake.brokerage, { pollIntervalMs: 10_000 });
    const start: CustomerCreationJob = { prospectId: PROSPECT, jwt: JWT, runId: '1', phase: 'start', attempt: 0 };
    const ctx = { jobId: creationJobId(PROSPECT, '1', 'start'), attempt: 1, finalAttempt: false };
    const added: string[] = [];
    const add = queue.add.bind(queue);
    queue.add = async (name, data, opts) => {
      added.push(opts?.jobId ?? '');
      await add(name, data, opts);
    };

    await job(start, ctx);
    // After the POST the upstream reports creation started: a re-run neither posts nor republishes.
    fake.calls.creationStatus = 0;
    (fake.brokerage as { creationStatus: unknown }).creationStatus = async () => st();
    await job(start, ctx);
    expect(fake.calls.createCustomer).toBe(1);
    expect(outcomes(seen)).toEqual(['queued@0']);
    expect(seen[0]!.id).toBe(1);

    // The first poll runs twice: the same state is not published again, the next poll is added once.
    const poll1: CustomerCreationJob = { ...start, phase: 'poll', attempt: 1 };
    await job(poll1, ctx);
    await job(poll1, ctx);
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1']);

    // A poll the run has moved past does nothing at all.
    const poll2: CustomerCreationJob = { ...start, phase: 'poll', attempt: 2 };
    await job(poll2, ctx);
    (fake.brokerage as { creationStatus: unknown }).creationStatus = async () => done;
    await job({ ...start, phase: 'poll', attempt: 3 }, ctx);
    await job(poll2, ctx);
    await job({ ...start, phase: 'poll', attempt: 3 }, ctx);
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'queued@2', 'done@3']);

    // Re-runs add the very same next job id (which the queue deduplicates), never a new one.
    expect(added).toEqual([
      'creation-prospect-123-1-poll-1',
      'creation-prospect-123-1-poll-1',
      'creation-prospect-123-1-poll-2',
      'creation-prospect-123-1-poll-2',
      'creation-prospect-123-1-poll-3',
    ]);
  });
});
