// When polling stops (identification-routing-creation §4 "Customer creation"): the tracking event once per run, the
// affiliate conversion's lead number on done only, the login session unless in a webview (its failure the generic
// error), all before the final state is published; job data from before the run facts were carried still works.
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { UpstreamError } from '../../server/upstream/http.ts';
import { createMemoryQueue, type CustomerCreationJob, type MemoryJobQueue } from '../../server/infra/jobQueue.ts';
import { createMemoryCreationEvents, type CreationEvent, type CreationEvents } from '../../server/infra/creationEvents.ts';
import { createMemoryLoginHandoffs, type LoginHandoffs } from '../../server/infra/loginHandoffs.ts';
import { createMemoryCreationCredentials } from '../../server/infra/creationCredentials.ts';
import { createMemoryAfterCreationRecords } from '../../server/infra/afterCreationRecords.ts';
import { enqueueCustomerCreation } from '../../server/infra/creationJobs.ts';
import { creationJobId, type CreationRunFacts } from '../../shared/creationJobContract.ts';
import { isFinal } from '../../shared/creationOutcome.ts';
import { createCustomerCreationJob } from '../../workers/customerCreationJob.ts';
import { creationOutcomeEvent } from '../../workers/afterCreation.ts';
import { done, fakeBrokerage, PROSPECT, REFRESH, st, uninitiated } from '../support/creationJobFakes.ts';

const SIGNED_AT = '2030-05-04T10:00:00.000Z';
/** The worker's clock: 42 s after signing. */
const NOW = new Date(Date.parse(SIGNED_AT) + 42_000);
const WEB: CreationRunFacts = { market: 'NO', webview: false, signedAt: SIGNED_AT };

let queue: MemoryJobQueue;
let events: CreationEvents;
let logLines: Array<Record<string, unknown>>;
let rawLog: string[];
let handoffs: LoginHandoffs;

function setup(fake: ReturnType<typeof fakeBrokerage>, pollIntervalMs = 2) {
  queue = createMemoryQueue({ backoffMs: 1 });
  events = createMemoryCreationEvents();
  const credentials = createMemoryCreationCredentials({ key: randomBytes(32) });
  const records = createMemoryAfterCreationRecords();
  handoffs = createMemoryLoginHandoffs({ key: randomBytes(32) });
  logLines = [];
  rawLog = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      rawLog.push(String(chunk));
      logLines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      cb();
    },
  });
  const job = createCustomerCreationJob({
    brokerage: fake.brokerage,
    credentials,
    events,
    records,
    loginHandoffs: handoffs,
    queue,
    logger: pino({ level: 'trace' }, sink),
    pollIntervalMs,
    maxPollingTries: 45,
    now: () => NOW,
  });
  queue.runner.start({ customerCreation: job });
  const seen: CreationEvent[] = [];
  void events.subscribe(PROSPECT, (e) => seen.push(e));
  /** `facts` null: a job enqueued before the run facts were carried. */
  const run = async (runId = '1', facts: CreationRunFacts | null = WEB) => {
    await enqueueCustomerCreation({ queue, credentials }, { prospectId: PROSPECT, runId, credentials: { refreshToken: REFRESH }, ...(facts ? { facts } : {}) });
    await queue.runner.idle();
  };
  return { job, seen, run, records, credentials };
}

const tracked = () => logLines.filter((l) => l.msg === 'creation outcome tracked');
const outcomes = (seen: CreationEvent[]) => seen.map((e) => `${e.state.outcome}@${e.state.attempt}`);

afterEach(async () => {
  await queue?.close();
  await events?.close();
});

describe('when polling stops', () => {
  it('on done: one lead number kept (never logged), one login session, one tracking event, then the final state', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [st(), done] });
    const { seen, run, records } = setup(fake);
    // The final state is published only after the login session exists (the page's Continue must find it).
    const loginsAtFinal: number[] = [];
    void events.subscribe(PROSPECT, (e) => {
      if (isFinal(e.state.outcome)) loginsAtFinal.push(fake.after.loginAttempts.size);
    });
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'queued@1', 'done@2']);
    expect(loginsAtFinal).toEqual([1]);
    expect(fake.after.loginAttempts.size).toBe(1);
    expect(fake.after.affiliateCalls).toBe(1);
    const [leadNumber] = [...fake.after.leadNumbers.values()];
    expect(await records.leadNumber(PROSPECT)).toBe(leadNumber);
    expect(rawLog.join('')).not.toContain(leadNumber);
    expect(tracked()).toHaveLength(1);
    // The event: outcome, market, mode and seconds since signing; no prospect, run or person in it.
    expect(tracked()[0]).toMatchObject({ event: 'customerCreationOutcome', outcome: 'done', market: 'NO', mode: 'web', secondsSinceSigning: 42 });
    expect(JSON.stringify(tracked()[0])).not.toContain(PROSPECT);
  });

  it('the event names the partner or app the visit came from (the entry clientId), null without one', () => {
    const job = { prospectId: PROSPECT, runId: '1', phase: 'poll', attempt: 3, ...WEB } as const;
    expect(creationOutcomeEvent({ ...job, clientId: 'partner-1' }, 'done', NOW)).toMatchObject({ clientId: 'partner-1', market: 'NO' });
    expect(creationOutcomeEvent(job, 'done', NOW)).toMatchObject({ clientId: null });
    // An id in another shape (job data is only read) is left out.
    expect(creationOutcomeEvent({ ...job, clientId: 'a b' }, 'done', NOW)).toMatchObject({ clientId: null });
  });

  it.each([
    ['customerExists', st({ done: true, creation_requests: [{ request_type: 'update_customer', status: 'done' }] })],
    ['accountLimit', st({ done: true, creation_requests: [{ request_type: 'create_customer', status: 'rejected' }] })],
  ] as const)('on %s (allows log-in, not done): a login session but no affiliate conversion, no lead number', async (outcome, answer) => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [answer] });
    const { seen, run, records } = setup(fake);
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', `${outcome}@1`]);
    expect(fake.after.affiliateCalls).toBe(0);
    expect(await records.leadNumber(PROSPECT)).toBeNull();
    expect(fake.after.loginAttempts.size).toBe(1);
    expect(tracked().map((l) => l.outcome)).toEqual([outcome]);
  });

  it("on done the login's hand-off code is kept for the run's Continue, and it is in no log line and no creation event", async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done] });
    const { seen, run } = setup(fake);
    await run();
    const code = await handoffs.codeOf(PROSPECT, '1');
    expect(code).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(rawLog.join('')).not.toContain(code);
    expect(JSON.stringify(seen)).not.toContain(code);
    expect(await handoffs.codeOf(PROSPECT, '2')).toBeNull();
  });

  it.each([
    ['creationPaused', { paused: true, polls: [st({ creation_requests: [{ request_type: 'create_customer', status: 'queued' }] })] }],
    ['nightly_downtime', { polls: [st({ nightly_downtime: true })] }],
  ] as const)('on %s (no log-in, identification-routing-creation §4): no login session, so a refusing login cannot fail it', async (outcome, script) => {
    const fake = fakeBrokerage({
      initial: uninitiated,
      ...script,
      polls: [...script.polls],
      loginFails: new UpstreamError('brokerage', 500, undefined, 'brokerage answered 500'),
    });
    const { seen, run } = setup(fake);
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', `${outcome}@1`]);
    expect(fake.after.loginCalls).toBe(0);
    expect(await handoffs.codeOf(PROSPECT, '1')).toBeNull();
  });

  it('on an error outcome: neither call, and the error is tracked once', async () => {
    const fake = fakeBrokerage({ initial: { httpStatus: 500, body: null }, polls: [done] });
    const { seen, run } = setup(fake);
    await run();
    expect(outcomes(seen)).toEqual(['unspecifiedApiResponseError@0']);
    expect(fake.after.loginCalls + fake.after.affiliateCalls).toBe(0);
    expect(tracked().map((l) => l.outcome)).toEqual(['unspecifiedApiResponseError']);
  });

  it("in the app's webview: no login session and no affiliate conversion; the event's mode is webview", async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done] });
    const { seen, run, records } = setup(fake);
    await run('1', { ...WEB, webview: true });
    expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
    expect(fake.after.loginCalls + fake.after.affiliateCalls).toBe(0);
    expect(await records.leadNumber(PROSPECT)).toBeNull();
    expect(tracked()[0]).toMatchObject({ outcome: 'done', mode: 'webview' });
  });

  it('a failed login session makes the outcome the generic error; Try again polls to done again and logs in', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done], loginFails: new UpstreamError('brokerage', 503, undefined, 'brokerage answered 503') });
    const { seen, run, records } = setup(fake);
    await run('1');
    expect(outcomes(seen)).toEqual(['queued@0', 'unspecifiedApiResponseError@1']);
    expect(tracked().map((l) => l.outcome)).toEqual(['unspecifiedApiResponseError']);
    const failed = logLines.find((l) => l.msg === 'login session failed: the run ends with the generic error');
    expect(failed).toMatchObject({ level: 40, outcome: 'done', finalOutcome: 'unspecifiedApiResponseError' });
    // The lead number was kept already: the next run does not ask for another.
    const lead = await records.leadNumber(PROSPECT);
    expect(lead).not.toBeNull();

    let attempt = '';
    fake.brokerage.startLoginSession = async (_jwt, a) => {
      attempt = a;
      return { handoffCode: 'B'.repeat(43), expiresInSeconds: 300 };
    };
    await run('2');
    expect(outcomes(seen).slice(2)).toEqual(['queued@0', 'done@1']);
    // Run 2's own attempt: a new Idempotency-Key, so the brokerage creates the session this time.
    expect(attempt).toContain(':2');
    expect(fake.after.affiliateCalls).toBe(1);
    expect(await records.leadNumber(PROSPECT)).toBe(lead);
    expect(tracked().map((l) => l.outcome)).toEqual(['unspecifiedApiResponseError', 'done']);
    // Run 1 kept no hand-off; run 2 keeps its own.
    expect(await handoffs.codeOf(PROSPECT, '1')).toBeNull();
    expect(await handoffs.codeOf(PROSPECT, '2')).toBe('B'.repeat(43));
  });

  it('a login session answered 401 renews the access token once and is tried again, as every call of the run', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done] });
    const { seen, run } = setup(fake);
    const login = fake.brokerage.startLoginSession;
    let tries = 0;
    fake.brokerage.startLoginSession = async (jwt, attempt) => {
      // The 30 minutes end just before the login session.
      if (tries++ === 0) fake.expireTokens();
      return login(jwt, attempt);
    };
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
    expect(tries).toBe(2);
    expect(fake.calls.refreshToken).toBe(2);
    expect(fake.after.loginAttempts.size).toBe(1);
  });

  it('a failed affiliate conversion is logged with its type and stack, and the run still ends done', async () => {
    const fake = fakeBrokerage({
      initial: uninitiated,
      polls: [done],
      affiliateFails: new UpstreamError('brokerage', 500, undefined, 'brokerage answered 500'),
    });
    const { seen, run, records } = setup(fake);
    await run();
    expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
    expect(await records.leadNumber(PROSPECT)).toBeNull();
    expect(fake.after.loginAttempts.size).toBe(1);
    const warned = logLines.find((l) => l.msg === 'affiliate conversion failed; the run goes on') as { level: number; err: { type: string; stack: string } };
    expect(warned.level).toBe(40);
    expect(warned.err.type).toBe('UpstreamError');
    expect(warned.err.stack).toContain('brokerage answered 500');
  });

  it('a worker killed between the actions and the publish: the re-run tracks nothing twice and repeats the calls under the same keys', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done] });
    // The test runs each step itself: the next poll the start adds waits longer than the test.
    const { job, seen, credentials, records } = setup(fake, 60_000);
    await credentials.put(PROSPECT, '1', { refreshToken: REFRESH });
    const ctx = { jobId: creationJobId(PROSPECT, '1', 1), attempt: 1, finalAttempt: false };
    const start: CustomerCreationJob = { prospectId: PROSPECT, runId: '1', phase: 'start', attempt: 0, ...WEB };
    await job(start, ctx);
    // The final state's publish dies once: the worker is gone after the calls and the tracking, before the publish.
    const publish = events.publish.bind(events);
    let killed = false;
    events.publish = async (state) => {
      if (isFinal(state.outcome) && !killed) {
        killed = true;
        throw new Error('worker killed');
      }
      return publish(state);
    };
    const poll: CustomerCreationJob = { ...start, phase: 'poll', attempt: 1 };
    await expect(job(poll, ctx)).rejects.toThrow('worker killed');
    expect(outcomes(seen)).toEqual(['queued@0']);
    // BullMQ runs the stalled job again.
    await job(poll, ctx);
    await job(poll, ctx);
    expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
    expect(tracked()).toHaveLength(1);
    // The login session's call repeated under the run's one attempt: one session upstream. The lead number was kept
    // before the kill, so the re-run does not ask again.
    expect(fake.after.loginCalls).toBe(2);
    expect(fake.after.loginAttempts.size).toBe(1);
    expect(fake.after.affiliateCalls).toBe(1);
    expect(fake.after.leadNumbers.size).toBe(1);
    expect(await records.leadNumber(PROSPECT)).toBe([...fake.after.leadNumbers.values()][0]);
  });

  it('job data from before the run facts (no market, webview, signing time) still runs: logs in, tracks without them', async () => {
    const fake = fakeBrokerage({ initial: uninitiated, polls: [done] });
    const { seen, run } = setup(fake);
    await run('1', null);
    expect(outcomes(seen)).toEqual(['queued@0', 'done@1']);
    expect(fake.after.loginAttempts.size).toBe(1);
    expect(tracked()[0]).toMatchObject({ outcome: 'done', market: null, mode: 'web', secondsSinceSigning: null });
  });

  it('reads unreadable run facts as missing', () => {
    const old = { prospectId: PROSPECT, runId: '1', phase: 'poll', attempt: 3 } as const;
    const odd = { ...old, market: 'XX', webview: 'yes', signedAt: 'yesterday' } as unknown as CustomerCreationJob;
    expect(creationOutcomeEvent(odd, 'done', NOW)).toEqual({
      event: 'customerCreationOutcome',
      outcome: 'done',
      market: null,
      mode: 'web',
      clientId: null,
      secondsSinceSigning: null,
    });
    expect(creationOutcomeEvent({ ...old, ...WEB, webview: true }, 'queued', NOW)).toMatchObject({ market: 'NO', mode: 'webview', secondsSinceSigning: 42 });
  });
});
