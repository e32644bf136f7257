// Signing from the step flow over HTTP (customer-information §4.8, §8 "Signature 403"): milestone three posts
// its step, requests the signing URL and sends the browser there; coming back, its button re-opens the same
// URL; a 403 on the signature request is high risk, not an expired session.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { answerStepsOverHttp, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp } from '../support/journey.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

const post = (agent: Agent, page: string, body: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body);

/** Identified as the persona, every step answered up to milestone three. */
async function atMilestoneThree(agent: Agent, scenario: string): Promise<string> {
  const { page } = await identifyOverHttp(agent, stack.sandboxUrl, scenario);
  await answerStepsOverHttp(
    async () => (await agent.get(page)).text,
    async (body) => void (await post(agent, page, body).expect(303)),
  );
  expect(screenOf((await agent.get(page)).text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
  return page;
}

const SIGN = 'step=MILESTONE_THREE_STEP&screen=milestone';

describe('signing from milestone three', () => {
  it('a 403 on the signature request shows the high-risk text, not "Your session has expired"', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThree(agent, 'signatureHighRisk');
    const refused = await post(agent, page, SIGN).expect(403);
    expect(refused.text).toContain('Unfortunately, we could not process your application at this moment. Additional information is needed.');
    expect(refused.text).not.toContain('Your session has expired');
    expect(screenOf(refused.text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
  });

  it('coming back, the button re-opens the same signing URL without a second request', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThree(agent, 'accounts');
    const first = (await post(agent, page, SIGN).expect(303)).headers.location as string;
    expect(first).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    // Back from the signing page (its postpone link): the same page, whose button re-opens that signing.
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    expect((await post(agent, page, SIGN).expect(303)).headers.location).toBe(first);
  });
});
