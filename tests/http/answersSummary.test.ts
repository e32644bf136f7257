// "Check your answers" on milestone three over HTTP (WCAG 2.2 SC 3.3.4): the summary shows
// what the person gave (contact, KYC answers as shown); a section's Change (a post) re-enters its step, and
// finishing it, or Back from its first screen, returns to the summary instead of walking the later steps
// again; KYC and steps not in the list cannot be changed.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { atMilestoneThreeOverHttp, screenOf } from '../support/customerInformation.ts';
import { postStep } from '../support/journey.ts';
import { pageOf } from '../../sandbox/kyc.ts';
import { PEP_NO, PEP_YES, privateQuestionOrder } from '../../shared/contracts/kycContract.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

const post = postStep;
const back = (agent: Agent, page: string) => agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').type('form').send('');
const shown = async (agent: Agent, page: string) => screenOf((await agent.get(page).expect(200)).text);

const atMilestoneThree = (agent: Agent, scenario: string) => atMilestoneThreeOverHttp(agent, stack.sandboxUrl, scenario);

const SIGN = 'step=MILESTONE_THREE_STEP&screen=milestone';
const change = (target: string) => `${SIGN}&intent=change&target=${target}`;
const contact = (email: string) =>
  `step=CONTACT_INFORMATION_STEP&screen=contact&phonePrefix=46&phone=%2B46%2070%20123%2045%2067&email=${encodeURIComponent(email)}`;

/** The summary's markup (React escapes text as below). */
async function summaryOf(agent: Agent, page: string): Promise<string> {
  const html = (await agent.get(page).expect(200)).text;
  const summary = /<section class="answers-summary"[\s\S]*?<\/section>/.exec(html)?.[0];
  if (!summary) throw new Error('no answers summary on the page');
  return summary;
}
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
/** Whether the page's Back button can be used. */
const backEnabled = (html: string) => /<button type="submit" class="btn btn-secondary">Back<\/button>/.test(html);

/** The answers tests/support/customerInformation.ts gives each KYC page (its first option; PEP: no), as the session shows them in English. */
const kycAnswers = privateQuestionOrder.map((id) => {
  const question = pageOf([id], true, 'en', 'SE').questions[0]!;
  const option = question.options.find((o) => o.id === PEP_NO) ?? question.options.find((o) => o.id !== PEP_YES)!;
  return { question: question.text, answer: option.text };
});

describe('check your answers before signing (milestone three)', () => {
  it('shows the answers; Change contact information re-enters the step and returns to the summary with the new e-mail', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThree(agent, 'onboarding');
    const summary = await summaryOf(agent, page);
    expect(summary).toContain('Check your answers before you sign');
    expect(summary).toContain('test@example.com');
    // The phone as submitted (+46701234567), shown in Sweden's national format.
    expect(summary).toContain('>070-123 45 67<');
    expect(summary).toContain('I am only a citizen of Sweden');
    expect(summary).toContain('I am only liable for tax in Sweden');
    // The KYC answers as shown, in the order answered, without a Change.
    let from = 0;
    for (const { question, answer } of kycAnswers) {
      const at = summary.indexOf(escaped(question), from);
      expect(at, question).toBeGreaterThan(from);
      expect(summary.slice(at)).toContain(escaped(answer));
      from = at;
    }
    expect(summary).not.toContain('value="KYC_STEP"');
    // Each earlier step's Change: a post naming the step.
    for (const target of ['ACCOUNT_PICKER_STEP', 'ACCOUNT_ALIAS_STEP', 'CONTACT_INFORMATION_STEP', 'CITIZENSHIP_STEP', 'TAX_INFO_STEP']) {
      expect(summary).toContain(`<input type="hidden" name="target" value="${target}"/>`);
    }
    expect(summary).toContain('Change contact information</button>');

    await post(agent, page, change('CONTACT_INFORMATION_STEP')).expect(303).expect('location', page);
    const contactPage = (await agent.get(page).expect(200)).text;
    expect(screenOf(contactPage)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
    expect(contactPage).toContain('value="test@example.com"');
    await post(agent, page, contact('changed@example.com')).expect(303);
    // Straight back to the summary: citizenship, tax and KYC are not walked again.
    expect(await shown(agent, page)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    const changed = await summaryOf(agent, page);
    expect(changed).toContain('changed@example.com');
    expect(changed).not.toContain('test@example.com');
    // The summary is not a step of its own: Back stays disabled after the KYC step.
    expect(backEnabled((await agent.get(page)).text)).toBe(false);
  }, 120_000);

  it("Back from a changed step's first screen returns to the summary, with the step's answers as they were", async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThree(agent, 'onboarding');
    const before = await summaryOf(agent, page);

    // Contact information follows milestone two, so Back is otherwise disabled there: here it returns.
    await post(agent, page, change('CONTACT_INFORMATION_STEP')).expect(303);
    const contactPage = (await agent.get(page)).text;
    expect(screenOf(contactPage)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
    expect(backEnabled(contactPage)).toBe(true);
    // A refused e-mail is kept as typed on the step, but never reaches the summary.
    await post(agent, page, contact('not-an-e-mail')).expect(400);
    await back(agent, page).expect(303);
    expect(await shown(agent, page)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    expect(await summaryOf(agent, page)).toBe(before);

    // Tax information: another country, then Back over the countries to the liability, then to the summary.
    await post(agent, page, change('TAX_INFO_STEP')).expect(303);
    expect(await shown(agent, page)).toEqual(['TAX_INFO_STEP', 'liability']);
    await post(agent, page, 'step=TAX_INFO_STEP&screen=liability&liability=other').expect(303);
    expect(await shown(agent, page)).toEqual(['TAX_INFO_STEP', 'countries']);
    await back(agent, page).expect(303);
    expect(await shown(agent, page)).toEqual(['TAX_INFO_STEP', 'liability']);
    await back(agent, page).expect(303);
    expect(await shown(agent, page)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    const after = await summaryOf(agent, page);
    expect(after).toContain('I am only liable for tax in Sweden');
    expect(after).not.toContain('I am liable for tax in another country');
    expect(after).toBe(before);
  }, 120_000);

  it('a Change to the KYC step, or to a step not in the list, is refused: the summary again, nothing changed', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThree(agent, 'onboarding');
    const before = await summaryOf(agent, page);
    const prospectIdAtStart = decodeURIComponent(page.split('/').pop()!);
    const startCalls = (
      (await request(stack.sandboxUrl).get('/sandbox/kyc').query({ prospectId: prospectIdAtStart }).expect(200)).body as { startCalls: number }
    ).startCalls;
    for (const target of ['KYC_STEP', 'RESIDENCY_STEP', 'EXISTING_STEP', 'MILESTONE_TWO_STEP', 'MILESTONE_THREE_STEP', 'NOT_A_STEP', '']) {
      await post(agent, page, change(target)).expect(303).expect('location', page);
      expect(await shown(agent, page), target).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
      expect(await summaryOf(agent, page), target).toBe(before);
    }
    // No KYC answer session was started again.
    const prospectId = decodeURIComponent(page.split('/').pop()!);
    const kycCalls = async () =>
      ((await request(stack.sandboxUrl).get('/sandbox/kyc').query({ prospectId }).expect(200)).body as { startCalls: number }).startCalls;
    expect(await kycCalls()).toBe(startCalls);
  }, 120_000);

  it('a change after the signing page was opened asks for a new signing of the changed answers', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThree(agent, 'onboarding');
    const first = (await post(agent, page, SIGN).expect(303)).headers.location as string;
    expect(first).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    await post(agent, page, change('CONTACT_INFORMATION_STEP')).expect(303);
    await post(agent, page, contact('after-signing@example.com')).expect(303);
    expect(await summaryOf(agent, page)).toContain('after-signing@example.com');
    const second = (await post(agent, page, SIGN).expect(303)).headers.location as string;
    expect(second).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    expect(second).not.toBe(first);
  }, 120_000);
});
