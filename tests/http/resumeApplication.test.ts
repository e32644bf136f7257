// Carrying on with a saved application over HTTP: identifying the half-finished persona opens the first unfinished
// step with the saved answers in place (Back, check your answers), on the same single prospect, sending no step again;
// another person cannot open it; an answer given in one browser is there after identifying again in another.
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedStack, startRedisStack, type Stack } from '../support/stack.ts';
import { answerStepsOverHttp, httpAnswerOf, pastKycLoader, screenOf } from '../support/customerInformation.ts';
import { kycReadOut } from '../support/kycSandbox.ts';
import { decode } from '../support/serverHttp.ts';
import { privateQuestionOrder } from '../../shared/contracts/kycContract.ts';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import { identifyOverHttp, postStep } from '../support/journey.ts';
import { prospectsOf } from '../support/savedApplication.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack({ SANDBOX_PROSPECT_KEEP_DAYS: '90' });
});
afterAll(async () => stack?.stop());
// Each test starts from the persona's seeded half-finished application.
beforeEach(async () => void (await request(stack.sandboxUrl).post('/sandbox/reset').expect(204)));

const back = (agent: Agent, page: string) => agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').type('form').send('');
const html = async (agent: Agent, page: string) => (await agent.get(page).expect(200)).text;
const questionsOf = (page: string) => [...new Set([...page.matchAll(/name="answer-(\d+)"/g)].map((m) => Number(m[1])))];
const CITIZEN_OF_SWEDEN = 'step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=inOfficeCitizenship';

/**
 * Two browsers of the halfFinished persona open at once (a phone and a laptop, on the web processes given): the older
 * copy's next post is refused by the stale-post rule and catches up, never overwriting the newer answer.
 */
async function twoBrowsersAtOnce(sandboxUrl: string, webUrls: [string, string]): Promise<void> {
  const phone = request.agent(webUrls[0]);
  const { page, persona } = await identifyOverHttp(phone, sandboxUrl, 'halfFinished');
  const laptop = request.agent(webUrls[1]);
  expect((await identifyOverHttp(laptop, sandboxUrl, 'halfFinished')).page).toBe(page);
  expect(screenOf(await html(phone, page))).toEqual(['CITIZENSHIP_STEP', 'choice']);
  expect(screenOf(await html(laptop, page))).toEqual(['CITIZENSHIP_STEP', 'choice']);

  // The laptop answers citizenship; the phone, still showing the question, answers it otherwise: refused.
  await postStep(laptop, page, CITIZEN_OF_SWEDEN).expect(303);
  expect(screenOf(await html(laptop, page))?.[0]).toBe('TAX_INFO_STEP');
  const stale = await postStep(phone, page, 'step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=otherCitizenships');
  expect(stale.status).toBe(303);
  expect(stale.headers.location).toBe(page);
  // The phone now shows the one application: where the laptop is, the laptop's answer on Back.
  expect(screenOf(await html(phone, page))?.[0]).toBe('TAX_INFO_STEP');
  await back(phone, page).expect(303);
  const citizenship = await html(phone, page);
  expect(screenOf(citizenship)).toEqual(['CITIZENSHIP_STEP', 'choice']);
  expect(citizenship).toMatch(/value="inOfficeCitizenship"[^>]*checked|checked[^>]*value="inOfficeCitizenship"/);

  // The phone, now current, goes on; the laptop's next post is the older one and changes nothing.
  await postStep(phone, page, CITIZEN_OF_SWEDEN).expect(303);
  const tax = await html(phone, page);
  expect(screenOf(tax)?.[0]).toBe('TAX_INFO_STEP');
  await back(laptop, page).expect(303);
  expect(screenOf(await html(laptop, page))?.[0]).toBe('TAX_INFO_STEP');

  const [application, ...others] = await prospectsOf(sandboxUrl, persona.nationalId);
  expect(others).toHaveLength(0);
  // Sent by the laptop, and once more by the phone's own answer after it caught up; never the refused one.
  expect(application!.submits.CITIZENSHIP_STEP).toEqual([200, 200]);
  expect(application!.steps.find((s) => s.stepName === 'CITIZENSHIP_STEP')?.completed).toBe(true);
}

describe('carrying on with a saved application', () => {
  it('opens the first unfinished step with the saved answers, on the one prospect, sending no step again', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'halfFinished');
    const [before] = await prospectsOf(stack.sandboxUrl, persona.nationalId);
    expect(prospectId).toBe(before!.prospectId);
    expect(screenOf(await html(agent, page))).toEqual(['CITIZENSHIP_STEP', 'choice']);

    // Back: the saved contact details, in the form.
    await back(agent, page).expect(303);
    const contact = await html(agent, page);
    expect(screenOf(contact)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
    expect(contact).toContain('value="klara.forsberg@example.com"');
    expect(contact).toContain('070-123 45 67');
    await postStep(
      agent,
      page,
      'step=CONTACT_INFORMATION_STEP&screen=contact&phonePrefix=46&phone=070-123%2045%2067&email=klara.forsberg%40example.com',
    ).expect(303);

    // On to signing: the summary holds the accounts' saved names and the contact details.
    await answerStepsOverHttp(
      () => html(agent, page),
      async (body) => void (await postStep(agent, page, body)),
    );
    const summary = await html(agent, page);
    expect(screenOf(summary)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    expect(summary).toContain('Långsiktigt');
    expect(summary).toContain('klara.forsberg@example.com');

    const after = await prospectsOf(stack.sandboxUrl, persona.nationalId);
    expect(after).toHaveLength(1);
    expect(after[0]!.resumed).toBe(1);
    // Each step saved before was sent once (the seed), and only the contact details again because the person posted them.
    for (const step of ['MILESTONE_ONE_STEP', 'ACCOUNT_PICKER_STEP', 'ACCOUNT_ALIAS_STEP', 'MILESTONE_TWO_STEP']) {
      expect(after[0]!.submits[step], step).toEqual([200]);
    }
    expect(after[0]!.submits.CONTACT_INFORMATION_STEP).toEqual([200, 200]);
    for (const step of ['CITIZENSHIP_STEP', 'TAX_INFO_STEP', 'KYC_STEP']) expect(after[0]!.submits[step], step).toHaveLength(1);
  });

  it('refuses another person the application', async () => {
    const owner = request.agent(stack.webUrl);
    const { page } = await identifyOverHttp(owner, stack.sandboxUrl, 'halfFinished');
    const other = request.agent(stack.webUrl);
    await identifyOverHttp(other, stack.sandboxUrl, 'onboarding');
    const refused = await other.get(page);
    expect(refused.status).not.toBe(200);
    expect(refused.text).not.toContain('example.com');
    const posted = await postStep(other, page, CITIZEN_OF_SWEDEN);
    expect([303, 401, 403]).toContain(posted.status);
    expect(posted.headers.location).not.toBe(page);
    // The owner's application is as it was.
    expect(screenOf(await html(owner, page))).toEqual(['CITIZENSHIP_STEP', 'choice']);
  });

  it('finds an answer given in one browser prefilled after identifying again in another', async () => {
    const first = request.agent(stack.webUrl);
    const { page, persona } = await identifyOverHttp(first, stack.sandboxUrl, 'halfFinished');
    expect(screenOf(await html(first, page))).toEqual(['CITIZENSHIP_STEP', 'choice']);
    await postStep(first, page, CITIZEN_OF_SWEDEN).expect(303);
    expect(screenOf(await html(first, page))?.[0]).toBe('TAX_INFO_STEP');

    const second = request.agent(stack.webUrl);
    const again = await identifyOverHttp(second, stack.sandboxUrl, 'halfFinished');
    expect(again.page).toBe(page);
    expect(screenOf(await html(second, page))?.[0]).toBe('TAX_INFO_STEP');
    await back(second, page).expect(303);
    const citizenship = await html(second, page);
    expect(screenOf(citizenship)).toEqual(['CITIZENSHIP_STEP', 'choice']);
    expect(citizenship).toMatch(/value="inOfficeCitizenship"[^>]*checked|checked[^>]*value="inOfficeCitizenship"/);
    expect(await prospectsOf(stack.sandboxUrl, persona.nationalId)).toHaveLength(1);
  });

  it("two browsers open at once share one application: the older copy's next post is refused and catches up", () =>
    twoBrowsersAtOnce(stack.sandboxUrl, [stack.webUrl, stack.webUrl]));

  it('carries the KYC questionnaire on in another browser where it was left: its answered pages behind Back and on the summary, nothing sent twice', async () => {
    const phone = request.agent(stack.webUrl);
    const { page, prospectId, persona } = await identifyOverHttp(phone, stack.sandboxUrl, 'halfFinished');
    // Citizenship and tax, then three of the questionnaire's pages.
    let kycPagesAnswered = 0;
    let occupationPage = '';
    for (;;) {
      const { html: shownHtml, shown } = await pastKycLoader(phone, page);
      if (shown[0] === 'KYC_STEP' && kycPagesAnswered === 3) break;
      if (shown[0] === 'KYC_STEP' && kycPagesAnswered++ === 0) occupationPage = shownHtml;
      await postStep(phone, page, httpAnswerOf(shown[0] as StepId, shown[1], shownHtml) as string).expect(303);
    }
    const answered = await kycReadOut(stack.sandboxUrl, prospectId);
    expect(answered).toMatchObject({ startCalls: 1, nextCalls: 3 });
    const [occupation, , third] = privateQuestionOrder;
    const occupationText = new RegExp(`<option value="${answered.answers[occupation]![0]}"[^>]*>([^<]+)<`).exec(occupationPage)![1]!;

    // The laptop opens the fourth page, of the same answer session, without a run of its own.
    const laptop = request.agent(stack.webUrl);
    expect((await identifyOverHttp(laptop, stack.sandboxUrl, 'halfFinished')).page).toBe(page);
    const carried = await html(laptop, page);
    expect(screenOf(carried)).toEqual(['KYC_STEP', 'question']);
    expect(questionsOf(carried)).toEqual([privateQuestionOrder[3]]);
    // Back: the third page, the phone's answer chosen.
    await back(laptop, page).expect(303);
    const thirdPage = await html(laptop, page);
    expect(questionsOf(thirdPage)).toEqual([third]);
    expect(thirdPage).toMatch(new RegExp(`value="${answered.answers[third]![0]}"[^>]*(checked|selected)`));

    await answerStepsOverHttp(
      () => pastKycLoader(laptop, page).then((shown) => shown.html),
      async (body) => void (await postStep(laptop, page, body).expect(303)),
    );
    const summary = await html(laptop, page);
    expect(screenOf(summary)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    // The occupation answered on the phone is listed on check your answers.
    expect(decode(summary.slice(summary.indexOf('<section class="answers-summary"')))).toContain(occupationText);
    const done = await kycReadOut(stack.sandboxUrl, prospectId);
    // No new answer session: the phone's three, the third again after Back, and the seven after it.
    expect(done).toMatchObject({ startCalls: 1, nextCalls: 11, submitted: true });
    expect(done.answerSessions).toHaveLength(1);
    const [application] = await prospectsOf(stack.sandboxUrl, persona.nationalId);
    expect(application!.submits.KYC_STEP).toEqual([204]);
  });

  it("a second browser while the first is on the questionnaire's first page opens that same answer session, starting none", async () => {
    const phone = request.agent(stack.webUrl);
    const { page, prospectId } = await identifyOverHttp(phone, stack.sandboxUrl, 'halfFinished');
    for (let shown = await pastKycLoader(phone, page); shown.shown[0] !== 'KYC_STEP'; shown = await pastKycLoader(phone, page)) {
      await postStep(phone, page, httpAnswerOf(shown.shown[0] as StepId, shown.shown[1], shown.html) as string).expect(303);
    }
    const laptop = request.agent(stack.webUrl);
    await identifyOverHttp(laptop, stack.sandboxUrl, 'halfFinished');
    const carried = await html(laptop, page);
    expect(screenOf(carried)).toEqual(['KYC_STEP', 'question']);
    expect(questionsOf(carried)).toEqual([privateQuestionOrder[0]]);
    expect(await kycReadOut(stack.sandboxUrl, prospectId)).toMatchObject({ startCalls: 1, answerSessions: [{ pageIndex: 0 }] });
  });

  it('offers no signing while the application is not ready: says what is missing and leads to that step', async () => {
    const agent = request.agent(stack.webUrl);
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'halfFinished');
    await answerStepsOverHttp(
      () => html(agent, page),
      async (body) => void (await postStep(agent, page, body)),
    );
    expect(await html(agent, page)).toContain('Sign with Bank ID');
    // Citizenship changed to two countries (sent), then left before the proof: the brokerage misses the proof.
    await postStep(agent, page, 'step=MILESTONE_THREE_STEP&screen=milestone&intent=change&target=CITIZENSHIP_STEP').expect(303);
    await postStep(agent, page, 'step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=otherCitizenships').expect(303);
    await postStep(agent, page, 'step=CITIZENSHIP_STEP&screen=dialog&intent=choose&choice=otherCitizenships&confirmed=yes').expect(303);
    await postStep(agent, page, 'step=CITIZENSHIP_STEP&screen=countries&intent=countries&countries=SE&countries=NO').expect(303);
    expect(screenOf(await html(agent, page))).toEqual(['CITIZENSHIP_STEP', 'proof']);
    for (let i = 0; i < 5 && screenOf(await html(agent, page))?.[0] !== 'MILESTONE_THREE_STEP'; i++) await back(agent, page).expect(303);

    const notReady = await html(agent, page);
    expect(screenOf(notReady)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    expect(notReady).toContain('We need a few more answers from you before you can sign.');
    expect(notReady).not.toContain('Sign with Bank ID');
    const missing = notReady.slice(notReady.indexOf('We need a few more answers'), notReady.indexOf('<section class="answers-summary"'));
    expect(missing).toContain('<input type="hidden" name="target" value="CITIZENSHIP_STEP"/>');
    expect(missing).toContain('Change citizenship</button>');
    // Its button opens the step.
    await postStep(agent, page, 'step=MILESTONE_THREE_STEP&screen=milestone&intent=change&target=CITIZENSHIP_STEP').expect(303);
    expect(screenOf(await html(agent, page))?.[0]).toBe('CITIZENSHIP_STEP');
  });
});

describe('carrying on with a saved application on Redis, the two browsers on two web processes', () => {
  let redisStack: Stack;
  beforeAll(async () => {
    redisStack = await startRedisStack({ SANDBOX_PROSPECT_KEEP_DAYS: '90' });
  });
  afterAll(async () => redisStack?.stop());

  it("the older copy's next post is refused and catches up", async () => {
    const otherWeb = await redisStack.startExtraWeb();
    await twoBrowsersAtOnce(redisStack.sandboxUrl, [redisStack.webUrl, otherWeb]);
  });
});
