import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { bullmqJobKey, deleteRedisKeys, REDIS_URL, until } from '../support/redisKeys.ts';
import { createClient } from 'redis';
import {
  createBullmqQueue,
  createMemoryQueue,
  startBullmqRunner,
  type CustomerCreationJob,
  type JobContext,
  type JobQueue,
  type JobRunner,
  type KycJob,
} from '../../server/infra/jobQueue.ts';

const PREFIX = `test-jobs-${process.pid}-${Date.now()}`;
const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const data = (attempt: number): CustomerCreationJob => ({ prospectId: 'p-1', phase: 'poll', attempt, runId: 'r1' });

type Ran = { jobId: string; attempt: number; finalAttempt: boolean; at: number; data: CustomerCreationJob };

describe('BullMQ queue and runner', () => {
  const opened: Array<JobQueue | JobRunner> = [];
  const children: ChildProcess[] = [];
  let testNo = 0;

  // A fresh prefix per test keeps one test's jobs from reaching another test's runner.
  async function setup(opts: { lockDurationMs?: number; handler?: (d: CustomerCreationJob, c: JobContext) => Promise<void> } = {}) {
    const prefix = `${PREFIX}-${++testNo}`;
    const ran: Ran[] = [];
    const kycRan: Array<{ jobId: string; attempt: number; data: KycJob }> = [];
    const queue = createBullmqQueue({ redisUrl: REDIS_URL, prefix, backoffMs: 50 });
    opened.push(queue);
    const handler = opts.handler ?? (async () => {});
    const startRunner = async () => {
      const runner = await startBullmqRunner({
        redisUrl: REDIS_URL,
        prefix,
        logger,
        concurrency: 5,
        lockDurationMs: opts.lockDurationMs ?? 30_000,
        handlers: {
          customerCreation: async (d, c) => {
            ran.push({ jobId: c.jobId, attempt: c.attempt, finalAttempt: c.finalAttempt, at: Date.now(), data: d });
            await handler(d, c);
          },
          kycPreparation: async (d, c) => {
            kycRan.push({ jobId: c.jobId, attempt: c.attempt, data: d });
          },
        },
      });
      opened.push(runner);
      return runner;
    };
    return { prefix, queue, ran, kycRan, startRunner };
  }

  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const o of opened.splice(0).reverse()) await o.close();
  });

  afterAll(() => deleteRedisKeys(PREFIX));

  it('runs a delayed job after its delay', async () => {
    const { queue, ran, startRunner } = await setup();
    await startRunner();
    const added = Date.now();
    await queue.add('customerCreation', data(1), { delayMs: 300, jobId: 'creation-p-1-r1-poll-1' });
    await until(() => ran.length === 1);
    expect(ran[0]!.at - added).toBeGreaterThanOrEqual(280);
    expect(ran[0]).toMatchObject({ jobId: 'creation-p-1-r1-poll-1', attempt: 1, finalAttempt: false, data: data(1) });
  });

  it('does not add a job whose id exists while it waits; once ended, a creation job is gone at once, a KYC job is kept', async () => {
    const { prefix, queue, ran, kycRan, startRunner } = await setup();
    const kyc: KycJob = { prospectId: 'p-1', runId: 'kyc-1', phase: 'start', attempt: 1, locale: 'sv-SE' };
    await queue.add('customerCreation', data(1), { delayMs: 100, jobId: 'creation-p-1-r1-poll-1' });
    await queue.add('customerCreation', data(1), { delayMs: 100, jobId: 'creation-p-1-r1-poll-1' });
    await queue.add('kycPreparation', kyc, { delayMs: 100, jobId: 'kyc-p-1-kyc-1-start-1' });
    await queue.add('kycPreparation', kyc, { delayMs: 100, jobId: 'kyc-p-1-kyc-1-start-1' });
    await startRunner();
    await until(() => ran.length >= 1 && kycRan.length >= 1);
    await sleep(200);
    // Thousands of creation runs poll at peak; none of their finished jobs stays in Redis.
    const c = createClient({ url: REDIS_URL });
    await c.connect();
    const creationJob = await c.exists(bullmqJobKey(prefix, 'creation-p-1-r1-poll-1'));
    const kycJob = await c.exists(bullmqJobKey(prefix, 'kyc-p-1-kyc-1-start-1'));
    await c.quit();
    expect({ creationJob, kycJob }).toEqual({ creationJob: 0, kycJob: 1 });
    // The kept KYC job still deduplicates; the creation job's id is free again (the job itself tells a re-added
    // step from a new one: workers/customerCreationJob.ts).
    await queue.add('kycPreparation', kyc, { jobId: 'kyc-p-1-kyc-1-start-1' });
    await queue.add('customerCreation', data(1), { jobId: 'creation-p-1-r1-poll-1' });
    await until(() => ran.length >= 2);
    await sleep(300);
    expect({ creation: ran.length, kyc: kycRan.length }).toEqual({ creation: 2, kyc: 1 });
  });

  it("stores exactly the job's fields: a token a caller slips in never reaches Redis", async () => {
    const { prefix, queue, ran, startRunner } = await setup();
    const leaky = { ...data(1), jwt: 'secret-access-token', refreshToken: 'secret-refresh-token' } as CustomerCreationJob;
    await queue.add('customerCreation', leaky, { jobId: 'creation-p-1-r1-poll-1' });
    const c = createClient({ url: REDIS_URL });
    await c.connect();
    const stored = await c.hGetAll(bullmqJobKey(prefix, 'creation-p-1-r1-poll-1'));
    await c.quit();
    expect(JSON.parse(stored.data!)).toEqual(data(1));
    await startRunner();
    await until(() => ran.length === 1);
    expect(ran[0]!.data).toEqual(data(1));
  });

  it("a 'kycPreparation' job reaches its own handler with exactly its fields", async () => {
    const { prefix, queue, ran, kycRan, startRunner } = await setup();
    const kyc: KycJob = { prospectId: 'p-1', runId: 'kyc-1', phase: 'start', attempt: 2, locale: 'sv-SE' };
    await queue.add('kycPreparation', { ...kyc, refreshToken: 'secret-refresh-token' } as KycJob, { delayMs: 50, jobId: 'kyc-p-1-kyc-1-start-2' });
    const c = createClient({ url: REDIS_URL });
    await c.connect();
    const stored = await c.hGetAll(bullmqJobKey(prefix, 'kyc-p-1-kyc-1-start-2'));
    await c.quit();
    expect(JSON.parse(stored.data!)).toEqual(kyc);
    await startRunner();
    await until(() => kycRan.length === 1);
    expect(kycRan[0]).toEqual({ jobId: 'kyc-p-1-kyc-1-start-2', attempt: 1, data: kyc });
    expect(ran).toHaveLength(0);
  });

  it('refuses job ids with a colon', async () => {
    const { queue } = await setup();
    await expect(queue.add('customerCreation', data(1), { jobId: 'creation:p-1' })).rejects.toThrow(/must not contain/);
  });

  it('retries a throwing job with backoff, telling the handler which try is the last', async () => {
    const { queue, ran, startRunner } = await setup({
      handler: async () => {
        throw new Error('brokerage unreachable');
      },
    });
    await startRunner();
    await queue.add('customerCreation', data(1), { jobId: 'creation-p-1-r1-poll-1' });
    await until(() => ran.length === 5, 8000);
    expect(ran.map((r) => [r.attempt, r.finalAttempt])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, true],
    ]);
    // Exponential: each gap at least the previous one.
    const gaps = ran.slice(1).map((r, i) => r.at - ran[i]!.at);
    expect(gaps[3]!).toBeGreaterThan(gaps[0]!);
    await sleep(300);
    expect(ran).toHaveLength(5);
  });

  it('recovers a job from a worker process killed mid-run (stalled-job detection)', async () => {
    const lockDurationMs = 1000;
    const { prefix, queue, ran, startRunner } = await setup({ lockDurationMs });
    const fixture = fileURLToPath(new URL('./fixtures/bullmqRunnerChild.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
      env: { ...process.env, TEST_REDIS_URL: REDIS_URL, TEST_PREFIX: prefix, TEST_LOCK_MS: String(lockDurationMs) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (chunk) => (out += String(chunk)));
    await until(() => out.includes('ready'), 10_000);

    await queue.add('customerCreation', data(7), { jobId: 'creation-p-1-r1-poll-7' });
    await until(() => out.includes('started creation-p-1-r1-poll-7 7'));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(ran).toHaveLength(0);

    const killedAt = Date.now();
    await startRunner();
    await until(() => ran.length === 1, 4 * lockDurationMs + 2000);
    expect(ran[0]).toMatchObject({ jobId: 'creation-p-1-r1-poll-7', data: data(7) });
    expect(Date.now() - killedAt).toBeLessThan(4 * lockDurationMs + 1000);
  });
});

describe('in-process queue', () => {
  it('delays, deduplicates by job id, and retries a throwing job five times with backoff', async () => {
    const queue = createMemoryQueue({ backoffMs: 5 });
    const ran: Array<{ jobId: string; attempt: number; finalAttempt: boolean; at: number }> = [];
    // Jobs added before the runner starts wait for it.
    const added = Date.now();
    await queue.add('customerCreation', data(1), { delayMs: 50, jobId: 'ok-1' });
    await queue.add('customerCreation', data(1), { delayMs: 50, jobId: 'ok-1' });
    await queue.add('customerCreation', data(2), { jobId: 'fails-2' });
    queue.runner.start({
      customerCreation: async (d, c) => {
        ran.push({ jobId: c.jobId, attempt: c.attempt, finalAttempt: c.finalAttempt, at: Date.now() });
        if (d.attempt === 2) throw new Error('transient');
      },
    });
    await queue.runner.idle();
    const ok = ran.filter((r) => r.jobId === 'ok-1');
    expect(ok).toHaveLength(1);
    expect(ok[0]!.at - added).toBeGreaterThanOrEqual(45);
    const failing = ran.filter((r) => r.jobId === 'fails-2');
    expect(failing.map((r) => [r.attempt, r.finalAttempt])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, true],
    ]);
    // As BullMQ's queue: a creation job is not kept once it has ended, so its id can be added again.
    await queue.add('customerCreation', data(1), { jobId: 'ok-1' });
    await queue.runner.idle();
    expect(ran.filter((r) => r.jobId === 'ok-1')).toHaveLength(2);
    await queue.close();
  });
});
