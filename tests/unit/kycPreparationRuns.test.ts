// The KYC preparation job's runs (workers/kycPreparationJob.ts, customer-information §4.6) on the in-process queue
// with a scripted brokerage (tests/support/kycPreparation.ts): superseded runs, Try again, stalled re-runs, what the
// job data holds, a job the queue gives up, and the rules of runs and states (shared/kycJobContract.ts).
import { describe, expect, it } from 'vitest';
import { createMemoryQueue, type KycJob } from '../../server/infra/jobQueue.ts';
import { createMemoryKycStates } from '../../server/infra/kycStates.ts';
import { isOlderKycRun, kycJobId, kycRunNumber, mayReplaceKycState, type KycState } from '../../shared/kycJobContract.ts';
import { createKycPreparationAbandoned, kycJobStanding } from '../../workers/kycPreparationJob.ts';
import {
  analyse,
  credentials,
  ctx,
  fakeBrokerage,
  handedOver,
  LOCALE,
  PAGE,
  prepare,
  PROSPECT,
  REFRESH,
  setup,
  states,
  statuses,
  useKycPreparationJob,
} from '../support/kycPreparation.ts';

useKycPreparationJob();

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
