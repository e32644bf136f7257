// While the brokerage's system-status call failed, every creation poll failed with it, and after about 16 s the person
// saw "Something went wrong" though the customer was being created. The status only tells whether creation is paused
// (identification-routing-creation §4, rule 3), so a poll now decides with the status its run last read, or with none.
// The sandbox's system status fails for 40 s from before the run starts, so every poll meets the failure; the
// creationSlow persona is created after 8 queued polls.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { logCapture, startEmbeddedStack, type Stack } from '../support/stack.ts';
import { signOverHttp } from '../support/customerInformation.ts';
import { finalCreationOutcome } from '../support/sse.ts';

let stack: Stack;
const logs = logCapture();

beforeAll(async () => {
  stack = await startEmbeddedStack({ LOG_LEVEL: 'info' }, { logDestination: logs.stream });
});
afterAll(async () => stack?.stop());

describe('a creation while the system status fails', () => {
  it('system status failing for 40 s during creation: the run ends done', { timeout: 60_000 }, async () => {
    const { agent, prospectId } = await signOverHttp(stack.webUrl, stack.sandboxUrl, 'creationSlow');
    await request(stack.sandboxUrl).post('/sandbox/system-status').send({ failing: true, failingForMs: 40_000 }).expect(200);

    // Long enough for the queue's every retry of a failing step (1 + 2 + 4 + 8 s of backoff) to have given up.
    expect(await finalCreationOutcome(stack.webUrl, agent, prospectId, 40_000)).toBe('done');
    // The status was failing all along: it still is once the run has ended, and the polls met the failure.
    await request(stack.sandboxUrl).get(brokeragePaths.systemStatus).expect(503);
    const polls = logs.logged('system status failed; the poll decides with the last known status').filter((l) => l.prospectId === prospectId);
    expect(polls.length).toBeGreaterThanOrEqual(8);
    expect(logs.logged('customer creation step failed, will retry').filter((l) => l.prospectId === prospectId)).toEqual([]);
  });
});
