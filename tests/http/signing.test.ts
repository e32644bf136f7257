// Signing from the step flow over HTTP (customer-information §4.8, §8 "Signature 403"): milestone three posts
// its step, requests the signing URL and sends the browser there; coming back, its button re-opens the same
// URL; a 403 on the signature request is high risk, not an expired session.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { atMilestoneThreeOverHttp, screenOf } from '../support/customerInformation.ts';
import { postStep } from '../support/journey.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

const post = postStep;

const atMilestoneThree = (agent: Agent, scenario: string) => atMilestoneThreeOverHttp(agent, stack.sandboxUrl, scenario);

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

describe('back from signing (customer-information §4.8, FLAG_RETRY_SIGNUP_SIGNING)', () => {
  it('"I have signed" before signing says so and stays; after signing in another tab it goes on to customer creation', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThree(agent, 'signInOtherTab');
    // No signing handed out yet: no check offered, and a check post changes nothing.
    expect((await agent.get(page)).text).not.toContain('I have signed');
    await post(agent, page, `${SIGN}&intent=signed`).expect(303).expect('location', page);
    const signingUrl = (await post(agent, page, SIGN).expect(303)).headers.location as string;
    const back = await agent.get(page).expect(200);
    expect(back.text).toContain('I have signed</button>');
    // Not signed yet: the person's click is told; the page's own check (auto) is silent.
    const notYet = await post(agent, page, `${SIGN}&intent=signed`).expect(409);
    expect(notYet.text).toContain('We can&#x27;t see your signature yet. Finish signing, then try again.');
    await post(agent, page, `${SIGN}&intent=signed&auto=1`).expect(303).expect('location', page);
    // The other tab: the signing page, signed there (its redirect to customer creation is not followed here).
    await request(signingUrl).post('/sign').expect(303);
    await post(agent, page, `${SIGN}&intent=signed&auto=1`).expect(303).expect('location', page.replace('/customer-information/', '/customer-creation/'));
  });

  it("in the native app's webview, signing returns to the app's deep links (create and cancel paths)", async () => {
    const agent = request.agent(stack.webUrl);
    await agent.get('/onboarding?webview=true').expect(200);
    const page = await atMilestoneThree(agent, 'accounts');
    const prospectId = page.split('/').pop()!;
    const signingUrl = (await post(agent, page, SIGN).expect(303)).headers.location as string;
    expect((await request(signingUrl).post('/sign').expect(303)).headers.location).toBe(`nordicbank://onboarding/customer-creation/${prospectId}`);
  });
});
