// A KYC preparation job that stalls more often than BullMQ allows (its worker killed mid-run again and
// again) is failed by the queue without the handler's final try. As for the creation job
// (creationStalledForGood.test.ts), the runner tells the KYC job, which ends the run with the error state
// unless the run has ended or moved on, so the step's loader does not wait forever.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { deleteRedisKeys, until } from '../support/redisKeys.ts';
import { createBullmqQueue, startBullmqRunner, type JobQueue, type JobRunner } from '../../server/infra/jobQueue.ts';
import { createMemoryCreationCredentials } from '../../server/infra/creationCredentials.ts';
import { createMemoryKycStates } from '../../server/infra/kycStates.ts';
import { enqueueKycPreparation } from '../../server/infra/kycJobs.ts';
import { createKycPreparationAbandoned, createKycPreparationJob, type KycBrokerage } from '../../workers/kycPreparationJob.ts';
import { REDIS_URL } from '../support/stack.ts';

const PREFIX = `test-kyc-stalled-${process.pid}-${Date.now()}`;
const logger = pino({ level: 'silent' });

describe('KYC preparation job stalled more often than the queue allows', () => {
  const opened: Array<JobQueue | JobRunner> = [];
  afterEach(async () => {
    for (const o of opened.splice(0).reverse()) await o.close();
  });
  afterAll(() => deleteRedisKeys(PREFIX));

  it('ends the run with the error state once the queue gives up, with no handler run after the give-up', async () => {
    const lockDurationMs = 400;
    const states = createMemoryKycStates();
    const credentials = createMemoryCreationCredentials({ key: randomBytes(32) });
    let startCalls = 0;
    // A brokerage whose answer-session start never answers: every run of the job hangs until its worker dies.
    const brokerage: KycBrokerage = {
      refreshToken: async () => ({ jwt: 'access' }),
      startAnswerSession: () => {
        startCalls++;
        return new Promise(() => {});
      },
      riskCalculation: async () => ({ done: true }),
      submitKycStep: async () => ({ ok: true }),
    };
    const queue = createBullmqQueue({ redisUrl: REDIS_URL, prefix: PREFIX, backoffMs: 50 });
    opened.push(queue);
    const deps = { brokerage, credentials, states, queue, logger, startIntervalMs: 10 };
    const kycPreparation = createKycPreparationJob(deps);
    const kycPreparationAbandoned = createKycPreparationAbandoned(deps);
    const startRunner = () =>
      startBullmqRunner({
        redisUrl: REDIS_URL,
        prefix: PREFIX,
        logger,
        lockDurationMs,
        handlers: { customerCreation: async () => {}, kycPreparation, kycPreparationAbandoned },
      });

    await enqueueKycPreparation({ queue, credentials }, { prospectId: 'p-stall', runId: 'kyc-1', locale: 'en', credentials: { refreshToken: 'refresh' } });
    // Three workers die mid-run (a forced close leaves the job to stalled-job detection, as a killed process does).
    for (let run = 1; run <= 3; run++) {
      const runner = await startRunner();
      await until(() => startCalls === run, 10 * lockDurationMs + 3000);
      await runner.close(true);
    }
    expect(await states.latest('p-stall')).toBeNull();
    // The next worker finds the job over the stall limit: the queue fails it without running the handler.
    const last = await startRunner();
    opened.push(last);
    await until(async () => (await states.latest('p-stall')) !== null, 10 * lockDurationMs + 3000);
    expect(await states.latest('p-stall')).toMatchObject({ prospectId: 'p-stall', runId: 'kyc-1', status: 'error', attempt: 1 });
    expect(startCalls).toBe(3);
    expect(await credentials.get('p-stall', 'kyc-1')).toBeNull();
  });
});
