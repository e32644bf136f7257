// The KYC preparation job (workers/kycPreparationJob.ts, customer-information §4.6, §9) on the in-process
// queue with a scripted brokerage: the answer-session start and its 409 retries, the risk polling, the
// submit, token renewal, superseded runs, stalled re-runs, and what the job data holds.
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { UpstreamError } from '../../server/upstream/http.ts';
import { createMemoryQueue, JOB_ATTEMPTS, type JobAddOptions, type KycJob, type MemoryJobQueue } from '../../server/infra/jobQueue.ts';
import { createMemoryCreationCredentials, type CreationCredentials } from '../../server/infra/creationCredentials.ts';
import { createMemoryKycStates, type KycStates } from '../../server/infra/kycStates.ts';
import { enqueueKycPreparation, enqueueKycRisk } from '../../server/infra/kycJobs.ts';
import { isFinalKycStatus, isOlderKycRun, kycJobId, kycRunNumber, mayReplaceKycState, type KycState } from '../../shared/kycJobContract.ts';
import { KYC_START_ATTEMPTS, RISK_POLL_ATTEMPTS } from '../../shared/kyc.ts';
import type { AnswerSessionPage } from '../../shared/contracts/kycContract.ts';
import {
  createKycPreparationAbandoned,
  createKycPreparationJob,
  kycJobStanding,
  type KycBrokerage,
  type KycStartAnswer,
} from '../../workers/kycPreparationJob.ts';

const REFRESH = 'secret-refresh-token-never-logged';
const PROSPECT = 'prospect-kyc-1';
const LOCALE = 'sv-SE';
const START_INTERVAL_MS = 10;
const PAGE: AnswerSessionPage = {
  title: 'Page title never logged',
  hasNextPage: true,
  questions: [{ id: 83, text: 'Why do you open the account?', type: 'SINGLE_CHOICE', options: [{ id: 201, text: 'Savings' }], helpText: null }],
};
const SESSION_ID = 'answer-session-1';

type StartScript = Array<KycStartAnswer['kind'] | 'startedWithoutPage' | Error>;
type SubmitScript = 'ok' | 'more' | Error;
const unauthorized = () => new UpstreamError('brokerage', 401, { code: 'EXPIRED_ACCESS_TOKEN' }, 'brokerage answered 401');

/**
 * Scripted brokerage: one answer per start and per risk poll (the last repeats). Access tokens come from
 * refreshToken(REFRESH) and are honoured until expireTokens(); a call with another token is answered 401
 * the way the real client reports it (thrown UpstreamError).
 */
function fakeBrokerage(script: { start?: StartScript; risk?: Array<boolean | Error>; submit?: SubmitScript }) {
  const calls = {
    start: 0,
    risk: 0,
    submit: 0,
    refreshToken: 0,
    unauthorized: 0,
    startTimes: [] as number[],
    locales: [] as string[],
    prospects: new Set<string>(),
    jwts: new Set<string>(),
  };
  const valid = new Set<string>();
  const issued: string[] = [];
  let refreshRefused = false;
  const accept = (jwt: string, prospectId: string) => {
    calls.jwts.add(jwt);
    calls.prospects.add(prospectId);
    if (!valid.has(jwt)) {
      calls.unauthorized++;
      throw unauthorized();
    }
  };
  const nth = <T>(list: T[], n: number): T => list[Math.min(n, list.length - 1)]!;
  const brokerage: KycBrokerage = {
    async refreshToken(refreshToken: string) {
      calls.refreshToken++;
      if (refreshToken !== REFRESH || refreshRefused) throw new UpstreamError('brokerage', 401, { code: 'INVALID_REFRESH_TOKEN' }, 'brokerage answered 401');
      const jwt = `jwt-${randomBytes(8).toString('hex')}`;
      valid.add(jwt);
      issued.push(jwt);
      return { jwt };
    },
    async startAnswerSession(jwt, prospectId, locale): Promise<KycStartAnswer> {
      accept(jwt, prospectId);
      const answer = nth<StartScript[number]>(script.start ?? ['started'], calls.start++);
      calls.startTimes.push(Date.now());
      calls.locales.push(locale);
      if (answer instanceof Error) throw answer;
      if (answer === 'started') return { kind: 'started', session: { answerSessionId: SESSION_ID, answerSessionPage: PAGE } };
      if (answer === 'startedWithoutPage') return { kind: 'started', session: { answerSessionId: SESSION_ID, answerSessionPage: null } };
      return { kind: answer };
    },
    async riskCalculation(jwt, prospectId) {
      accept(jwt, prospectId);
      const answer = nth(script.risk ?? [true], calls.risk++);
      if (answer instanceof Error) throw answer;
      return { done: answer };
    },
    async submitKycStep(jwt, prospectId) {
      accept(jwt, prospectId);
      calls.submit++;
      const answer = script.submit ?? 'ok';
      if (answer instanceof Error) throw answer;
      return answer === 'ok' ? { ok: true } : { ok: false, moreInformationRequired: true };
    },
  };
  return { calls, issued, brokerage, expireTokens: () => valid.clear(), refuseRefresh: () => (refreshRefused = true) };
}

let queue: MemoryJobQueue;
let states: KycStates;
let credentials: ReturnType<typeof createMemoryCreationCredentials>;
let logLines: string[];
let secrets: string[];

function setup(fake: ReturnType<typeof fakeBrokerage>) {
  queue = createMemoryQueue({ backoffMs: 1 });
  const store = createMemoryKycStates();
  // Every state the job publishes, in order (also the ones the store refuses).
  const published: KycState[] = [];
  states = {
    async publish(state) {
      published.push(structuredClone(state));
      return store.publish(state);
    },
    latest: (prospectId) => store.latest(prospectId),
  };
  credentials = createMemoryCreationCredentials({ key: randomBytes(32) });
  logLines = [];
  secrets = fake.issued;
  const logger = pino(
    { level: 'trace' },
    new Writable({
      write(chunk, _enc, cb) {
        logLines.push(String(chunk));
        cb();
      },
    }),
  );
  // Every job the queue is given, as given.
  const added: Array<{ data: KycJob; opts: JobAddOptions | undefined }> = [];
  const add = queue.add.bind(queue);
  queue.add = async (name, data, opts) => {
    if (name === 'kycPreparation') added.push({ data: structuredClone(data) as KycJob, opts });
    await add(name, data, opts);
  };
  const deps = { brokerage: fake.brokerage, credentials, states, queue, logger, startIntervalMs: START_INTERVAL_MS, riskWaitMs: () => 1 };
  const job = createKycPreparationJob(deps);
  queue.runner.start({ customerCreation: async () => {}, kycPreparation: job });
  return { job, published, added, deps };
}

const enqueueDeps = () => ({ queue, credentials, riskWaitMs: () => 1 });
const handedOver: CreationCredentials = { refreshToken: REFRESH };

async function prepare(runId = 'kyc-1', creds: CreationCredentials = handedOver) {
  await enqueueKycPreparation(enqueueDeps(), { prospectId: PROSPECT, runId, locale: LOCALE, credentials: creds });
  await queue.runner.idle();
}

async function analyse(runId = 'kyc-1', creds: CreationCredentials = handedOver) {
  await enqueueKycRisk(enqueueDeps(), { prospectId: PROSPECT, runId, locale: LOCALE, credentials: creds });
  await queue.runner.idle();
}

const statuses = (published: KycState[]) => published.map((s) => `${s.status}@${s.attempt}`);
const ctx = (finalAttempt = false) => ({ jobId: 'j', attempt: 1, finalAttempt });

afterEach(async () => {
  await queue?.close();
  // No token is logged, nor the page's texts or the locale-bound content.
  const logged = logLines.join('');
  for (const secret of [REFRESH, ...secrets, PAGE.title, PAGE.questions[0]!.text]) expect(logged).not.toContain(secret);
});

describe('KYC preparation job: answer-session start', () => {
  it('shows the questions: the first page and the session id are published, in the page locale', async () => {
    const fake = fakeBrokerage({ start: ['started'] });
    const { published } = setup(fake);
    await prepare();
    expect(fake.calls.start).toBe(1);
    expect(fake.calls.locales).toEqual([LOCALE]);
    expect(statuses(published)).toEqual(['questions@1']);
    const latest = await states.latest(PROSPECT);
    expect(latest).toMatchObject({ prospectId: PROSPECT, runId: 'kyc-1', status: 'questions', attempt: 1, answerSessionId: SESSION_ID, page: PAGE });
    // 'questions' is not the end of the run: the credentials stay for its risk phase.
    expect(isFinalKycStatus('questions')).toBe(false);
    expect(credentials.size()).toBe(1);
    expect(fake.calls.submit).toBe(0);
  });

  it('403 (already answered) submits the step', async () => {
    const fake = fakeBrokerage({ start: ['alreadyAnswered'] });
    const { published } = setup(fake);
    await prepare();
    expect(fake.calls.start).toBe(1);
    expect(fake.calls.submit).toBe(1);
    expect(statuses(published)).toEqual(['submitted@1']);
    expect(credentials.size()).toBe(0);
  });

  it('403 and a submit answered 403 ends in more information required', async () => {
    const fake = fakeBrokerage({ start: ['alreadyAnswered'], submit: 'more' });
    const { published } = setup(fake);
    await prepare();
    expect(statuses(published)).toEqual(['moreInformationRequired@1']);
    expect(credentials.size()).toBe(0);
  });

  it('409 three times, then started: four starts KYC_START_INTERVAL_MS apart, preparing 1..3, then the questions', async () => {
    const fake = fakeBrokerage({ start: ['busy', 'busy', 'busy', 'started'] });
    const { published, added } = setup(fake);
    await prepare();
    expect(fake.calls.start).toBe(4);
    expect(statuses(published)).toEqual(['preparing@1', 'preparing@2', 'preparing@3', 'questions@4']);
    const times = fake.calls.startTimes;
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(START_INTERVAL_MS - 2);
    // Each attempt is its own delayed job, with an id naming the run and the attempt.
    expect(added.map((a) => [a.opts?.jobId, a.opts?.delayMs])).toEqual([
      ['kyc-prospect-kyc-1-kyc-1-start-1', undefined],
      ['kyc-prospect-kyc-1-kyc-1-start-2', START_INTERVAL_MS],
      ['kyc-prospect-kyc-1-kyc-1-start-3', START_INTERVAL_MS],
      ['kyc-prospect-kyc-1-kyc-1-start-4', START_INTERVAL_MS],
    ]);
  });

  it('409 forever: exactly 60 start calls, then the error', async () => {
    const fake = fakeBrokerage({ start: ['busy'] });
    const { published } = setup(fake);
    await prepare();
    expect(fake.calls.start).toBe(KYC_START_ATTEMPTS);
    expect(KYC_START_ATTEMPTS).toBe(60);
    expect(published).toHaveLength(60);
    expect(statuses(published.slice(0, 59))).toEqual(Array.from({ length: 59 }, (_, i) => `preparing@${i + 1}`));
    expect(await states.latest(PROSPECT)).toMatchObject({ status: 'error', attempt: 60 });
    expect(credentials.size()).toBe(0);
  });

  it('another status of the start (a 4xx refusal) is the error at once, without retries', async () => {
    const fake = fakeBrokerage({ start: [new UpstreamError('brokerage', 400, undefined, 'brokerage answered 400')] });
    const { published } = setup(fake);
    await prepare();
    expect(fake.calls.start).toBe(1);
    expect(statuses(published)).toEqual(['error@1']);
    expect(credentials.size()).toBe(0);
  });

  it('a thrown (transient) error is retried by the queue, and the last try records the error', async () => {
    const down = new UpstreamError('brokerage', 503, undefined, 'brokerage answered 503');
    const recovering = fakeBrokerage({ start: [down, down, 'started'] });
    const first = setup(recovering);
    await prepare();
    expect(recovering.calls.start).toBe(3);
    expect(statuses(first.published)).toEqual(['questions@1']);

    await queue.close();
    const always = fakeBrokerage({ start: [new UpstreamError('brokerage', 0, undefined, 'brokerage unreachable')] });
    const second = setup(always);
    await prepare();
    expect(always.calls.start).toBe(JOB_ATTEMPTS);
    expect(statuses(second.published)).toEqual(['error@1']);
    expect(credentials.size()).toBe(0);
  });
});

describe('KYC preparation job: a session with no page left', () => {
  it('goes on to the risk calculation by itself, then submits the step', async () => {
    const fake = fakeBrokerage({ start: ['startedWithoutPage'], risk: [false, true] });
    const { published, added } = setup(fake);
    await prepare();
    expect(fake.calls.risk).toBe(2);
    expect(fake.calls.submit).toBe(1);
    expect(statuses(published)).toEqual(['analysing@1', 'submitted@2']);
    expect(added.map((a) => [a.data.phase, a.data.attempt])).toEqual([
      ['start', 1],
      ['risk', 1],
      ['risk', 2],
    ]);
  });
});

describe('KYC preparation job: risk polling', () => {
  it('done on the second poll: two polls, then the step is submitted', async () => {
    const fake = fakeBrokerage({ start: ['started'], risk: [false, true] });
    const { published, added } = setup(fake);
    await prepare();
    await analyse();
    expect(fake.calls.risk).toBe(2);
    expect(fake.calls.submit).toBe(1);
    expect(statuses(published)).toEqual(['questions@1', 'analysing@1', 'submitted@2']);
    expect(added.slice(1).map((a) => [a.data.phase, a.data.attempt, a.opts?.jobId])).toEqual([
      ['risk', 1, 'kyc-prospect-kyc-1-kyc-1-risk-1'],
      ['risk', 2, 'kyc-prospect-kyc-1-kyc-1-risk-2'],
    ]);
    expect(credentials.size()).toBe(0);
  });

  it('never done: exactly 25 polls, then treated as done and submitted', async () => {
    const fake = fakeBrokerage({ start: ['started'], risk: [false] });
    const { published } = setup(fake);
    await prepare();
    await analyse();
    expect(fake.calls.risk).toBe(RISK_POLL_ATTEMPTS);
    expect(RISK_POLL_ATTEMPTS).toBe(25);
    expect(fake.calls.submit).toBe(1);
    expect(published.at(-1)).toMatchObject({ status: 'submitted', attempt: 25 });
    expect(published.filter((s) => s.status === 'analysing')).toHaveLength(24);
  });

  it('a submit answered 403 after the polling is more information required', async () => {
    const fake = fakeBrokerage({ start: ['started'], risk: [true], submit: 'more' });
    const { published } = setup(fake);
    await prepare();
    await analyse();
    expect(statuses(published)).toEqual(['questions@1', 'moreInformationRequired@1']);
  });

  it('each next poll waits riskWaitMs(next attempt); the default is riskPollWaitMs', async () => {
    const fake = fakeBrokerage({ start: ['started'], risk: [false, false, true] });
    const { added } = setup(fake);
    await prepare();
    await analyse();
    expect(added.filter((a) => a.data.phase === 'risk').map((a) => a.opts?.delayMs)).toEqual([1, 1, 1]);
    // The web's first risk job waits riskPollWaitMs(1) by default (100 + 200 × 1).
    const plain = { ...enqueueDeps(), riskWaitMs: undefined };
    const seen: Array<number | undefined> = [];
    await enqueueKycRisk(
      {
        ...plain,
        queue: {
          add: async (_name, _data, opts) => {
            seen.push(opts?.delayMs);
          },
          close: async () => {},
        },
      },
      { prospectId: PROSPECT, runId: 'kyc-9', locale: LOCALE, credentials: handedOver },
    );
    expect(seen).toEqual([300]);
  });
});

describe('KYC preparation job: tokens', () => {
  it('a 401 renews the access token once and the run goes on', async () => {
    const fake = fakeBrokerage({ start: ['busy', 'busy', 'started'] });
    const { published } = setup(fake);
    // The handed-over access token is refused: one refresh, then the start goes through.
    await prepare('kyc-1', { refreshToken: REFRESH, accessToken: 'expired-access-token' });
    expect(fake.calls.refreshToken).toBe(1);
    expect(statuses(published)).toEqual(['preparing@1', 'preparing@2', 'questions@3']);
    // Mid-run expiry (the risk phase, 30 minutes later): one more refresh, kept for the later polls.
    fake.expireTokens();
    await analyse('kyc-1', { refreshToken: REFRESH, accessToken: fake.issued[0]! });
    expect(fake.calls.refreshToken).toBe(2);
    expect(published.at(-1)).toMatchObject({ status: 'submitted' });
    expect(fake.calls.jwts).toEqual(new Set(['expired-access-token', ...fake.issued]));
  });

  it('a refused refresh token ends the run as session ended (not the error, whose Try again cannot help), without retries', async () => {
    const fake = fakeBrokerage({ start: ['started'] });
    fake.refuseRefresh();
    const { published } = setup(fake);
    await prepare();
    expect(fake.calls.refreshToken).toBe(1);
    expect(fake.calls.start).toBe(0);
    expect(statuses(published)).toEqual(['sessionEnded@1']);
    expect(credentials.size()).toBe(0);
  });

  it.each([429, 408, 503, 0])(
    'a refresh answered %i (throttled, timed out, down) is no ended session: the queue tries the step again, as the web says "try again"',
    async (status) => {
      const fake = fakeBrokerage({ start: ['started'] });
      const refresh = fake.brokerage.refreshToken;
      let failed = 0;
      fake.brokerage.refreshToken = async (token) => {
        if (failed++ === 0) throw new UpstreamError('brokerage', status, undefined, `brokerage answered ${status}`);
        return refresh(token);
      };
      const { published } = setup(fake);
      await prepare();
      expect(failed).toBe(2);
      expect(statuses(published)).toEqual(['questions@1']);
    },
  );

  it('without credentials for the run (lapsed, or sealed under another key) the run ends with the error', async () => {
    const fake = fakeBrokerage({ start: ['started'] });
    const { job, published } = setup(fake);
    await job({ prospectId: PROSPECT, runId: 'kyc-1', phase: 'start', attempt: 1, locale: LOCALE }, ctx());
    expect(statuses(published)).toEqual(['error@1']);
    expect(fake.calls.start).toBe(0);
  });
});

describe('KYC preparation job: runs and re-runs', () => {
  it('a run superseded by a newer one does nothing: no brokerage call, no state', async () => {
    const fake = fakeBrokerage({ start: ['busy', 'started'] });
    const { job, published } = setup(fake);
    await prepare('kyc-2');
    expect(statuses(published)).toEqual(['preparing@1', 'questions@2']);
    const calls = fake.calls.start;
    // Late jobs of run 1 (a stalled re-run, a delayed retry) and its credentials, put back meanwhile.
    await credentials.put(PROSPECT, 'kyc-1', handedOver);
    await job({ prospectId: PROSPECT, runId: 'kyc-1', phase: 'start', attempt: 7, locale: LOCALE }, ctx());
    await job({ prospectId: PROSPECT, runId: 'kyc-1', phase: 'risk', attempt: 3, locale: LOCALE }, ctx(true));
    expect(fake.calls.start).toBe(calls);
    expect(fake.calls.risk).toBe(0);
    expect(statuses(published)).toEqual(['preparing@1', 'questions@2']);
    expect(await states.latest(PROSPECT)).toMatchObject({ runId: 'kyc-2', status: 'questions' });
    // The old run's credentials are removed; the current run's stay.
    expect(await credentials.get(PROSPECT, 'kyc-1')).toBeNull();
    expect(await credentials.get(PROSPECT, 'kyc-2')).not.toBeNull();
  });

  it('Try again after the error starts a new run that runs afresh', async () => {
    const fake = fakeBrokerage({ start: ['busy'] });
    const { published } = setup(fake);
    await prepare('kyc-1');
    expect(await states.latest(PROSPECT)).toMatchObject({ runId: 'kyc-1', status: 'error' });
    (fake.brokerage as { startAnswerSession: unknown }).startAnswerSession = async () => ({
      kind: 'started',
      session: { answerSessionId: 'answer-session-2', answerSessionPage: PAGE },
    });
    await prepare('kyc-2');
    expect(published.at(-1)).toMatchObject({ runId: 'kyc-2', status: 'questions', attempt: 1, answerSessionId: 'answer-session-2' });
  });

  it('a re-run of a job its run has moved past neither calls nor publishes; the next job id is the same', async () => {
    const fake = fakeBrokerage({ start: ['busy', 'busy', 'started'], risk: [false, false, true] });
    const { job, published, added } = setup(fake);
    await prepare();
    await analyse();
    const before = { start: fake.calls.start, risk: fake.calls.risk, published: published.length, added: added.length };
    // Re-runs after the run ended: nothing at all.
    await credentials.put(PROSPECT, 'kyc-1', handedOver);
    await job({ prospectId: PROSPECT, runId: 'kyc-1', phase: 'start', attempt: 2, locale: LOCALE }, ctx());
    await job({ prospectId: PROSPECT, runId: 'kyc-1', phase: 'risk', attempt: 2, locale: LOCALE }, ctx());
    expect({ start: fake.calls.start, risk: fake.calls.risk, published: published.length, added: added.length }).toEqual(before);
    expect(await credentials.get(PROSPECT, 'kyc-1')).toBeNull();
  });

  it('a start re-run while the run shows its questions does nothing', async () => {
    const fake = fakeBrokerage({ start: ['busy', 'started'] });
    const { job, published } = setup(fake);
    await prepare();
    expect(statuses(published)).toEqual(['preparing@1', 'questions@2']);
    await job({ prospectId: PROSPECT, runId: 'kyc-1', phase: 'start', attempt: 1, locale: LOCALE }, ctx());
    await job({ prospectId: PROSPECT, runId: 'kyc-1', phase: 'start', attempt: 2, locale: LOCALE }, ctx());
    expect(fake.calls.start).toBe(2);
    expect(statuses(published)).toEqual(['preparing@1', 'questions@2']);
    // The run is not over: its credentials stay for the risk phase.
    expect(await credentials.get(PROSPECT, 'kyc-1')).not.toBeNull();
  });

  it('the job data holds ids and the locale only: no token, whatever a caller slips in', async () => {
    const fake = fakeBrokerage({ start: ['busy', 'started'], risk: [false, true] });
    const { added } = setup(fake);
    await prepare('kyc-1', { refreshToken: REFRESH, accessToken: 'handed-over-access-token' });
    await analyse();
    expect(added.length).toBeGreaterThan(0);
    for (const { data, opts } of added) {
      expect(Object.keys(data).sort()).toEqual(['attempt', 'locale', 'phase', 'prospectId', 'runId']);
      expect(data.locale).toBe(LOCALE);
      expect(JSON.stringify(data)).not.toMatch(/jwt|token|secret/i);
      expect(opts?.jobId).not.toContain(':');
    }
    // The queue itself keeps exactly the job's fields.
    const received: unknown[] = [];
    const q = createMemoryQueue();
    q.runner.start({ customerCreation: async () => {}, kycPreparation: async (d) => void received.push(d) });
    const leaky = { prospectId: PROSPECT, runId: 'kyc-1', phase: 'start', attempt: 1, locale: LOCALE, jwt: 'secret', refreshToken: 'secret' } as KycJob;
    await q.add('kycPreparation', leaky, { jobId: 'leaky' });
    await q.runner.idle();
    await q.close();
    expect(received).toEqual([{ prospectId: PROSPECT, runId: 'kyc-1', phase: 'start', attempt: 1, locale: LOCALE }]);
  });

  it('job ids hold no colon and differ by run, phase and attempt', () => {
    expect(kycJobId('p:1', 'kyc-1', 'start', 1)).toBe('kyc-p_1-kyc-1-start-1');
    const ids = new Set([
      kycJobId('p', 'kyc-1', 'start', 1),
      kycJobId('p', 'kyc-2', 'start', 1),
      kycJobId('p', 'kyc-1', 'risk', 1),
      kycJobId('p', 'kyc-1', 'start', 2),
    ]);
    expect(ids.size).toBe(4);
  });
});

describe('KYC preparation job given up by the queue', () => {
  function abandonedSetup() {
    const fake = fakeBrokerage({});
    const { deps, published } = setup(fake);
    return { abandoned: createKycPreparationAbandoned(deps), published };
  }
  const job = (over: Partial<KycJob> = {}): KycJob => ({ prospectId: PROSPECT, runId: 'kyc-1', phase: 'start', attempt: 3, locale: LOCALE, ...over });
  const state = (over: Partial<KycState>): KycState => ({
    prospectId: PROSPECT,
    runId: 'kyc-1',
    at: new Date().toISOString(),
    attempt: 1,
    status: 'preparing',
    ...over,
  });

  it('ends a waiting run with the error and removes its credentials', async () => {
    const { abandoned } = abandonedSetup();
    await credentials.put(PROSPECT, 'kyc-1', handedOver);
    await states.publish(state({ attempt: 2 }));
    await abandoned(job());
    expect(await states.latest(PROSPECT)).toMatchObject({ runId: 'kyc-1', status: 'error', attempt: 3 });
    expect(credentials.size()).toBe(0);
  });

  it('leaves a run that has ended, moved past the job, or been superseded', async () => {
    const { abandoned } = abandonedSetup();
    await credentials.put(PROSPECT, 'kyc-1', handedOver);
    await states.publish(state({ status: 'questions', attempt: 4 }));
    await abandoned(job());
    expect(await states.latest(PROSPECT)).toMatchObject({ status: 'questions' });
    expect(credentials.size()).toBe(1); // the run goes on
    await states.publish(state({ runId: 'kyc-2', status: 'preparing' }));
    await abandoned(job({ phase: 'risk', attempt: 5 }));
    expect(await states.latest(PROSPECT)).toMatchObject({ runId: 'kyc-2', status: 'preparing' });
    expect(credentials.size()).toBe(0);
  });
});

describe('KYC runs and states (shared/kycJobContract.ts)', () => {
  it.each([
    ['kyc-1', 'kyc-2', true],
    ['kyc-9', 'kyc-10', true],
    ['kyc-2', 'kyc-1', false],
    ['kyc-2', 'kyc-2', false],
    ['1', 'kyc-2', true],
    ['kyc-a', 'kyc-2', false],
    ['kyc-1', undefined, false],
    ['', 'kyc-1', false],
  ] as const)('%s older than %s: %s', (a, b, older) => {
    expect(isOlderKycRun(a, b)).toBe(older);
  });

  it('run numbers', () => {
    expect(kycRunNumber('kyc-12')).toBe(12);
    expect(kycRunNumber('12')).toBe(12);
    expect(kycRunNumber('kyc-1234567890123456')).toBeNull();
    expect(kycRunNumber('creation-1')).toBeNull();
  });

  it.each([
    [null, 'kyc-1', 'preparing', true],
    [['kyc-2', 'preparing'], 'kyc-1', 'questions', false],
    [['kyc-1', 'error'], 'kyc-2', 'preparing', true],
    [['kyc-1', 'submitted'], 'kyc-1', 'analysing', false],
    [['kyc-1', 'questions'], 'kyc-1', 'analysing', true],
    [['kyc-1', 'preparing'], 'kyc-1', 'error', true],
  ] as const)('latest %j, next %s %s: may replace %s', (latest, runId, status, may) => {
    expect(mayReplaceKycState(latest ? { runId: latest[0], status: latest[1] } : null, { runId, status })).toBe(may);
  });

  it('the in-memory store applies the same rule and a lifetime', async () => {
    let t = 0;
    const store = createMemoryKycStates({ ttlSeconds: 10, now: () => t });
    const s = (runId: string, status: KycState['status']): KycState => ({ prospectId: 'p', runId, at: 'now', attempt: 1, status });
    expect(await store.publish(s('kyc-2', 'preparing'))).toBe(true);
    expect(await store.publish(s('kyc-1', 'questions'))).toBe(false);
    expect(await store.publish(s('kyc-2', 'error'))).toBe(true);
    expect(await store.publish(s('kyc-2', 'preparing'))).toBe(false);
    expect(await store.latest('p')).toMatchObject({ runId: 'kyc-2', status: 'error' });
    t = 10_000;
    expect(await store.latest('p')).toBeNull();
  });

  it('standing of a job against the latest state', () => {
    const st = (over: Partial<KycState>): KycState => ({ prospectId: 'p', runId: 'kyc-2', at: 'now', attempt: 3, status: 'preparing', ...over });
    const j = (phase: KycJob['phase'], attempt: number, runId = 'kyc-2') => ({ runId, phase, attempt });
    expect(kycJobStanding(j('start', 1), null)).toBeNull();
    expect(kycJobStanding(j('start', 1, 'kyc-1'), st({}))).toBe('superseded');
    expect(kycJobStanding(j('start', 1, 'kyc-3'), st({}))).toBeNull();
    expect(kycJobStanding(j('start', 2), st({}))).toBe('passed');
    expect(kycJobStanding(j('start', 3), st({}))).toBeNull();
    expect(kycJobStanding(j('start', 4), st({}))).toBeNull();
    expect(kycJobStanding(j('start', 9), st({ status: 'questions' }))).toBe('passed');
    expect(kycJobStanding(j('risk', 1), st({ status: 'questions' }))).toBeNull();
    expect(kycJobStanding(j('risk', 2), st({ status: 'analysing' }))).toBe('passed');
    expect(kycJobStanding(j('risk', 3), st({ status: 'analysing' }))).toBeNull();
    expect(kycJobStanding(j('risk', 3), st({ status: 'submitted' }))).toBe('ended');
  });
});
