// Background jobs: a small port with two adapters. BullMQ on Redis in production, so delayed and waiting
// jobs outlive a worker process and a job killed mid-run comes back through stalled-job detection; an
// in-process stand-in for development and unit tests.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConnectionOptions, Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import { ioredisForBullmq, ioredisForProducer, RedisUnavailableError } from './redis.ts';
import { ioredisClusterForBullmq } from './redisCluster.ts';
import { redisTarget } from './redisTarget.ts';
import { bullmqPrefix } from './keyLayout.ts';
import { outsideRequest } from './deadline.ts';
import { carriedRunFacts, type CustomerCreationJob, type JobAddOptions, type JobContext } from '../../shared/creationJobContract.ts';
import type { KycJob } from '../../shared/kycJobContract.ts';

// The jobs' data and what the queue tells a job are the contract with workers/ (shared/creationJobContract.ts,
// shared/kycJobContract.ts).
export type { CustomerCreationJob, JobAddOptions, JobContext, KycJob };

/** Each job name and its data. */
export interface JobDataByName {
  customerCreation: CustomerCreationJob;
  kycPreparation: KycJob;
}
export type JobName = keyof JobDataByName;
const JOB_NAMES: readonly JobName[] = ['customerCreation', 'kycPreparation'];
const isJobName = (name: string): name is JobName => (JOB_NAMES as readonly string[]).includes(name);

export interface JobQueue {
  add<N extends JobName>(name: N, data: JobDataByName[N], opts?: JobAddOptions): Promise<void>;
  close(): Promise<void>;
  /** The queue's name and its jobs per state, for the metrics' queue depth (BullMQ only: jobs that wait in Redis). */
  depth?: { queue: string; counts(): Promise<{ waiting: number; delayed: number; active: number }> };
}

export interface JobRunner {
  /** Graceful by default (waits for running jobs); force stops at once and leaves them to stalled recovery. */
  close(force?: boolean): Promise<void>;
  /** Takes jobs now (the worker's /readyz): false once closed, or while BullMQ's worker is not running. */
  running(): boolean;
}

export type JobHandlers = {
  customerCreation: (data: CustomerCreationJob, ctx: JobContext) => Promise<void>;
  /**
   * The queue gave up on a job without a final try of its handler: it stalled more often than allowed
   * (its workers died mid-run again and again), so BullMQ failed it unrun. The run must still end.
   */
  customerCreationAbandoned?: (data: CustomerCreationJob) => Promise<void>;
  /** Optional so a runner of creation jobs alone (tests) needs none; server/main.ts wires it in both modes. */
  kycPreparation?: (data: KycJob, ctx: JobContext) => Promise<void>;
  /** As customerCreationAbandoned, for a KYC preparation job. */
  kycPreparationAbandoned?: (data: KycJob) => Promise<void>;
};

/** The handler of a job name, or null when the runner has none. */
function handlerOf<N extends JobName>(handlers: JobHandlers, name: N): ((data: JobDataByName[N], ctx: JobContext) => Promise<void>) | null {
  return (handlers[name] as ((data: JobDataByName[N], ctx: JobContext) => Promise<void>) | undefined) ?? null;
}

function abandonedHandlerOf<N extends JobName>(handlers: JobHandlers, name: N): ((data: JobDataByName[N]) => Promise<void>) | null {
  const key = `${name}Abandoned` as const;
  return (handlers[key] as ((data: JobDataByName[N]) => Promise<void>) | undefined) ?? null;
}

/** BullMQ's reason for a job failed unrun after too many stalls. */
const STALL_LIMIT_REASON = 'job stalled more than allowable limit';

/** Transient failures (a thrown error) are retried: 5 tries, exponential backoff from this base. */
export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 1000;
const QUEUE_NAME = 'onboarding-jobs';

/** Exactly the job's fields: whatever else a caller's object carries never reaches the queue. */
function jobData<N extends JobName>(name: N, data: JobDataByName[N]): JobDataByName[N] {
  if (name === 'kycPreparation') {
    const d = data as KycJob;
    const kyc: KycJob = { prospectId: d.prospectId, runId: d.runId, phase: d.phase, attempt: d.attempt, locale: d.locale };
    return kyc as JobDataByName[N];
  }
  if (name === 'customerCreation') {
    const d = data as CustomerCreationJob;
    const creation: CustomerCreationJob = {
      prospectId: d.prospectId,
      runId: d.runId,
      phase: d.phase,
      attempt: d.attempt,
      ...(d.pollsFrom === undefined ? {} : { pollsFrom: d.pollsFrom }),
      ...(typeof d.creationPaused === 'boolean' ? { creationPaused: d.creationPaused } : {}),
      ...carriedRunFacts(d),
    };
    return creation as JobDataByName[N];
  }
  throw new Error(`unknown job name: ${String(name)}`);
}

function checkJobId(jobId: string | undefined): void {
  if (jobId !== undefined && (jobId.includes(':') || /^\d+$/.test(jobId))) {
    throw new Error(`job id must not contain ':' nor be a number: ${jobId}`);
  }
}

// --- BullMQ -----------------------------------------------------------------------

/**
 * BullMQ's connection: ioredis options of one node (BullMQ opens and closes its connections), or, with `cluster`, an
 * ioredis Cluster of `redisUrl`'s seeds that BullMQ uses and `close` ends after BullMQ let go of it.
 */
async function bullmqConnection(
  redisUrl: string,
  cluster: boolean | undefined,
  producer: { commandTimeoutMs: number } | null,
): Promise<{ connection: ConnectionOptions; close(): Promise<void> }> {
  const target = redisTarget(redisUrl, cluster ?? false);
  if (!target.cluster) {
    const connection = producer ? ioredisForProducer(target.url, producer.commandTimeoutMs) : ioredisForBullmq(target.url);
    return { connection, close: async () => {} };
  }
  const connection = await ioredisClusterForBullmq(target.seeds, producer ? { producer: true, ...producer } : { producer: false });
  return {
    connection,
    async close() {
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

export interface BullmqQueueOptions {
  /** One node's URL; with `cluster`, a Redis Cluster's seed nodes separated by commas (REDIS_URL, REDIS_CLUSTER). */
  redisUrl: string;
  cluster?: boolean;
  /** REDIS_PREFIX: BullMQ's keys are `{<prefix>}:…` (server/infra/keyLayout.ts). */
  prefix: string;
  backoffMs?: number;
  /**
   * Completed KYC jobs are kept this long so that a re-run of a stalled job adding the same next job id is
   * still deduplicated (creation jobs are not kept: see KEPT_AFTER_THE_END).
   */
  keepCompletedSeconds?: number;
  logger?: Pick<Logger, 'error'>;
  /** Each Redis command of an add gives up after this long (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs?: number;
}

/**
/**
 * Whether a job name's finished jobs stay in the queue. Thousands of creation runs poll side by side at peak, so
 * their jobs are removed the moment they end: what a run decided is in its creation events. A step added again after
 * its job was removed finds the run has moved on and does nothing (workers/customerCreationJob.ts adds the next step
 * before it publishes). KYC jobs are few and rely on the queue's deduplication of kept jobs.
 */
export const KEPT_AFTER_THE_END: Record<JobName, boolean> = { customerCreation: false, kycPreparation: true };

/**
 * BullMQ and its connection come with the first add (or `warmUp`), not at start: a web process answers its first
 * requests without loading BullMQ (a third of its start time); main.ts warms it up soon after.
 */
export function createBullmqQueue(options: BullmqQueueOptions): JobQueue & { warmUp(): Promise<void> } {
  let opened: Promise<Queue> | undefined;
  let closed = false;
  let connection: Awaited<ReturnType<typeof bullmqConnection>> | undefined;
  const open = () =>
    (opened ??= (async () => {
      const { Queue } = await import('bullmq');
      // A producer (the web process) fails a request rather than hang while Redis is away.
      connection = await bullmqConnection(options.redisUrl, options.cluster, { commandTimeoutMs: options.commandTimeoutMs ?? 1000 });
      return openBullmqQueue(Queue, connection.connection, options);
    })().catch((err: unknown) => {
      // The next add tries again.
      opened = undefined;
      throw err;
    }));
  return {
    async add(name, data, opts = {}) {
      checkJobId(opts.jobId);
      // Shutting down (Redis is about to close): the request answers 503 as for Redis away (server/errors.ts).
      if (closed && !opened) throw new RedisUnavailableError('job queue closed');
      const queue = await open();
      // BullMQ ignores an add whose jobId exists (waiting, delayed, active, or kept completed).
      const removed = KEPT_AFTER_THE_END[name] ? {} : { removeOnComplete: true, removeOnFail: true };
      await queue.add(name, jobData(name, data), { jobId: opts.jobId, delay: opts.delayMs, ...removed });
    },
    async warmUp() {
      if (!closed) await open();
    },
    async close() {
      closed = true;
      if (opened) await (await opened).close();
      await connection?.close();
    },
    depth: {
      queue: QUEUE_NAME,
      async counts() {
        const c = await (await open()).getJobCounts('waiting', 'delayed', 'active');
        return { waiting: c.waiting ?? 0, delayed: c.delayed ?? 0, active: c.active ?? 0 };
      },
    },
  };
}

function openBullmqQueue(QueueClass: typeof Queue, connection: ConnectionOptions, options: BullmqQueueOptions): Queue {
  const queue = new QueueClass(QUEUE_NAME, {
    connection,
    prefix: bullmqPrefix(options.prefix),
    defaultJobOptions: {
      attempts: JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: options.backoffMs ?? JOB_BACKOFF_MS },
      removeOnComplete: { age: options.keepCompletedSeconds ?? 3600 },
      removeOnFail: { age: 24 * 3600 },
    },
  });
  // Connection errors are retried by ioredis; the listener keeps them from crashing the process.
  queue.on('error', (err) => options.logger?.error({ err }, 'job queue error'));
  return queue;
}

export interface BullmqRunnerOptions {
  /** As BullmqQueueOptions. */
  redisUrl: string;
  cluster?: boolean;
  prefix: string;
  handlers: JobHandlers;
  /** A job whose lock is not renewed within this time is considered stalled and run again. */
  lockDurationMs?: number;
  concurrency?: number;
  logger: Logger;
}

export async function startBullmqRunner(options: BullmqRunnerOptions): Promise<JobRunner> {
  const { logger, handlers } = options;
  const lockDuration = options.lockDurationMs ?? 30_000;
  const { Worker, UnrecoverableError } = await import('bullmq');
  const connection = await bullmqConnection(options.redisUrl, options.cluster, null);
  const worker = new Worker(
    QUEUE_NAME,
    async (job: Job) => {
      const handler = isJobName(job.name) ? handlerOf(handlers, job.name) : null;
      if (!handler) throw new UnrecoverableError(`no handler for job ${job.name}`);
      const attempt = job.attemptsMade + 1;
      const ctx: JobContext = { jobId: job.id ?? '', attempt, finalAttempt: attempt >= (job.opts.attempts ?? 1) };
      await handler(job.data as never, ctx);
    },
    {
      connection: connection.connection,
      prefix: bullmqPrefix(options.prefix),
      concurrency: options.concurrency ?? 50,
      lockDuration,
      // Check for stalled jobs as often as a lock can expire, so a killed worker's job returns promptly.
      stalledInterval: lockDuration,
      maxStalledCount: 2,
    },
  );
  // Only ids and error messages.
  worker.on('error', (err) => logger.error({ err }, 'job runner error'));
  worker.on('failed', (job, err) => {
    logger.warn({ jobName: job?.name, jobId: job?.id, attemptsMade: job?.attemptsMade, err }, 'job failed');
    // A handler that threw is retried, and on its final try records the outcome itself; a job failed
    // unrun for its stalls never reached the handler, so it is told here.
    const abandoned = job && err.message === STALL_LIMIT_REASON && isJobName(job.name) ? abandonedHandlerOf(handlers, job.name) : null;
    if (job && abandoned) {
      abandoned(job.data as never).catch((e: Error) => logger.error({ jobId: job.id, err: e }, 'abandoned job not recorded'));
    }
  });
  worker.on('stalled', (jobId) => logger.warn({ jobId }, 'job stalled, will run again'));
  await worker.waitUntilReady();
  return {
    async close(force = false) {
      await worker.close(force);
      await connection.close();
    },
    running: () => worker.isRunning(),
  };
}

// --- in-process -------------------------------------------------------------------

export interface MemoryJobRunner extends JobRunner {
  /** Starts running jobs (held until then), so handlers can be built with the queue. */
  start(handlers: JobHandlers): MemoryJobRunner;
  /** Resolves when no job is scheduled or running (tests). */
  idle(): Promise<void>;
}

export interface MemoryJobQueue extends JobQueue {
  runner: MemoryJobRunner;
  /** Same as runner.start. */
  startRunner(handlers: JobHandlers): MemoryJobRunner;
}

export function createMemoryQueue(options: { backoffMs?: number; logger?: Logger } = {}): MemoryJobQueue {
  const backoffMs = options.backoffMs ?? JOB_BACKOFF_MS;
  const seen = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const held: Array<() => void> = [];
  let handlers: JobHandlers | null = null;
  let running = 0;
  let closed = false;
  let idleWaiters: Array<() => void> = [];
  let autoId = 0;
  // A job is added from inside a request (the creation page starts the run), and a timer runs in the async
  // context it was created in: without this, every job, its retries and the polls it enqueues would run
  // under that request's deadline (server/infra/deadline.ts) and fail once it passed, as BullMQ's jobs
  // never do. Timers are created in the context the queue was built in (start-up), outside any request.
  const atCreation = AsyncLocalStorage.snapshot();
  const detached = <T>(fn: () => T): T => atCreation(() => outsideRequest(fn));

  function settle() {
    if (timers.size === 0 && running === 0 && held.length === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  function schedule(delayMs: number, fn: () => void) {
    if (closed) return;
    if (!handlers) {
      held.push(() => schedule(delayMs, fn));
      return;
    }
    const t = detached(() =>
      setTimeout(() => {
        timers.delete(t);
        fn();
      }, delayMs),
    );
    timers.add(t);
  }

  function run<N extends JobName>(name: N, jobId: string, data: JobDataByName[N], attempt: number) {
    if (closed || !handlers) return;
    const handler = handlerOf(handlers, name);
    if (!handler) {
      // As BullMQ's runner: a job nobody handles fails for good.
      options.logger?.error({ jobName: name, jobId }, 'no handler for job');
      return;
    }
    running++;
    const ctx: JobContext = { jobId, attempt, finalAttempt: attempt >= JOB_ATTEMPTS };
    let retried = false;
    handler(data, ctx)
      .catch((err: Error) => {
        options.logger?.warn({ jobName: name, jobId, attempt, err }, 'job failed');
        retried = attempt < JOB_ATTEMPTS;
        if (retried) schedule(backoffMs * 2 ** (attempt - 1), () => run(name, jobId, data, attempt + 1));
      })
      .finally(() => {
        // As BullMQ's queue: the id of a job that has ended, and is not kept, can be added again.
        if (!retried && !KEPT_AFTER_THE_END[name]) seen.delete(jobId);
        running--;
        settle();
      });
  }

  const runner: MemoryJobRunner = {
    start(h) {
      handlers = h;
      for (const resume of held.splice(0)) resume();
      settle();
      return runner;
    },
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settle();
      });
    },
    running: () => !closed,
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      held.length = 0;
      while (running > 0) await new Promise((r) => setTimeout(r, 5));
      settle();
    },
  };

  return {
    runner,
    startRunner: (h) => runner.start(h),
    async add(name, data, opts = {}) {
      checkJobId(opts.jobId);
      const jobId = opts.jobId ?? `job-${++autoId}`;
      if (seen.has(jobId)) return;
      seen.add(jobId);
      const copy = jobData(name, data);
      schedule(opts.delayMs ?? 0, () => run(name, jobId, copy, 1));
    },
    async close() {
      await runner.close();
    },
  };
}
