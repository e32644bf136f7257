// The KYC PEP dialog without JavaScript offered only "I am not a politically exposed person" and the
// manual form, steering a real PEP towards answering no. customer-information §2.3
// "Compliance dialogs": PEP has a cancel button plus the manual form link, as the legacy form's PEP dialog
// has. Cancel goes back to the question with nothing answered and nothing sent upstream.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { httpAnswers, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp, postStep } from '../support/journey.ts';
import { kycReadOut } from '../support/kycSandbox.ts';
import { PEP_QUESTION, PEP_YES } from '../../shared/contracts/kycContract.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

/** The page once the KYC loader has gone (the worker's wait). */
async function shown(agent: Agent, page: string): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    const html = (await agent.get(page).expect(200)).text;
    if (screenOf(html)?.[1] !== 'loader') return html;
    if (Date.now() > until) throw new Error('still on the KYC loader after 20 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const questionIdsOf = (html: string) => [...new Set([...html.matchAll(/name="answer-(\d+)"/g)].map((m) => Number(m[1])))];

describe('the KYC PEP dialog as a screen (no JavaScript)', () => {
  it('has a Cancel that goes back to the question with nothing answered and nothing sent', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await identifyOverHttp(agent, stack.sandboxUrl, 'kyc');
    let html = await shown(agent, page);
    while (questionIdsOf(html)[0] !== PEP_QUESTION) {
      await postStep(agent, page, httpAnswers.KYC_STEP!('question', html) as string).expect(303);
      html = await shown(agent, page);
    }
    const kycPage = /name="kycPage" value="([^"]+)"/.exec(html)![1]!;
    await postStep(
      agent,
      page,
      new URLSearchParams({ step: 'KYC_STEP', screen: 'question', kycPage, [`answer-${PEP_QUESTION}`]: String(PEP_YES) }).toString(),
    ).expect(303);
    const before = await kycReadOut(stack.sandboxUrl, prospectId);

    const dialog = await agent.get(page).expect(200);
    expect(screenOf(dialog.text)).toEqual(['KYC_STEP', 'pep']);
    // The dialog's three ways: the primary answer, Cancel (a post of the dialog screen), the manual form.
    const cancel = /<form[^>]*>(?:(?!<\/form>)[\s\S])*name="intent" value="cancel"(?:(?!<\/form>)[\s\S])*<button[^>]*>Cancel<\/button>/.exec(dialog.text);
    expect(cancel, 'a Cancel form on the PEP screen').not.toBeNull();
    expect(cancel![0]).toContain('name="screen" value="pep"');
    expect(dialog.text).toContain('I am not a politically exposed person');
    expect(dialog.text).toContain('exit=PEP');

    await postStep(agent, page, 'step=KYC_STEP&screen=pep&intent=cancel').expect(303);
    const back = await agent.get(page).expect(200);
    expect(screenOf(back.text)).toEqual(['KYC_STEP', 'question']);
    expect(questionIdsOf(back.text)).toEqual([PEP_QUESTION]);
    // Nothing answered: neither the yes nor a no is ticked, and nothing reached the brokerage.
    expect(back.text).not.toMatch(new RegExp(`name="answer-${PEP_QUESTION}"[^>]*checked`));
    expect(back.text).not.toMatch(new RegExp(`checked[^>]*name="answer-${PEP_QUESTION}"`));
    const after = await kycReadOut(stack.sandboxUrl, prospectId);
    expect(after.nextCalls).toBe(before.nextCalls);
    expect(after.answers[PEP_QUESTION]).toBeUndefined();
  });
});
