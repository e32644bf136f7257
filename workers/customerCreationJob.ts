// Customer creation as a background job (identification-routing-creation §4 "Customer creation"): check the initial
// status, post the creation request when needed, then poll every interval and publish each decision as a creation event.
// Each poll is its own delayed job, so polling survives a worker restart. The job data holds ids only; the person's
// credentials live sealed apart and are used as workers/runCredentials.ts says.
import type { Logger } from 'pino';
import type { CreationStatus } from '../shared/contracts/brokerageContract.ts';
import {
  carriedRunFacts,
  creationJobId,
  isOlderRun,
  nextPoll,
  type CustomerCreationJob,
  type JobAddOptions,
  type JobContext,
} from '../shared/creationJobContract.ts';
import { decideCreationOutcome, isFinal, shouldPostCreationRequest, type CreationOutcome, type CreationState } from '../shared/creationOutcome.ts';
import { UpstreamError } from '../shared/upstreamError.ts';
import { authoriseRun, CredentialsRefused, type RunCredentialsPort } from './runCredentials.ts';
import {
  afterCreation,
  trackCreationOutcome,
  type AfterCreationCalls,
  type CreationMetricsPort,
  type AfterCreationRecordsPort,
  type LoginHandoffsPort,
} from './afterCreation.ts';
import type { LoginHandoff } from '../shared/contracts/brokerageContract.ts';

// The job's ports: what it needs of the brokerage client, the stores and the queue, declared here so that
// the job imports nothing of server/. server/main.ts hands it server/upstream/brokerageClient.ts's client,
// server/infra/creationCredentials.ts's store, server/infra/creationEvents.ts's events,
// server/infra/afterCreationRecords.ts's records and server/infra/jobQueue.ts's queue, which have these members (and more).

/** The brokerage calls of a run, each with the person's access token (jwt). */
export interface CreationBrokerage {
  refreshToken(refreshToken: string): Promise<{ jwt: string }>;
  systemStatus(jwt: string): Promise<{ creationPaused: boolean }>;
  /** The HTTP status alongside the body (null on a failure status), so the decision can apply rule 1. */
  creationStatus(jwt: string, prospectId: string): Promise<{ httpStatus: number; body: CreationStatus | null }>;
  createCustomer(jwt: string, prospectId: string): Promise<{ ok: boolean; status: number }>;
  /** POST /api/2/authentication/nnx-session/login (identification-routing-creation §7); Idempotency-Key from `attempt`. */
  startLoginSession(jwt: string, attempt: string): Promise<LoginHandoff>;
  /** The affiliate conversion on done: the application's lead number; Idempotency-Key from `attempt`. */
  affiliateConversion(jwt: string, prospectId: string, attempt: string): Promise<{ leadNumber: string }>;
}

/** The run's credentials, sealed apart from the job data (workers/runCredentials.ts). */
export type CreationCredentialsPort = RunCredentialsPort;

/** The creation events the page streams: the job publishes each decision and reads the latest. */
export interface CreationEventsPort {
  publish(state: CreationState): Promise<unknown>;
  latest(prospectId: string): Promise<{ state: CreationState } | null>;
}

/** The queue the job adds its next step to. */
export interface CreationJobQueue {
  add(name: 'customerCreation', data: CustomerCreationJob, opts?: JobAddOptions): Promise<void>;
}

export type { CreationMetricsPort, AfterCreationRecordsPort, LoginHandoffsPort };

export interface CustomerCreationDeps {
  brokerage: CreationBrokerage;
  credentials: CreationCredentialsPort;
  events: CreationEventsPort;
  /** The tracking claim per run and the lead number per application (workers/afterCreation.ts). */
  records: AfterCreationRecordsPort;
  /** The run's login hand-off code, kept for the page's Continue (server/infra/loginHandoffs.ts). */
  loginHandoffs: LoginHandoffsPort;
  queue: CreationJobQueue;
  logger: Logger;
  pollIntervalMs: number;
  maxPollingTries: number;
  now?: () => Date;
  /** The operators' metrics: poll lateness, tracked outcomes. */
  metrics?: CreationMetricsPort;
  /**
   * How long one reading of the system status serves every run of the process that polls meanwhile (0: each poll
   * reads its own). The status is the same for everyone, so thousands of runs need not ask it each.
   */
  systemStatusShareMs?: number;
}

/** The brokerage calls of one job step with the run's credentials (workers/runCredentials.ts: a 401 renews the token once, as on the web). */
async function authorisedCalls(deps: { brokerage: CreationBrokerage; credentials: CreationCredentialsPort; log: Logger }, job: CustomerCreationJob) {
  const { brokerage } = deps;
  const { call } = await authoriseRun({ refreshToken: (token) => brokerage.refreshToken(token), credentials: deps.credentials, log: deps.log }, job);
  return {
    systemStatus: () => call('systemStatus', (jwt) => brokerage.systemStatus(jwt)),
    creationStatus: () =>
      call(
        'creationStatus',
        (jwt) => brokerage.creationStatus(jwt, job.prospectId),
        (a) => a.httpStatus === 401,
      ),
    createCustomer: () =>
      call(
        'createCustomer',
        (jwt) => brokerage.createCustomer(jwt, job.prospectId),
        (a) => a.status === 401,
      ),
    after: {
      startLoginSession: (attempt) => call('startLoginSession', (jwt) => brokerage.startLoginSession(jwt, attempt)),
      affiliateConversion: (attempt) => call('affiliateConversion', (jwt) => brokerage.affiliateConversion(jwt, job.prospectId, attempt)),
    } satisfies AfterCreationCalls,
  };
}

/** A call refused for its token (still refused after its renewal), not an outage. */
const isRefusal = (err: unknown) => err instanceof CredentialsRefused || (err instanceof UpstreamError && (err.status === 401 || err.status === 403));

/**
 * The process's latest reading of the system status (its answer or its failure), made with the token of the run that
 * asked, served to every run that polls within `shareMs`. Another run's token refused is that run's matter: for the
 * rest the status is unknown.
 */
function sharedSystemStatus(shareMs: number, now: () => Date) {
  let latest: { at: number; settled: boolean; reading: Promise<{ creationPaused: boolean }> } | undefined;
  return (read: () => Promise<{ creationPaused: boolean }>): Promise<{ creationPaused: boolean }> => {
    if (shareMs <= 0) return read();
    if (latest && (!latest.settled || now().getTime() - latest.at < shareMs)) {
      return latest.reading.catch((err: unknown) => Promise.reject(isRefusal(err) ? new Error('system status refused for another run') : err));
    }
    const entry = { at: now().getTime(), settled: false, reading: read() };
    const settle = () => {
      entry.settled = true;
      entry.at = now().getTime();
    };
    entry.reading.then(settle, settle);
    latest = entry;
    return entry.reading;
  };
}

export function createCustomerCreationJob(deps: CustomerCreationDeps) {
  const { brokerage, credentials, events, records, loginHandoffs, queue, pollIntervalMs, maxPollingTries } = deps;
  const now = deps.now ?? (() => new Date());
  // Only ids and decisions are logged, never a token.
  const log = deps.logger.child({ job: 'customerCreation' });

  async function publish(job: CustomerCreationJob, outcome: CreationOutcome, attempt: number) {
    await events.publish({ prospectId: job.prospectId, outcome, attempt, runId: job.runId, at: now().toISOString() });
    // The run has ended: its credentials are no longer needed. A failed removal leaves them to lapse.
    if (isFinal(outcome)) await forget(job);
  }

  /**
   * Polling has stopped with `outcome`: the actions when polling stops (workers/afterCreation.ts; with the run's calls,
   * unless the run has no usable credentials), then its tracking event, then the final state. Publishing comes last:
   * the page's Continue must find the login session there, and a worker that dies before it leaves the run to a re-run
   * of this step, which repeats only what is once-only by itself.
   */
  async function finish(job: CustomerCreationJob, outcome: CreationOutcome, attempt: number, calls?: AfterCreationCalls) {
    const final = calls ? await afterCreation({ records, handoffs: loginHandoffs, log }, job, outcome, calls) : outcome;
    await trackCreationOutcome({ records, log, now, metrics: deps.metrics }, job, final);
    await publish(job, final, attempt);
  }

  async function forget(job: CustomerCreationJob) {
    const ids = { prospectId: job.prospectId, runId: job.runId };
    await credentials.remove(job.prospectId, job.runId).catch((err: Error) => log.warn({ ...ids, err }, 'creation credentials not removed; they lapse'));
  }

  // Each poll on the run's grid (shared/creationJobContract.ts nextPoll), however late the one before it ran.
  async function enqueuePoll(job: CustomerCreationJob, attempt: number, creationPaused?: boolean) {
    const { pollsFrom, delayMs } = nextPoll(job, attempt, pollIntervalMs, now().getTime());
    const paused = creationPaused === undefined ? {} : { creationPaused };
    await queue.add(
      'customerCreation',
      { prospectId: job.prospectId, runId: job.runId, phase: 'poll', attempt, pollsFrom, ...paused, ...carriedRunFacts(job) },
      { delayMs, jobId: creationJobId(job.prospectId, job.runId, attempt) },
    );
  }

  const authorised = (job: CustomerCreationJob) => authorisedCalls({ brokerage, credentials, log }, job);
  const sharedReading = sharedSystemStatus(deps.systemStatusShareMs ?? 0, now);
  /**
   * The system status only tells whether creation is paused (rule 3): a failing status call must not fail a creation going
   * well, so the run decides with what it last read, or none (not paused); a token refused after its renewal fails the step.
   */
  async function systemStatusOrLastKnown(api: Awaited<ReturnType<typeof authorised>>, job: CustomerCreationJob, ctx: object) {
    try {
      return (await sharedReading(api.systemStatus)).creationPaused;
    } catch (err) {
      if (isRefusal(err)) throw err;
      const lastKnown = typeof job.creationPaused === 'boolean' ? job.creationPaused : undefined;
      log.warn({ ...ctx, err, lastKnown: lastKnown ?? null }, 'system status failed; the poll decides with the last known status');
      return lastKnown;
    }
  }

  async function start(job: CustomerCreationJob) {
    const ctx = { prospectId: job.prospectId, runId: job.runId, attempt: 0 };
    const latest = await events.latest(job.prospectId);
    if (latest && isOlderRun(job.runId, latest.state.runId)) {
      // "Try again" has started a newer run already: this one is over before it began.
      log.info({ ...ctx, latestRunId: latest.state.runId }, 'customer creation run superseded');
      await forget(job);
      return;
    }
    if (latest && latest.state.runId === job.runId) {
      // A re-run of this start after it published (it had added the first poll before that), or after the run
      // moved on or ended.
      log.info({ ...ctx, latestAttempt: latest.state.attempt }, 'customer creation already polling');
      if (isFinal(latest.state.outcome)) await forget(job);
      return;
    }
    const api = await authorised(job);
    const initial = await api.creationStatus();
    if (initial.httpStatus >= 400 || !initial.body) {
      log.warn({ ...ctx, httpStatus: initial.httpStatus, outcome: 'unspecifiedApiResponseError' }, 'customer creation initial status failed');
      await finish(job, 'unspecifiedApiResponseError', 0);
      return;
    }
    if (shouldPostCreationRequest(initial.body)) {
      const created = await api.createCustomer();
      if (!created.ok) {
        log.warn({ ...ctx, httpStatus: created.status, outcome: 'unspecifiedApiResponseError' }, 'customer creation request failed');
        await finish(job, 'unspecifiedApiResponseError', 0);
        return;
      }
      log.info({ ...ctx, httpStatus: created.status }, 'customer creation requested');
    } else {
      log.info({ ...ctx, done: initial.body.done, creationProcessStatus: initial.body.creation_process_status }, 'customer creation already started');
    }
    // The next step is added before the state is published: a run's state at attempt n then proves that poll n + 1
    // is queued, so a re-run of a step the run has published needs to add nothing (server/infra/jobQueue.ts
    // KEPT_AFTER_THE_END: its finished jobs are not kept to deduplicate it).
    await enqueuePoll(job, 1);
    await publish(job, 'queued', 0);
  }

  async function poll(job: CustomerCreationJob) {
    const ctx = { prospectId: job.prospectId, runId: job.runId, attempt: job.attempt };
    // How late this poll runs after its due time on the run's grid (a job without a grid has no due time).
    if (deps.metrics && typeof job.pollsFrom === 'number') deps.metrics.pollLateness(now().getTime() - (job.pollsFrom + job.attempt * pollIntervalMs));
    const latest = await events.latest(job.prospectId);
    if (latest && isOlderRun(job.runId, latest.state.runId)) {
      log.info({ ...ctx, latestRunId: latest.state.runId }, 'customer creation run superseded');
      await forget(job);
      return;
    }
    if (latest && latest.state.runId === job.runId && (isFinal(latest.state.outcome) || latest.state.attempt >= job.attempt)) {
      // A re-run of a poll that has published (and so added the next one), or that the run has moved past: deciding
      // again could move the state back, or start a second chain of polls.
      log.info({ ...ctx, latestAttempt: latest.state.attempt, latestOutcome: latest.state.outcome }, 'customer creation poll superseded');
      if (isFinal(latest.state.outcome)) await forget(job);
      return;
    }
    const api = await authorised(job);
    const [creationPaused, status] = await Promise.all([systemStatusOrLastKnown(api, job, ctx), api.creationStatus()]);
    const decision = decideCreationOutcome(
      { httpStatus: status.httpStatus, body: status.body, creationPaused: creationPaused ?? false, attempt: job.attempt },
      maxPollingTries,
    );
    // A poll that goes on is logged at debug: the line is not even built unless that level is on (thousands a second).
    const level = isFinal(decision.outcome) ? 'info' : 'debug';
    if (log.isLevelEnabled(level))
      log[level]({ ...ctx, outcome: decision.outcome, rule: decision.rule, httpStatus: status.httpStatus }, 'customer creation poll');
    if (isFinal(decision.outcome)) return finish(job, decision.outcome, job.attempt, api.after);
    await enqueuePoll(job, job.attempt + 1, creationPaused);
    await publish(job, decision.outcome, job.attempt);
  }

  return async function customerCreationJob(job: CustomerCreationJob, jobCtx?: JobContext): Promise<void> {
    const ids = { prospectId: job.prospectId, runId: job.runId, attempt: job.attempt };
    try {
      if (job.phase === 'start') await start(job);
      else await poll(job);
    } catch (err) {
      if (err instanceof CredentialsRefused) {
        // Nothing to call the brokerage with: the generic error, whose Try again hands over fresh credentials.
        log.warn({ ...ids, reason: err.reason, outcome: 'unspecifiedApiResponseError' }, 'customer creation without usable credentials');
        await finish(job, 'unspecifiedApiResponseError', job.attempt);
        return;
      }
      // A thrown error (brokerage unreachable, unexpected answer) is transient: the queue retries with
      // backoff. When no retry follows, the page must not spin forever, so record the generic error.
      if (!jobCtx?.finalAttempt) {
        log.warn({ ...ids, try: jobCtx?.attempt, err }, 'customer creation step failed, will retry');
        throw err;
      }
      log.error({ ...ids, outcome: 'unspecifiedApiResponseError', err }, 'customer creation step failed for good');
      await finish(job, 'unspecifiedApiResponseError', job.attempt);
    }
  };
}

export type CustomerCreationJobHandler = ReturnType<typeof createCustomerCreationJob>;

/**
 * A run whose job the queue gave up on unrun (it stalled more often than allowed): the page must not
 * wait forever (identification-routing-creation §4), so the run ends with the generic error, whose Try
 * again starts a new run — unless the run already has its outcome or a newer run has begun.
 */
export function createCustomerCreationAbandoned(deps: Pick<CustomerCreationDeps, 'credentials' | 'events' | 'records' | 'logger' | 'now' | 'metrics'>) {
  const now = deps.now ?? (() => new Date());
  const log = deps.logger.child({ job: 'customerCreation' });
  return async function customerCreationAbandoned(job: CustomerCreationJob): Promise<void> {
    const ids = { prospectId: job.prospectId, runId: job.runId, attempt: job.attempt };
    const latest = await deps.events.latest(job.prospectId);
    const settled = latest && (isOlderRun(job.runId, latest.state.runId) || (latest.state.runId === job.runId && isFinal(latest.state.outcome)));
    if (!settled) {
      log.error({ ...ids, outcome: 'unspecifiedApiResponseError' }, 'customer creation job given up by the queue after repeated stalls');
      await trackCreationOutcome({ records: deps.records, log, now, metrics: deps.metrics }, job, 'unspecifiedApiResponseError');
      await deps.events.publish({
        prospectId: job.prospectId,
        outcome: 'unspecifiedApiResponseError',
        attempt: job.attempt,
        runId: job.runId,
        at: now().toISOString(),
      });
    }
    await deps.credentials.remove(job.prospectId, job.runId);
  };
}
