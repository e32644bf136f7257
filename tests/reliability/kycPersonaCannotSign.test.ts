// Persona `kyc` could not sign: its step list goes straight to the KYC questionnaire and milestone three, which lists
// the market's default accounts, but the sandbox's signature request answered 400 "Choose accounts before signing". The
// sandbox was in the wrong: a brokerage that leaves the account picker out of a prospect's steps has its accounts
// already, so its prospect carries the market's default accounts, the ones the page shows.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { atMilestoneThreeOverHttp } from '../support/customerInformation.ts';
import { postStep } from '../support/journey.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

describe('a prospect whose steps leave out the account picker', () => {
  it('signs from milestone three with the accounts its summary lists (persona kyc, without JavaScript)', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'kyc');
    const summary = (await agent.get(page).expect(200)).text;
    expect(summary).toContain('Investment Savings Account');
    expect(summary).toContain('Stock and Fund Account');

    const signing = await postStep(agent, page, 'step=MILESTONE_THREE_STEP&screen=milestone');
    expect(signing.text).not.toContain('Something went wrong');
    expect(signing.status).toBe(303);
    expect(signing.headers.location).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    // The signing service lists what is signed: the same two accounts.
    const signingPage = await request(signing.headers.location as string)
      .get('')
      .expect(200);
    expect(signingPage.text).toContain('ISK_SE');
    expect(signingPage.text).toContain('DEP_SE');
  });
});
