// The KYC step over HTTP against the embedded stack (customer-information §2.3 "KYC questionnaire", §4.6,
// §4.7, §5 "KYC", §9): plain form posts as a browser without JavaScript sends them, one test per KYC persona
// of the sandbox, each checked against the sandbox's read-out of the calls it received (GET /sandbox/kyc).
import request from 'supertest';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { answerStepsOverHttp, httpAnswers, pastKycLoader as pastLoader, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { kycReadOut } from '../support/kycSandbox.ts';
import { PEP_NO, PEP_QUESTION, PEP_YES, privateQuestionOrder } from '../../shared/contracts/kycContract.ts';
import { KYC_START_ATTEMPTS, RISK_POLL_ATTEMPTS } from '../../shared/kyc.ts';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import type { StepModule } from '../../server/stages/customerInformation/stepModule.ts';
import { stepModules } from '../../server/stages/customerInformation/stepRegistry.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
const logLines: string[] = [];

beforeAll(async () => {
  stack = await startEmbeddedStack(
    // The loader's slow text after 1.5 s (10 s in production); kycBusyForever's 60 starts 100 ms apart keep a loader up
    // for 6 s, well past the slow text however slowly a busy machine gets there.
    { LOG_LEVEL: 'info', KYC_LOADER_SLOW_AFTER_MS: '1500', KYC_START_INTERVAL_MS: '100' },
    {
      logDestination: new Writable({
        write(chunk, _enc, cb) {
          logLines.push(String(chunk));
          cb();
        },
      }),
    },
  );
});
afterAll(async () => stack?.stop());

const readOut = (prospectId: string) => kycReadOut(stack.sandboxUrl, prospectId);

const post = (agent: Agent, page: string, body: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body);
const back = (agent: Agent, page: string) => agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').type('form').send('');

const answerOf = (screen: string, html: string) => httpAnswers.KYC_STEP!(screen, html) as string;
const questionIdsOf = (html: string) => [...new Set([...html.matchAll(/name="answer-(\d+)"/g)].map((m) => Number(m[1])))];

async function toKyc(agent: Agent, scenario: string) {
  return identifyOverHttp(agent, stack.sandboxUrl, scenario);
}

describe('KYC step over HTTP', () => {
  it('kyc: every question of questionnaire 8 in its order, each rendering rule, progress, then the risk calculation, the submit and milestone three', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kyc');

    const seen: number[] = [];
    const progress: number[] = [];
    const controls: Record<number, string> = {};
    for (;;) {
      const { html, shown } = await pastLoader(agent, page);
      if (shown[0] !== 'KYC_STEP') {
        expect(shown[0]).toBe('MILESTONE_THREE_STEP');
        break;
      }
      expect(shown[1]).toBe('question');
      const [id] = questionIdsOf(html);
      seen.push(id!);
      progress.push(Number(/<progress[^>]*value="(\d+)"/.exec(html)?.[1]));
      controls[id!] = html.includes(`<select id="answer-${id}"`) ? 'select' : html.includes('type="checkbox"') ? 'checkboxes' : 'radios';
      await post(agent, page, answerOf('question', html)).expect(303);
    }
    // customer-information §9: the ten questions in the spec's order, one per page.
    expect(seen).toEqual([...privateQuestionOrder]);
    // customer-information §5: 2 answers → radios, more → a dropdown, multiple choice → checkboxes.
    expect(controls).toMatchObject({ 83: 'select', 87: 'select', 86: 'checkboxes', 84: 'radios', 91: 'radios' });
    // customer-information §2.2: the step's 30 points spread over its pages (KYC then milestone three: all of it).
    expect(progress[0]).toBe(0);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]!);
    expect(progress.at(-1)).toBe(90);

    const calls = await readOut(prospectId);
    expect(calls).toMatchObject({ startCalls: 1, nextCalls: 10, previousCalls: 0, submitted: true });
    // Done from the 2nd poll after the last page (the sandbox's rule).
    expect(calls.riskPolls).toBe(2);
    expect(Object.keys(calls.answers).map(Number).sort()).toEqual([...privateQuestionOrder].sort());
    expect(calls.answers[PEP_QUESTION]).toEqual([PEP_NO]);
    // The milestone after the KYC step offers no Back: the answers are submitted (our choice).
    const milestone = await agent.get(page).expect(200);
    expect(milestone.text).toMatch(/<button type="submit" class="btn btn-secondary" disabled="">Back<\/button>/);
  });

  it('the loader: navigation disabled and the logo instead of progress, a self-refresh without JavaScript, the slow text after 10 s', async () => {
    const agent = request.agent(stack.webUrl);
    const { page } = await toKyc(agent, 'kycBusyForever');
    const loader = await agent.get(page).expect(200);
    expect(screenOf(loader.text)).toEqual(['KYC_STEP', 'loader']);
    expect(loader.text).toContain('Preparing your questions…');
    expect(loader.text).toContain('<noscript><meta http-equiv="refresh" content="2"/></noscript>');
    expect(loader.text).toContain('class="step-header__logo"');
    expect(loader.text).not.toContain('<progress');
    expect(loader.text).toMatch(/disabled="">Back<\/button>/);
    // The slow text once KYC_LOADER_SLOW_AFTER_MS (10 s; here 1.5 s) has passed since the wait began.
    const slowInMs = Number(/slowInMs&quot;:(-?\d+)/.exec(loader.text)?.[1]);
    expect(slowInMs).toBeLessThanOrEqual(1500);
    expect(loader.text.includes('<p>This is taking longer than expected...</p>')).toBe(slowInMs <= 0);
    await new Promise((r) => setTimeout(r, Math.max(0, slowInMs) + 50));
    const slow = await agent.get(page).expect(200);
    expect(screenOf(slow.text)).toEqual(['KYC_STEP', 'loader']);
    expect(slow.text).toContain('<p>This is taking longer than expected...</p>');
    // Back is refused while the loader runs: nothing moves.
    await back(agent, page).expect(303);
    expect(screenOf((await agent.get(page)).text)).toEqual(['KYC_STEP', 'loader']);
    // The island's question: which screen now (reads only).
    const shown = await agent.get(`${page}/shown`).expect(200);
    expect(shown.body).toEqual({ step: 'KYC_STEP', screen: 'loader' });
  });

  it('kycAlreadyAnswered: the start answers 403, the step is submitted without a question', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kycAlreadyAnswered');
    const { shown } = await pastLoader(agent, page);
    expect(shown[0]).toBe('MILESTONE_THREE_STEP');
    expect(await readOut(prospectId)).toMatchObject({ startCalls: 1, nextCalls: 0, riskPolls: 0, submitted: true });
    // The GET showed milestone three from the run's state; the next post records the move and is taken as
    // milestone three's (not refused as stale): it asks for the signing URL and goes there (the prospect has
    // the market's default accounts, as its steps leave out the account picker).
    const signing = await post(agent, page, 'step=MILESTONE_THREE_STEP&screen=milestone').expect(303);
    expect(signing.headers.location).toContain('/sandbox/signing/');
  });

  it('kycBusy: the start answers 409 three times, is retried every KYC_START_INTERVAL_MS, then the first question', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kycBusy');
    const { shown } = await pastLoader(agent, page);
    expect(shown).toEqual(['KYC_STEP', 'question']);
    expect((await readOut(prospectId)).startCalls).toBe(4);
  });

  it(`kycBusyForever: exactly ${KYC_START_ATTEMPTS} starts, then the error with Try again, which starts a new run`, async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kycBusyForever');
    const { html, shown } = await pastLoader(agent, page);
    expect(shown).toEqual(['KYC_STEP', 'failed']);
    expect(html).toContain('Something went wrong');
    expect((await readOut(prospectId)).startCalls).toBe(KYC_START_ATTEMPTS);
    await post(agent, page, 'step=KYC_STEP&screen=failed').expect(303);
    expect(screenOf((await agent.get(page)).text)).toEqual(['KYC_STEP', 'loader']);
    const again = await pastLoader(agent, page);
    expect(again.shown).toEqual(['KYC_STEP', 'failed']);
    expect((await readOut(prospectId)).startCalls).toBe(2 * KYC_START_ATTEMPTS);
  });

  it('kycNextFailsOnce: the failed next shows the API error banner with the answer kept; the second post goes on', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kycNextFailsOnce');
    const { html } = await pastLoader(agent, page);
    const body = answerOf('question', html);
    const failed = await post(agent, page, body).expect(502);
    expect(failed.text).toContain('Something went wrong');
    expect(screenOf(failed.text)).toEqual(['KYC_STEP', 'question']);
    // The answer chosen is still chosen (the occupation dropdown's first answer).
    const chosen = new URLSearchParams(body).get('answer-83');
    expect(failed.text).toMatch(new RegExp(`<option value="${chosen}" selected="">`));
    expect((await readOut(prospectId)).nextCalls).toBe(1);
    await post(agent, page, answerOf('question', failed.text)).expect(303);
    const next = await pastLoader(agent, page);
    expect(questionIdsOf(next.html)).toEqual([privateQuestionOrder[1]]);
    expect((await readOut(prospectId)).nextCalls).toBe(2);
  });

  it(`kycRiskNeverDone: exactly ${RISK_POLL_ATTEMPTS} risk polls, then treated as done: submitted, milestone three`, async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kycRiskNeverDone');
    await answerStepsOverHttp(
      async () => (await agent.get(page)).text,
      async (body) => void (await post(agent, page, body).expect(303)),
    );
    expect(await readOut(prospectId)).toMatchObject({ nextCalls: 10, riskPolls: RISK_POLL_ATTEMPTS, submitted: true });
  });

  it('kycMoreInformation: the submit answers 403 — "We need more information from you" with its link to the signing service', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kycMoreInformation');
    for (;;) {
      const { html, shown } = await pastLoader(agent, page);
      if (shown[1] !== 'question') {
        expect(shown).toEqual(['KYC_STEP', 'moreInformation']);
        expect(html).toContain('<h1 id="kyc-more-information-title">We need more information from you</h1>');
        expect(html).toContain('<a class="btn" href="https://sign.example.com/more-information">Provide more information</a>');
        break;
      }
      await post(agent, page, answerOf('question', html)).expect(303);
    }
    expect(await readOut(prospectId)).toMatchObject({ nextCalls: 10, submitted: false });
  });

  it('kycUnknownType: a question of an unknown answer type is not rendered, and logged; the page is answered without it', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kycUnknownType');
    const { html } = await pastLoader(agent, page);
    expect(questionIdsOf(html)).toEqual([83]);
    expect(html).not.toContain('answer-93');
    expect(logLines.some((l) => l.includes('kyc question of an unknown answer type not rendered') && l.includes('"questionId":93'))).toBe(true);
    await post(agent, page, answerOf('question', html)).expect(303);
    expect(await readOut(prospectId)).toMatchObject({ nextCalls: 1, answers: { 83: [200] } });
  });

  it('a PEP yes shows the PEP dialog (help lists, manual form with exit=PEP); its primary action sends no (223) and goes on', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kyc');
    for (;;) {
      const { html } = await pastLoader(agent, page);
      if (questionIdsOf(html)[0] === PEP_QUESTION) {
        const kycPage = /name="kycPage" value="([^"]+)"/.exec(html)![1]!;
        await post(
          agent,
          page,
          new URLSearchParams({ step: 'KYC_STEP', screen: 'question', kycPage, [`answer-${PEP_QUESTION}`]: String(PEP_YES) }).toString(),
        ).expect(303);
        break;
      }
      await post(agent, page, answerOf('question', html)).expect(303);
    }
    const nextCallsBefore = (await readOut(prospectId)).nextCalls;
    const dialog = await agent.get(page).expect(200);
    expect(screenOf(dialog.text)).toEqual(['KYC_STEP', 'pep']);
    expect(dialog.text).toContain('You answered that you are a politically exposed person');
    expect(dialog.text).toContain('href="https://forms.example.com/additional-information/identified?exit=PEP"');
    // Sweden: 8 public functions (customer-information §9; Finland's 10 in tests/unit/kycViews.test.tsx), and the
    // directive's 3 kinds of family member and 2 kinds of close associate (Directive (EU) 2015/849 art. 3(10)–(11)).
    expect(dialog.text).toContain('Who counts as a politically exposed person?');
    expect(dialog.text).toContain('High-ranking officer in the armed forces');
    expect(dialog.text).not.toContain('state-owned enterprise');
    expect(dialog.text).toContain('<li>The parents</li>');
    expect(dialog.text).toContain('set up for the de facto benefit of a politically exposed person</li>');
    expect(dialog.text).toContain('18 months after leaving the function');
    // Nothing was sent for the yes.
    expect((await readOut(prospectId)).nextCalls).toBe(nextCallsBefore);
    await post(agent, page, 'step=KYC_STEP&screen=pep').expect(303);
    const calls = await readOut(prospectId);
    expect(calls.nextCalls).toBe(nextCallsBefore + 1);
    expect(calls.answers[PEP_QUESTION]).toEqual([PEP_NO]);
    const after = await pastLoader(agent, page);
    expect(questionIdsOf(after.html)).toEqual([91]);
  });

  it('unanswered: 400 "Choose alternative" in the summary and at the question, nothing sent; a stale page post changes nothing', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kyc');
    const { html } = await pastLoader(agent, page);
    const kycPage = /name="kycPage" value="([^"]+)"/.exec(html)![1]!;
    const refused = await post(agent, page, `step=KYC_STEP&screen=question&kycPage=${encodeURIComponent(kycPage)}`).expect(400);
    expect(refused.text).toContain('<a href="#answer-83">Choose alternative</a>');
    expect(refused.text).toContain('id="answer-83-error"');
    // An answer that is not one of the question's: refused the same way.
    await post(agent, page, `step=KYC_STEP&screen=question&kycPage=${encodeURIComponent(kycPage)}&answer-83=224`).expect(400);
    // The answer to another page (a stale tab): back to the page, nothing sent.
    await post(agent, page, `step=KYC_STEP&screen=question&kycPage=9%3A91&answer-83=200`).expect(303);
    expect((await readOut(prospectId)).nextCalls).toBe(0);
  });

  it('Back fetches the previous page, which shows the answer given; Back on the first page leaves it be', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toKyc(agent, 'kyc');
    const first = await pastLoader(agent, page);
    const body = answerOf('question', first.html);
    await post(agent, page, body).expect(303);
    expect(questionIdsOf((await pastLoader(agent, page)).html)).toEqual([87]);
    await back(agent, page).expect(303);
    const again = await pastLoader(agent, page);
    expect(questionIdsOf(again.html)).toEqual([83]);
    expect(again.html).toMatch(new RegExp(`<option value="${new URLSearchParams(body).get('answer-83')}" selected="">`));
    expect((await readOut(prospectId)).previousCalls).toBe(1);
    // The first page: no previous page to fetch (the KYC step is this prospect's first step).
    await back(agent, page).expect(303);
    expect(questionIdsOf((await pastLoader(agent, page)).html)).toEqual([83]);
    expect((await readOut(prospectId)).previousCalls).toBe(1);
  });
});

describe('a step the page cannot show (issue: KYC_STEP was silently skipped)', () => {
  it('stays in the journey: the page logs it and shows the try-again banner, and does not go on to the next step', async () => {
    // A build without a screen for a step the brokerage sends, simulated in this process (the embedded
    // stack shares the registry): the contact step's module is taken out for the test.
    const registry = stepModules as Map<StepId, StepModule>;
    const contact = registry.get('CONTACT_INFORMATION_STEP')!;
    registry.delete('CONTACT_INFORMATION_STEP');
    try {
      const agent = request.agent(stack.webUrl);
      const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'contactInformation');
      const shown = await agent.get(page).expect(502);
      expect(shown.text).toContain('Something went wrong');
      expect(shown.text).toContain('>Try again</a>');
      expect(screenOf(shown.text)).toBeUndefined();
      expect(logLines.some((l) => l.includes('customer-information step without a screen') && l.includes('CONTACT_INFORMATION_STEP'))).toBe(true);
      // Not left out: milestone three (signing) is not reached past it.
      expect(shown.text).not.toContain('Almost there!');
    } finally {
      registry.set('CONTACT_INFORMATION_STEP', contact);
    }
  });
});
