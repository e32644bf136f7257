// Every poll of a run is due on the run's grid (shared/creationJobContract.ts nextPoll): a poll that runs late does not
// move the polls after it. Queued 2 s after the previous one finished, lateness added up under load and the 45th poll
// landed at 120–126 s instead of on time.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMemoryLoginHandoffs } from '../../server/infra/loginHandoffs.ts';
import { createMemoryCreationCredentials } from '../../server/infra/creationCredentials.ts';
import { createMemoryCreationEvents } from '../../server/infra/creationEvents.ts';
import { createMemoryAfterCreationRecords } from '../../server/infra/afterCreationRecords.ts';
import { nextPoll, type CustomerCreationJob, type JobAddOptions } from '../../shared/creationJobContract.ts';
import { createCustomerCreationJob } from '../../workers/customerCreationJob.ts';
import { done, fakeBrokerage, PROSPECT, REFRESH, st } from '../support/creationJobFakes.ts';

const INTERVAL = 2000;

describe('nextPoll: the run grid', () => {
  const T0 = Date.UTC(2026, 10, 27, 12);
  it.each([
    // [what, job's pollsFrom, attempt, now, expected pollsFrom, expected delay]
    ['the first poll, queued by the start phase', undefined, 1, T0, T0, 2000],
    ['poll 2, queued on time', T0, 2, T0 + 2000, T0, 2000],
    ['poll 2, queued 1.5 s late: still due at 4 s', T0, 2, T0 + 3500, T0, 500],
    ['poll 45, the final one: due at 90 s', T0, 45, T0 + 88_300, T0, 1700],
    ['a poll queued after its due time: at once, never a negative delay', T0, 10, T0 + 25_000, T0, 0],
    ['a job from before the grid was carried: the next poll an interval on', undefined, 7, T0, T0 - 6 * 2000, 2000],
    ['an unreadable grid is treated as none', 'soon' as unknown as number, 3, T0, T0 - 2 * 2000, 2000],
  ])('%s', (_what, pollsFrom, attempt, now, expectedFrom, expectedDelay) => {
    expect(nextPoll({ pollsFrom }, attempt, INTERVAL, now)).toEqual({ pollsFrom: expectedFrom, delayMs: expectedDelay });
  });
});

describe('customer creation job on a loaded worker', () => {
  it('keeps every poll on the grid when each runs 1.5 s late: the 45th is due 90 s after the first was queued', async () => {
    let clock = Date.UTC(2026, 10, 27, 12);
    const added: Array<{ data: CustomerCreationJob; dueAt: number }> = [];
    const fake = fakeBrokerage({ initial: st(), polls: [...Array.from({ length: 44 }, () => st()), done] });
    const credentials = createMemoryCreationCredentials({ key: randomBytes(32) });
    const events = createMemoryCreationEvents();
    const job = createCustomerCreationJob({
      brokerage: fake.brokerage,
      credentials,
      events,
      records: createMemoryAfterCreationRecords(),
      loginHandoffs: createMemoryLoginHandoffs({ key: randomBytes(32) }),
      queue: {
        async add(_name: 'customerCreation', data: CustomerCreationJob, opts?: JobAddOptions) {
          added.push({ data, dueAt: clock + (opts?.delayMs ?? 0) });
        },
      },
      logger: pino({ level: 'silent' }),
      pollIntervalMs: INTERVAL,
      maxPollingTries: 45,
      now: () => new Date(clock),
    });
    await credentials.put(PROSPECT, '1', { refreshToken: REFRESH });
    const queuedAt = clock;
    await job({ prospectId: PROSPECT, runId: '1', phase: 'start', attempt: 0 });
    // Each poll runs 1.5 s after it was due, and takes 300 ms.
    for (let polled = 0; polled < 45; polled++) {
      const next = added.at(-1)!;
      expect(next.data.attempt).toBe(polled + 1);
      clock = next.dueAt + 1500;
      const runningAt = clock;
      clock += 300;
      await job(next.data);
      expect(runningAt - 1500).toBe(queuedAt + (polled + 1) * INTERVAL);
    }
    expect(added.map((a) => a.dueAt - queuedAt)).toEqual(Array.from({ length: 45 }, (_, i) => (i + 1) * INTERVAL));
    expect(added.at(-1)!.dueAt - added[0]!.dueAt).toBe(88_000);
    await events.close();
  });
});
