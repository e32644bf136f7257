// Routing after identification (identification-routing-creation §4) creates the prospect at the brokerage. It is
// reached by a redirect, so a person with two tabs (or a reload while it runs) sends it twice at once. Before, the
// route ran outside the session lock: both requests read a journey without a prospect and each created one, and
// the session kept whichever wrote last. Now it is serialised like the other routes that change the journey
// (server/infra/sessionLocks.ts): the second waits, re-reads the session, and goes on to the same prospect.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { identifyBeforeRouting } from '../support/journey.ts';

let stack: Stack;
beforeAll(async () => {
  // The 2 s wait after the intent (here 400 ms) is the window in which the second request arrives.
  stack = await startEmbeddedStack({ INTENT_WAIT_MS: '400' });
});
afterAll(async () => stack?.stop());

describe('routing twice at once (two tabs, a reload)', () => {
  it('creates one prospect, and both requests lead to it', async () => {
    const agent = request.agent(stack.webUrl);
    await identifyBeforeRouting(agent, stack.sandboxUrl, 'contactInformation');

    const [first, second] = await Promise.all([agent.get('/onboarding/routing'), agent.get('/onboarding/routing')]);

    const calls = (await request(stack.sandboxUrl).get('/sandbox/brokerage-calls').expect(200)).body.calls as { method: string; path: string }[];
    expect(calls.filter((c) => c.method === 'POST' && c.path === brokeragePaths.prospectsV3)).toHaveLength(1);
    expect(first.status).toBe(303);
    expect(second.status).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    expect(first.headers.location).toMatch(/^\/onboarding\/customer-information\//);
  });
});
