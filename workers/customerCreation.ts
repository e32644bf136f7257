// Customer creation as a background job (spec section 4 "Customer creation"): check the initial status,
// post the creation request when needed, then poll every interval and publish each decision as a
// creation event. Each poll is its own delayed job, so polling survives a worker restart.
import type { Logger } from 'pino';
import type { BrokerageClient } from '../server/upstream/brokerage.ts';
import type { CreationEvents } from '../server/infra/creationEvents.ts';
import type { CustomerCreationJob, JobContext, JobQueue } from '../server/infra/jobQueue.ts';
import {
  decideCreationOutcome,
  isFinal,
  shouldPostCreationRequest,
  type CreationOutcome,
} from '../shared/creationOutcome.ts';

export interface CustomerCreationDeps {
  brokerage: Pick<BrokerageClient, 'createCustomer' | 'creationStatus' | 'systemStatus'>;
  events: CreationEvents;
  queue: JobQueue;
  logger: Logger;
  pollIntervalMs: number;
  maxPollingTries: number;
  now?: () => Date;
}

/** Job ids name the run and the step, so re-adding the same step (a re-run of a stalled job) is a no-op. */
export function creationJobId(prospectId: string, runId: string, step: 'start' | number): string {
  const safe = (s: string) => s.replace(/:/g, '_');
  return step === 'start'
    ? `creation-${safe(prospectId)}-${safe(runId)}-start`
    : `creation-${safe(prospectId)}-${safe(runId)}-poll-${step}`;
}

/**
 * Enqueues the start of a creation run. Use one runId per run (e.g. a counter in the session, bumped by
 * "Try again" after a final error): the same runId twice is deduplicated, a new one starts afresh.
 */
export async function enqueueCustomerCreation(queue: JobQueue, run: { prospectId: string; jwt: string; runId: string }): Promise<void> {
  await queue.add(
    'customerCreation',
    { prospectId: run.prospectId, jwt: run.jwt, runId: run.runId, phase: 'start', attempt: 0 },
    { jobId: creationJobId(run.prospectId, run.runId, 'start') },
  );
}

export function createCustomerCreationJob(deps: CustomerCreationDeps) {
  const { brokerage, events, queue, pollIntervalMs, maxPollingTries } = deps;
  const now = deps.now ?? (() => new Date());
  // Only ids and decisions are logged: the job data also holds the access token.
  const log = deps.logger.child({ job: 'customerCreation' });

  async function publish(job: CustomerCreationJob, outcome: CreationOutcome, attempt: number) {
    await events.publish({ prospectId: job.prospectId, outcome, attempt, runId: job.runId, at: now().toISOString() });
  }

  async function enqueuePoll(job: CustomerCreationJob, attempt: number) {
    await queue.add(
      'customerCreation',
      { prospectId: job.prospectId, jwt: job.jwt, runId: job.runId, phase: 'poll', attempt },
      { delayMs: pollIntervalMs, jobId: creationJobId(job.prospectId, job.runId, attempt) },
    );
  }

  async function start(job: CustomerCreationJob) {
    const ctx = { prospectId: job.prospectId, runId: job.runId, attempt: 0 };
    const latest = await events.latest(job.prospectId);
    if (latest && !isFinal(latest.state.outcome) && latest.state.attempt > 0) {
      // Polling of this prospect is already under way (a re-run of this start after its first poll).
      log.info({ ...ctx, latestAttempt: latest.state.attempt }, 'customer creation already polling');
      return;
    }
    const initial = await brokerage.creationStatus(job.jwt, job.prospectId);
    if (initial.httpStatus >= 400 || !initial.body) {
      log.warn({ ...ctx, httpStatus: initial.httpStatus, outcome: 'unspecifiedApiResponseError' }, 'customer creation initial status failed');
      await publish(job, 'unspecifiedApiResponseError', 0);
      return;
    }
    if (shouldPostCreationRequest(initial.body)) {
      const created = await brokerage.createCustomer(job.jwt, job.prospectId);
      if (!created.ok) {
        log.warn({ ...ctx, httpStatus: created.status, outcome: 'unspecifiedApiResponseError' }, 'customer creation request failed');
        await publish(job, 'unspecifiedApiResponseError', 0);
        return;
      }
      log.info({ ...ctx, httpStatus: created.status }, 'customer creation requested');
    } else {
      log.info({ ...ctx, done: initial.body.done, creationProcessStatus: initial.body.creation_process_status }, 'customer creation already started');
    }
    await publish(job, 'queued', 0);
    await enqueuePoll(job, 1);
  }

  async function poll(job: CustomerCreationJob) {
    const ctx = { prospectId: job.prospectId, runId: job.runId, attempt: job.attempt };
    const latest = await events.latest(job.prospectId);
    if (latest && (isFinal(latest.state.outcome) || latest.state.attempt > job.attempt)) {
      // A re-run of a poll the run has already moved past: deciding again could move the state back.
      log.info({ ...ctx, latestAttempt: latest.state.attempt, latestOutcome: latest.state.outcome }, 'customer creation poll superseded');
      return;
    }
    const [system, status] = await Promise.all([
      brokerage.systemStatus(job.jwt),
      brokerage.creationStatus(job.jwt, job.prospectId),
    ]);
    const decision = decideCreationOutcome(
      { httpStatus: status.httpStatus, body: status.body, creationPaused: system.creationPaused, attempt: job.attempt },
      maxPollingTries,
    );
    log[isFinal(decision.outcome) ? 'info' : 'debug']({ ...ctx, outcome: decision.outcome, rule: decision.rule, httpStatus: status.httpStatus }, 'customer creation poll');
    await publish(job, decision.outcome, job.attempt);
    if (!isFinal(decision.outcome)) await enqueuePoll(job, job.attempt + 1);
  }

  return async function customerCreationJob(job: CustomerCreationJob, jobCtx?: JobContext): Promise<void> {
    try {
      if (job.phase === 'start') await start(job);
      else await poll(job);
    } catch (err) {
      // A thrown error (brokerage unreachable, unexpected answer) is transient: the queue retries with
      // backoff. When no retry follows, the page must not spin forever, so record the generic error.
      const message = (err as Error).message;
      if (!jobCtx?.finalAttempt) {
        log.warn({ prospectId: job.prospectId, runId: job.runId, attempt: job.attempt, try: jobCtx?.attempt, err: { message } }, 'customer creation step failed, will retry');
        throw err;
      }
      log.error({ prospectId: job.prospectId, runId: job.runId, attempt: job.attempt, outcome: 'unspecifiedApiResponseError', err: { message } }, 'customer creation step failed for good');
      await publish(job, 'unspecifiedApiResponseError', job.attempt);
    }
  };
}

export type CustomerCreationJobHandler = ReturnType<typeof createCustomerCreationJob>;
