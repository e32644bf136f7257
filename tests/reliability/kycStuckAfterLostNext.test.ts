// A KYC answer the brokerage took but our session never recorded (the web process died, or the save failed, between
// the two) left the step stuck: every Continue posted the old page's answers, the answer session refused them, and the
// person got the try-again banner forever. The lost request is played here as it happened. Now such a refusal starts a
// new answer session with the person's answers kept (its pages come back with them chosen, and a notice says so); a
// restarted run refused the same way before any of its pages was taken shows the banner, so the next restart needs a click.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { httpAnswers, pastKycLoader as pastLoader, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp, postStep, type Persona } from '../support/journey.ts';
import { kycReadOut } from '../support/kycSandbox.ts';
import { bearer } from '../support/sandboxApi.ts';
import { decode } from '../support/serverHttp.ts';
import { brokeragePaths, refreshTokenResponse } from '../../shared/contracts/brokerageContract.ts';
import { kycPaths, privateQuestionOrder } from '../../shared/contracts/kycContract.ts';
import en from '../../locales/en.json' with { type: 'json' };

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

const TRY_AGAIN = en['customerInformation.error.TRY_AGAIN_ERROR.text'];
const KEPT_NOTICE = en['kyc.answersKept'];

const readOut = (prospectId: string) => kycReadOut(stack.sandboxUrl, prospectId);
const back = (agent: Agent, page: string) => agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').type('form').send('');
const questionIdsOf = (page: string) => [...new Set([...page.matchAll(/name="answer-(\d+)"/g)].map((m) => Number(m[1])))];

/** The question page's form as the person posts it: its page key and the answers given. */
function answerBody(page: string, answers: Record<number, number>): string {
  const kycPage = /name="kycPage" value="([^"]+)"/.exec(page)![1]!;
  const body = new URLSearchParams({ step: 'KYC_STEP', screen: 'question', kycPage });
  for (const [id, answer] of Object.entries(answers)) body.append(`answer-${id}`, String(answer));
  return body.toString();
}

/** The person's access token at the brokerage (a session of their own, as the lost request had). */
async function brokerageTokenOf(persona: Persona): Promise<string> {
  const session = await request(stack.sandboxUrl).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  const refreshed = await request(stack.sandboxUrl).post(brokeragePaths.refreshToken).send({ refreshToken: session.body.refreshToken }).expect(200);
  return refreshTokenResponse.parse(refreshed.body).jwt;
}

/** The lost request: the brokerage's answer session takes the page's answer; our session never hears of it. */
async function lostNext(persona: Persona, prospectId: string, questionId: number, answerId: number): Promise<void> {
  const sessions = (await readOut(prospectId)).answerSessions;
  const session = sessions.at(-1)!;
  await request(stack.sandboxUrl)
    .post(kycPaths.answerSessionNext(session.id))
    .set(bearer(await brokerageTokenOf(persona)))
    .send({ answers: [{ questionId, answerIds: [answerId] }] })
    .expect(200);
}

/** Into the KYC step, the first page answered (occupation: student), the second (monthly income) shown. */
async function atSecondPage(agent: Agent) {
  const journey = await identifyOverHttp(agent, stack.sandboxUrl, 'kyc');
  const first = await pastLoader(agent, journey.page);
  expect(questionIdsOf(first.html)).toEqual([83]);
  await postStep(agent, journey.page, answerBody(first.html, { 83: 202 })).expect(303);
  const second = await pastLoader(agent, journey.page);
  expect(questionIdsOf(second.html)).toEqual([87]);
  return { ...journey, second };
}

/** Answers every page shown (what is chosen stays as the walker posts it) until the step is left. */
async function toMilestoneThree(agent: Agent, page: string): Promise<void> {
  for (;;) {
    const { html: shownHtml, shown } = await pastLoader(agent, page);
    if (shown[0] !== 'KYC_STEP') {
      expect(shown[0]).toBe('MILESTONE_THREE_STEP');
      return;
    }
    expect(shown[1]).toBe('question');
    await postStep(agent, page, httpAnswers.KYC_STEP!('question', shownHtml) as string).expect(303);
  }
}

describe('a KYC answer the brokerage took while our session never recorded it', () => {
  it("the person's Continue starts a new answer session with the answers kept, instead of the try-again banner on every try", async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId, persona, second } = await atSecondPage(agent);
    await lostNext(persona, prospectId, 87, 216);
    expect((await readOut(prospectId)).answerSessions.map((s) => s.pageIndex)).toEqual([2]);

    // The page still shows the second question; its Continue leads on (before: 502, the same on every try).
    const stale = answerBody(second.html, { 87: 216 });
    const continued = await postStep(agent, page, stale);
    expect(continued.status, continued.status === 502 ? 'the try-again banner again' : '').toBe(303);

    // A new answer session (a new KYC run's start), its first page with the person's answer chosen and the notice.
    const first = await pastLoader(agent, page);
    expect(first.shown).toEqual(['KYC_STEP', 'question']);
    expect(questionIdsOf(first.html)).toEqual([83]);
    expect(first.html).toMatch(/<option value="202" selected="">/);
    expect(decode(first.html)).toContain(KEPT_NOTICE);
    expect(decode(first.html)).not.toContain(TRY_AGAIN);
    const restarted = await readOut(prospectId);
    // The first page's, the lost one's and the refused one's.
    expect(restarted).toMatchObject({ startCalls: 2, nextCalls: 3 });
    expect(restarted.answerSessions.map((s) => s.pageIndex)).toEqual([2, 0]);

    // Answering again is a click per page: the answers as they stand.
    await postStep(agent, page, answerBody(first.html, { 83: 202 })).expect(303);
    const again = await pastLoader(agent, page);
    expect(questionIdsOf(again.html)).toEqual([87]);
    expect(again.html).toMatch(/<option value="216" selected="">/);
    expect(decode(again.html)).not.toContain(KEPT_NOTICE);
    // The old session's form (a stale tab) answers nothing in the new one, though it asks the same question.
    await postStep(agent, page, stale).expect(303);
    expect((await readOut(prospectId)).nextCalls).toBe(4);

    await postStep(agent, page, answerBody(again.html, { 87: 216 })).expect(303);
    await toMilestoneThree(agent, page);
    const done = await readOut(prospectId);
    expect(done).toMatchObject({ startCalls: 2, submitted: true });
    expect(done.answers).toMatchObject({ 83: [202], 87: [216] });
    expect(Object.keys(done.answers).map(Number).sort()).toEqual([...privateQuestionOrder].sort());
  });

  it('a restarted run refused the same way before any page of it was taken shows the try-again banner; the next click restarts', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId, persona, second } = await atSecondPage(agent);
    await lostNext(persona, prospectId, 87, 216);
    await postStep(agent, page, answerBody(second.html, { 87: 216 })).expect(303);
    const first = await pastLoader(agent, page);
    expect(decode(first.html)).toContain(KEPT_NOTICE);

    // The new session moves on behind our back too: no second restart without the person seeing it.
    await lostNext(persona, prospectId, 83, 202);
    const refused = await postStep(agent, page, answerBody(first.html, { 83: 202 })).expect(502);
    expect(decode(refused.text)).toContain(TRY_AGAIN);
    expect(screenOf(refused.text)).toEqual(['KYC_STEP', 'question']);
    expect(refused.text).toMatch(/<option value="202" selected="">/);
    expect((await readOut(prospectId)).startCalls).toBe(2);

    // The person's next Continue: a new session again, the answers kept.
    await postStep(agent, page, answerBody(refused.text, { 83: 202 })).expect(303);
    const third = await pastLoader(agent, page);
    expect(questionIdsOf(third.html)).toEqual([83]);
    expect(third.html).toMatch(/<option value="202" selected="">/);
    expect(decode(third.html)).toContain(KEPT_NOTICE);
    expect((await readOut(prospectId)).startCalls).toBe(3);
    await toMilestoneThree(agent, page);
    expect(await readOut(prospectId)).toMatchObject({ startCalls: 3, submitted: true });
  });

  it("the last page's answer taken: the new run's start finds the questionnaire answered and the step is submitted", async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'kyc');
    for (;;) {
      const { html: shownHtml } = await pastLoader(agent, page);
      if (questionIdsOf(shownHtml)[0] === privateQuestionOrder.at(-1)) {
        // Ownership of the money (91): someone else's money (219).
        await lostNext(persona, prospectId, 91, 219);
        await postStep(agent, page, answerBody(shownHtml, { 91: 219 })).expect(303);
        break;
      }
      await postStep(agent, page, httpAnswers.KYC_STEP!('question', shownHtml) as string).expect(303);
    }
    const milestone = await pastLoader(agent, page);
    expect(milestone.shown[0]).toBe('MILESTONE_THREE_STEP');
    // Its summary lists the last answer as posted.
    expect(decode(milestone.html)).toContain("Someone else's money");
    // Nine pages, the lost one's and the refused one's.
    expect(await readOut(prospectId)).toMatchObject({ startCalls: 2, nextCalls: 11, submitted: true });
  });

  it('Back refused as out of step (the answer session gone: 404) starts a new session too; an outage on next stays the try-again banner', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId, second } = await atSecondPage(agent);
    const [session] = (await readOut(prospectId)).answerSessions;
    const fault = (path: string, status: number) =>
      request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'POST', path, status, count: 1 }).expect(204);

    // A 5xx is an outage, not a page out of step: the banner with the answer kept, as before; no new run.
    await fault(kycPaths.answerSessionNext(session!.id), 500);
    const outage = await postStep(agent, page, answerBody(second.html, { 87: 216 })).expect(502);
    expect(decode(outage.text)).toContain(TRY_AGAIN);
    expect(outage.text).toMatch(/<option value="216" selected="">/);
    expect((await readOut(prospectId)).startCalls).toBe(1);

    await fault(kycPaths.answerSessionPrevious(session!.id), 404);
    await back(agent, page).expect(303);
    const first = await pastLoader(agent, page);
    expect(questionIdsOf(first.html)).toEqual([83]);
    expect(first.html).toMatch(/<option value="202" selected="">/);
    expect(decode(first.html)).toContain(KEPT_NOTICE);
    expect((await readOut(prospectId)).startCalls).toBe(2);
  });
});
