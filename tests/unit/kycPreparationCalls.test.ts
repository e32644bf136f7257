// The KYC preparation job's brokerage calls (workers/kycPreparationJob.ts, customer-information §4.6, §9) on the
// in-process queue with a scripted brokerage (tests/support/kycPreparation.ts): the answer-session start and its 409
// retries, a session with no page left, the risk polling, the submit, and token renewal.
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../server/upstream/http.ts';
import { JOB_ATTEMPTS } from '../../server/infra/jobQueue.ts';
import { enqueueKycRisk } from '../../server/infra/kycJobs.ts';
import { isFinalKycStatus } from '../../shared/kycJobContract.ts';
import { KYC_START_ATTEMPTS, RISK_POLL_ATTEMPTS } from '../../shared/kyc.ts';
import {
  analyse,
  credentials,
  ctx,
  enqueueDeps,
  fakeBrokerage,
  handedOver,
  LOCALE,
  PAGE,
  prepare,
  PROSPECT,
  queue,
  REFRESH,
  SESSION_ID,
  setup,
  START_INTERVAL_MS,
  states,
  statuses,
  useKycPreparationJob,
} from '../support/kycPreparation.ts';

useKycPreparationJob();

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
