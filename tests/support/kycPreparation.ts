// The KYC preparation job (workers/kycPreparationJob.ts) as its tests drive it (tests/unit/kycPreparationCalls.test.ts,
// kycPreparationRuns.test.ts): the in-process queue, the in-memory credentials and states, and a scripted brokerage.
// `queue`, `states`, `credentials` are live bindings, set by setup() for the test that calls it.
//   import { fakeBrokerage, prepare, setup, useKycPreparationJob } from '../support/kycPreparation.ts';
//   useKycPreparationJob();
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterEach, expect } from 'vitest';
import pino from 'pino';
import { UpstreamError } from '../../server/upstream/http.ts';
import { createMemoryQueue, type JobAddOptions, type KycJob, type MemoryJobQueue } from '../../server/infra/jobQueue.ts';
import { createMemoryCreationCredentials, type CreationCredentials } from '../../server/infra/creationCredentials.ts';
import { createMemoryKycStates, type KycStates } from '../../server/infra/kycStates.ts';
import { enqueueKycPreparation, enqueueKycRisk } from '../../server/infra/kycJobs.ts';
import type { KycState } from '../../shared/kycJobContract.ts';
import type { AnswerSessionPage } from '../../shared/contracts/kycContract.ts';
import { createKycPreparationJob, type KycBrokerage, type KycStartAnswer } from '../../workers/kycPreparationJob.ts';

export const REFRESH = 'secret-refresh-token-never-logged';
export const PROSPECT = 'prospect-kyc-1';
export const LOCALE = 'sv-SE';
export const START_INTERVAL_MS = 10;
export const PAGE: AnswerSessionPage = {
  title: 'Page title never logged',
  hasNextPage: true,
  questions: [{ id: 83, text: 'Why do you open the account?', type: 'SINGLE_CHOICE', options: [{ id: 201, text: 'Savings' }], helpText: null }],
};
export const SESSION_ID = 'answer-session-1';

type StartScript = Array<KycStartAnswer['kind'] | 'startedWithoutPage' | Error>;
type SubmitScript = 'ok' | 'more' | Error;
const unauthorized = () => new UpstreamError('brokerage', 401, { code: 'EXPIRED_ACCESS_TOKEN' }, 'brokerage answered 401');

/**
 * Scripted brokerage: one answer per start and per risk poll (the last repeats). Access tokens come from
 * refreshToken(REFRESH) and are honoured until expireTokens(); a call with another token is answered 401
 * the way the real client reports it (thrown UpstreamError).
 */
export function fakeBrokerage(script: { start?: StartScript; risk?: Array<boolean | Error>; submit?: SubmitScript }) {
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

export let queue: MemoryJobQueue;
export let states: KycStates;
export let credentials: ReturnType<typeof createMemoryCreationCredentials>;
let logLines: string[];
let secrets: string[];

export function setup(fake: ReturnType<typeof fakeBrokerage>) {
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

export const enqueueDeps = () => ({ queue, credentials, riskWaitMs: () => 1 });
export const handedOver: CreationCredentials = { refreshToken: REFRESH };

export async function prepare(runId = 'kyc-1', creds: CreationCredentials = handedOver) {
  await enqueueKycPreparation(enqueueDeps(), { prospectId: PROSPECT, runId, locale: LOCALE, credentials: creds });
  await queue.runner.idle();
}

export async function analyse(runId = 'kyc-1', creds: CreationCredentials = handedOver) {
  await enqueueKycRisk(enqueueDeps(), { prospectId: PROSPECT, runId, locale: LOCALE, credentials: creds });
  await queue.runner.idle();
}

export const statuses = (published: KycState[]) => published.map((s) => `${s.status}@${s.attempt}`);
export const ctx = (finalAttempt = false) => ({ jobId: 'j', attempt: 1, finalAttempt });

/** Closes the queue after each test and checks that nothing secret was logged. */
export function useKycPreparationJob(): void {
  afterEach(async () => {
    await queue?.close();
    // No token is logged, nor the page's texts or the locale-bound content.
    const logged = logLines.join('');
    for (const secret of [REFRESH, ...secrets, PAGE.title, PAGE.questions[0]!.text]) expect(logged).not.toContain(secret);
  });
}
