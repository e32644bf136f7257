// Under `npm start` (in-memory mode) every customer creation that took longer than the request deadline failed: the
// in-memory queue scheduled its jobs from inside the request that started the run, so they inherited its deadline
// (AsyncLocalStorage) and the person saw "Something went wrong". Background work must never run under a request's
// deadline. Short timings show it in seconds: polls every 150 ms and a 1 s deadline, which the creationSlow run (created
// after 8 polls) passes before its 9th poll and the creationStuck run long before its 45th.
import { Writable } from 'node:stream';
import type request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { signOverHttp } from '../support/customerInformation.ts';
import { finalCreationOutcome } from '../support/sse.ts';

const REQUEST_DEADLINE_MS = 1000;
const CREATION_POLL_MS = 150;

let stack: Stack;
const logLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  // Without REDIS_URL: the in-memory queue of `npm start`.
  stack = await startEmbeddedStack(
    {
      REQUEST_DEADLINE_MS: String(REQUEST_DEADLINE_MS),
      CREATION_POLL_MS: String(CREATION_POLL_MS),
      LOG_LEVEL: 'info',
      BANKID_STARTS_PER_IP_PER_MINUTE: '1000',
    },
    { logDestination: sink },
  );
});

afterAll(async () => {
  await stack?.stop();
});

const creationPage = (prospectId: string) => `/onboarding/customer-creation/${encodeURIComponent(prospectId)}`;

/** Identified as the scenario's persona, every step answered and the agreements signed: the run starts on the creation page. */
async function signedProspect(scenario: string): Promise<{ agent: ReturnType<typeof request.agent>; prospectId: string }> {
  return signOverHttp(stack.webUrl, stack.sandboxUrl, scenario);
}

const pollsOf = (prospectId: string) => logLines.filter((l) => l.msg === 'customer creation poll' && l.prospectId === prospectId);
const failuresOf = (prospectId: string) =>
  logLines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('customer creation step failed') && l.prospectId === prospectId);

describe('creation dies under the request deadline (in-memory mode, as `npm start`)', () => {
  it('creationSlow is created although its polls run long after the deadline of the request that started it', async () => {
    const { agent, prospectId } = await signedProspect('creationSlow');
    const outcome = await finalCreationOutcome(stack.webUrl, agent, prospectId, 40_000);
    expect(outcome).toBe('done');
    expect(failuresOf(prospectId).map((l) => l.err)).toEqual([]);
    expect((await agent.get(creationPage(prospectId)).expect(200)).text).toContain('Agreements signed');
  });

  it('creationStuck polls until the 45th poll and ends with maxPollingTries', async () => {
    const { agent, prospectId } = await signedProspect('creationStuck');
    const outcome = await finalCreationOutcome(stack.webUrl, agent, prospectId, 45_000);
    expect(outcome).toBe('maxPollingTries');
    expect(failuresOf(prospectId).map((l) => l.err)).toEqual([]);
    const finalPoll = pollsOf(prospectId).find((l) => l.outcome === 'maxPollingTries');
    expect(finalPoll?.attempt).toBe(45);
  });
});
