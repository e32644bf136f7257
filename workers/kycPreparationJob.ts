// The KYC step's waiting as a background job (customer-information §4.6, §7, §9): the answer-session start and its 409
// retries, and the risk polling after the last page, each ending in the KYC step's submit when due. Every attempt is its
// own delayed job, so the waiting survives a worker restart; each decision is published to the state store, which the
// step's loader reads. The job data holds ids and the page locale; the credentials are used as workers/runCredentials.ts
// says. The phases and their states: docs/architecture.md "KYC preparation".
import type { Logger } from 'pino';
import type { AnswerSessionResponse } from '../shared/contracts/kycContract.ts';
import type { JobAddOptions, JobContext } from '../shared/creationJobContract.ts';
import { decideRiskPoll, decideStart, riskPollWaitMs } from '../shared/kyc.ts';
import { isFinalKycStatus, isOlderKycRun, kycJobId, type KycJob, type KycState, type KycStatus } from '../shared/kycJobContract.ts';
import { UpstreamError } from '../shared/upstreamError.ts';
import { authoriseRun, CredentialsRefused, type RunCredentialsPort } from './runCredentials.ts';

// The job's ports, declared here so that the job imports nothing of server/. server/main.ts hands it
// server/upstream/brokerageClient.ts's client, server/infra/creationCredentials.ts's store,
// server/infra/kycStates.ts's store and server/infra/jobQueue.ts's queue, which have these members.

/** customer-information §4.6: 403 counts as already answered, 409 as not ready yet (retried). */
export type KycStartAnswer = { kind: 'started'; session: AnswerSessionResponse } | { kind: 'alreadyAnswered' } | { kind: 'busy' };

/** The brokerage calls of a run, each with the person's access token (jwt) first. */
export interface KycBrokerage {
  refreshToken(refreshToken: string): Promise<{ jwt: string }>;
  startAnswerSession(jwt: string, prospectId: string, locale: string): Promise<KycStartAnswer>;
  riskCalculation(jwt: string, prospectId: string): Promise<{ done: boolean }>;
  /** A 403 answers moreInformationRequired; other failures throw. */
  submitKycStep(jwt: string, prospectId: string): Promise<{ ok: true } | { ok: false; moreInformationRequired: true }>;
}

/** The state the page's loader reads: the job publishes each decision and reads the latest. */
export interface KycStatesPort {
  publish(state: KycState): Promise<unknown>;
  latest(prospectId: string): Promise<KycState | null>;
}

/** The queue the job adds its next attempt to. */
export interface KycJobQueue {
  add(name: 'kycPreparation', data: KycJob, opts?: JobAddOptions): Promise<void>;
}

export interface KycPreparationDeps {
  brokerage: KycBrokerage;
  /** The credentials store the creation job uses; KYC runs have ids of their own (`kyc-N`). */
  credentials: RunCredentialsPort;
  states: KycStatesPort;
  queue: KycJobQueue;
  logger: Logger;
  /** KYC_START_INTERVAL_MS: between answer-session start attempts (1000; tests 10). */
  startIntervalMs: number;
  /** The wait before risk poll `attempt`; riskPollWaitMs (100 + 200 × attempt ms) unless a test makes it short. */
  riskWaitMs?: (attempt: number) => number;
  now?: () => Date;
}

/**
 * How a job stands against the latest state: 'superseded' (a newer run has begun), 'ended' (its run has a
 * final state), 'passed' (its run has moved past this attempt: a re-run of a stalled job), or null (due).
 */
export function kycJobStanding(job: Pick<KycJob, 'runId' | 'phase' | 'attempt'>, latest: KycState | null): 'superseded' | 'ended' | 'passed' | null {
  if (!latest) return null;
  if (isOlderKycRun(job.runId, latest.runId)) return 'superseded';
  if (latest.runId !== job.runId) return null;
  if (isFinalKycStatus(latest.status)) return 'ended';
  if (job.phase === 'start') {
    if (latest.status === 'questions' || latest.status === 'analysing') return 'passed';
    return latest.status === 'preparing' && latest.attempt > job.attempt ? 'passed' : null;
  }
  return latest.status === 'analysing' && latest.attempt > job.attempt ? 'passed' : null;
}

/** A definite refusal (4xx other than 401, 408 and 429): customer-information §4.6 "other statuses give an error", and no retry changes it. */
const isRefusal = (err: unknown) => err instanceof UpstreamError && err.status >= 400 && err.status < 500 && ![401, 408, 429].includes(err.status);

export function createKycPreparationJob(deps: KycPreparationDeps) {
  const { brokerage, credentials, states, queue, startIntervalMs } = deps;
  const riskWaitMs = deps.riskWaitMs ?? ((attempt: number) => riskPollWaitMs(attempt));
  const now = deps.now ?? (() => new Date());
  // Only ids, phases, attempts and statuses are logged: never a token, the locale or a page.
  const log = deps.logger.child({ job: 'kycPreparation' });
  const idsOf = (job: KycJob) => ({ prospectId: job.prospectId, runId: job.runId, phase: job.phase, attempt: job.attempt });

  async function publish(job: KycJob, status: KycStatus, extra: Pick<KycState, 'answerSessionId' | 'page'> = {}) {
    await states.publish({ prospectId: job.prospectId, runId: job.runId, at: now().toISOString(), attempt: job.attempt, status, ...extra });
    // The run has ended: its credentials are no longer needed. A failed removal leaves them to lapse.
    if (isFinalKycStatus(status)) await forget(job);
  }

  async function forget(job: KycJob) {
    await credentials.remove(job.prospectId, job.runId).catch((err: Error) => {
      log.warn({ ...idsOf(job), err }, 'kyc credentials not removed; they lapse');
    });
  }

  async function enqueue(job: KycJob, attempt: number, delayMs: number) {
    await queue.add(
      'kycPreparation',
      { prospectId: job.prospectId, runId: job.runId, phase: job.phase, attempt, locale: job.locale },
      { delayMs, jobId: kycJobId(job.prospectId, job.runId, job.phase, attempt) },
    );
  }

  async function authorised(job: KycJob) {
    const { call } = await authoriseRun({ refreshToken: (token) => brokerage.refreshToken(token), credentials, log, what: 'kyc' }, job);
    return {
      startAnswerSession: () => call('startAnswerSession', (jwt) => brokerage.startAnswerSession(jwt, job.prospectId, job.locale)),
      riskCalculation: () => call('riskCalculation', (jwt) => brokerage.riskCalculation(jwt, job.prospectId)),
      submitKycStep: () => call('submitKycStep', (jwt) => brokerage.submitKycStep(jwt, job.prospectId)),
    };
  }

  async function submit(job: KycJob, api: Awaited<ReturnType<typeof authorised>>) {
    const submitted = await api.submitKycStep();
    const status: KycStatus = submitted.ok ? 'submitted' : 'moreInformationRequired';
    log.info({ ...idsOf(job), status }, 'kyc step submitted');
    await publish(job, status);
  }

  async function start(job: KycJob) {
    const api = await authorised(job);
    const answer = await api.startAnswerSession();
    const decision = decideStart(answer.kind, job.attempt);
    log[decision === 'retry' ? 'debug' : 'info']({ ...idsOf(job), answer: answer.kind, decision }, 'kyc answer-session start');
    switch (decision) {
      case 'showQuestions': {
        const session = answer.kind === 'started' ? answer.session : null;
        if (!session?.answerSessionPage) {
          // A session with no page left to answer: the questionnaire is answered, so on to the risk
          // calculation (customer-information §4.6), as after the person's last page.
          await queue.add(
            'kycPreparation',
            { prospectId: job.prospectId, runId: job.runId, phase: 'risk', attempt: 1, locale: job.locale },
            { delayMs: riskWaitMs(1), jobId: kycJobId(job.prospectId, job.runId, 'risk', 1) },
          );
          return;
        }
        await publish(job, 'questions', { answerSessionId: session.answerSessionId, page: session.answerSessionPage });
        return;
      }
      case 'submitStep':
        await submit(job, api);
        return;
      case 'retry':
        await publish(job, 'preparing');
        await enqueue(job, job.attempt + 1, startIntervalMs);
        return;
      case 'error':
        log.warn({ ...idsOf(job), status: 'error' }, 'kyc answer session not ready after the last attempt');
        await publish(job, 'error');
        return;
    }
  }

  async function risk(job: KycJob) {
    const api = await authorised(job);
    const { done } = await api.riskCalculation();
    const decision = decideRiskPoll(done, job.attempt);
    log[decision === 'poll' ? 'debug' : 'info']({ ...idsOf(job), done, decision }, 'kyc risk calculation poll');
    if (decision === 'poll') {
      await publish(job, 'analysing');
      await enqueue(job, job.attempt + 1, riskWaitMs(job.attempt + 1));
      return;
    }
    await submit(job, api);
  }

  return async function kycPreparationJob(job: KycJob, jobCtx?: JobContext): Promise<void> {
    const ids = idsOf(job);
    try {
      const standing = kycJobStanding(job, await states.latest(job.prospectId));
      if (standing) {
        // A newer run has begun, or this run is past this attempt (a stalled job's re-run): deciding
        // again could move the state back.
        log.info({ ...ids, standing }, 'kyc preparation job has nothing to do');
        if (standing !== 'passed') await forget(job);
        return;
      }
      if (job.phase === 'start') await start(job);
      else await risk(job);
    } catch (err) {
      if (err instanceof CredentialsRefused) {
        // The refresh token refused (or none to refresh with): the person's brokerage session has ended, which
        // a new run with the same credentials cannot change, so the page says so (customer-information §7:
        // session expired) instead of offering Try again. Credentials missing: the generic error, whose Try
        // again hands over fresh ones.
        const status: KycStatus = err.reason === 'missing' ? 'error' : 'sessionEnded';
        log.warn({ ...ids, reason: err.reason, status }, 'kyc preparation without usable credentials');
        await publish(job, status);
        return;
      }
      if (err instanceof UpstreamError && err.status === 401) {
        // Still refused with a freshly bought access token: the session has ended all the same.
        log.warn({ ...ids, httpStatus: 401, status: 'sessionEnded' }, 'kyc preparation call refused: session ended');
        await publish(job, 'sessionEnded');
        return;
      }
      if (isRefusal(err)) {
        log.warn({ ...ids, httpStatus: (err as UpstreamError).status, status: 'error' }, 'kyc preparation call refused');
        await publish(job, 'error');
        return;
      }
      // A thrown error (brokerage unreachable, 5xx, unexpected answer) is transient: the queue retries with
      // backoff. When no retry follows, the page must not wait forever, so record the generic error.
      if (!jobCtx?.finalAttempt) {
        log.warn({ ...ids, try: jobCtx?.attempt, err }, 'kyc preparation step failed, will retry');
        throw err;
      }
      log.error({ ...ids, status: 'error', err }, 'kyc preparation step failed for good');
      await publish(job, 'error');
    }
  };
}

export type KycPreparationJobHandler = ReturnType<typeof createKycPreparationJob>;

/**
 * A KYC job the queue gave up on unrun (it stalled more often than allowed): the page must not wait
 * forever, so the run ends with the generic error, whose Try again starts a new run — unless a newer run
 * has begun, the run has ended, or it has moved past this attempt.
 */
export function createKycPreparationAbandoned(deps: Pick<KycPreparationDeps, 'credentials' | 'states' | 'logger' | 'now'>) {
  const now = deps.now ?? (() => new Date());
  const log = deps.logger.child({ job: 'kycPreparation' });
  return async function kycPreparationAbandoned(job: KycJob): Promise<void> {
    const ids = { prospectId: job.prospectId, runId: job.runId, phase: job.phase, attempt: job.attempt };
    const standing = kycJobStanding(job, await deps.states.latest(job.prospectId));
    if (standing === 'passed') return;
    if (standing === null) {
      log.error({ ...ids, status: 'error' }, 'kyc preparation job given up by the queue after repeated stalls');
      await deps.states.publish({ prospectId: job.prospectId, runId: job.runId, at: now().toISOString(), attempt: job.attempt, status: 'error' });
    }
    await deps.credentials.remove(job.prospectId, job.runId);
  };
}
