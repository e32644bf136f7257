// Defect: a creation run whose job stalls more often than BullMQ allows (its worker killed mid-run again
// and again) was failed by the queue without the handler's final try, so no final outcome was ever
// published and the person's creation page waited forever (identification-routing-creation §4: every run
// ends in an outcome). Fixed: the runner tells the job when the queue gives up on it, and the job
// publishes the generic error (unspecifiedApiResponseError) unless the run already has its outcome.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { deleteRedisKeys, until } from '../support/redisKeys.ts';
import { createBullmqQueue, startBullmqRunner, type JobQueue, type JobRunner } from '../../server/infra/jobQueue.ts';
import { createMemoryCreationEvents } from '../../server/infra/creationEvents.ts';
import { createMemoryLoginHandoffs } from '../../server/infra/loginHandoffs.ts';
import { createMemoryCreationCredentials } from '../../server/infra/creationCredentials.ts';
import { createMemoryAfterCreationRecords } from '../../server/infra/afterCreationRecords.ts';
import { enqueueCustomerCreation } from '../../server/infra/creationJobs.ts';
import { createCustomerCreationAbandoned, createCustomerCreationJob, type CreationBrokerage } from '../../workers/customerCreationJob.ts';
import { REDIS_URL } from '../support/stack.ts';

const PREFIX = `test-stalled-${process.pid}-${Date.now()}`;
const logger = pino({ level: 'silent' });

describe('creation job stalled more often than the queue allows', () => {
  const opened: Array<JobQueue | JobRunner> = [];
  afterEach(async () => {
    for (const o of opened.splice(0).reverse()) await o.close();
  });
  afterAll(() => deleteRedisKeys(PREFIX));

  it('ends the run with the generic error once the queue gives up, with no handler run after the give-up', async () => {
    const lockDurationMs = 400;
    const events = createMemoryCreationEvents();
    const credentials = createMemoryCreationCredentials({ key: randomBytes(32) });
    let statusCalls = 0;
    // A brokerage whose creation status never answers: every run of the job hangs until its worker dies.
    const brokerage: CreationBrokerage = {
      refreshToken: async () => ({ jwt: 'access' }),
      systemStatus: async () => ({ creationPaused: false }),
      creationStatus: () => {
        statusCalls++;
        return new Promise(() => {});
      },
      createCustomer: async () => ({ ok: true, status: 204 }),
      startLoginSession: async () => ({ handoffCode: 'A'.repeat(43), expiresInSeconds: 300 }),
      affiliateConversion: async () => ({ leadNumber: 'L-1' }),
    };
    const queue = createBullmqQueue({ redisUrl: REDIS_URL, prefix: PREFIX, backoffMs: 50 });
    opened.push(queue);
    const records = createMemoryAfterCreationRecords();
    const loginHandoffs = createMemoryLoginHandoffs({ key: randomBytes(32) });
    const deps = { brokerage, credentials, events, records, loginHandoffs, queue, logger, pollIntervalMs: 50, maxPollingTries: 5 };
    const customerCreation = createCustomerCreationJob(deps);
    const customerCreationAbandoned = createCustomerCreationAbandoned(deps);
    const startRunner = () =>
      startBullmqRunner({ redisUrl: REDIS_URL, prefix: PREFIX, logger, lockDurationMs, handlers: { customerCreation, customerCreationAbandoned } });

    await enqueueCustomerCreation({ queue, credentials }, { prospectId: 'p-stall', runId: '1', credentials: { refreshToken: 'refresh' } });
    // Three workers die mid-run (a forced close leaves the job to stalled-job detection, as a killed process does).
    for (let run = 1; run <= 3; run++) {
      const runner = await startRunner();
      await until(() => statusCalls === run, 10 * lockDurationMs + 3000);
      await runner.close(true);
    }
    expect(await events.latest('p-stall')).toBeNull();
    // The next worker finds the job over the stall limit: the queue fails it without running the handler.
    const last = await startRunner();
    opened.push(last);
    await until(async () => (await events.latest('p-stall')) !== null, 10 * lockDurationMs + 3000);
    expect((await events.latest('p-stall'))!.state).toMatchObject({ prospectId: 'p-stall', runId: '1', outcome: 'unspecifiedApiResponseError' });
    expect(statusCalls).toBe(3);
    // Polling stopped there: the run's outcome is tracked, once.
    expect(records.trackingClaims()).toBe(1);
    // The run's credentials are gone with it.
    expect(await credentials.get('p-stall', '1')).toBeNull();
  });
});
