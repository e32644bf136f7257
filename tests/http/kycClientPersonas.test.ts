// The typed brokerage client's KYC calls (server/upstream/brokerageKycCalls.ts) against a listening sandbox, one test
// per KYC persona (customer-information §4.6, §7), each checked against the read-out GET /sandbox/kyc.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/main.ts';
import { privateQuestionOrder, type AnswerSessionPage } from '../../shared/contracts/kycContract.ts';
import { createBrokerageClient, type BrokerageClient } from '../../server/upstream/brokerageClient.ts';
import { UpstreamError } from '../../server/upstream/http.ts';
import { answersFor, kycReadOut as readOut } from '../support/kycSandbox.ts';
import { FRESH_PROSPECTS, personaFor } from '../support/sandboxApi.ts';

describe('typed brokerage client: KYC personas', () => {
  let sandbox: RunningSandbox;
  let client: BrokerageClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...FRESH_PROSPECTS });
    client = createBrokerageClient({ baseUrl: sandbox.url, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** A session of the scenario's persona and a fresh prospect, through the client's own calls. */
  async function clientProspect(scenario: string): Promise<{ jwt: string; prospectId: string }> {
    const persona = await personaFor(sandbox.url, scenario);
    const session = await request(sandbox.url).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
    const { jwt } = await client.refreshToken(session.body.refreshToken as string);
    await client.becomeCustomerIntent(jwt, 'SE');
    await client.submitValidationStep(jwt, 'SE', true);
    const { prospect_id: prospectId } = await client.createProspect(jwt, 'SE', false);
    expect(await client.initialSteps(jwt, prospectId)).toContain('KYC_STEP');
    return { jwt, prospectId };
  }

  /** Answers every page of a started session; answers how many pages there were. */
  async function answerAll(jwt: string, sessionId: string, first: AnswerSessionPage | null): Promise<number> {
    let page = first;
    let pages = 0;
    while (page) {
      pages += 1;
      const res = await client.answerSessionNext(jwt, sessionId, answersFor(page));
      page = res.answerSessionPage;
    }
    return pages;
  }

  async function started(jwt: string, prospectId: string, locale = 'sv-SE') {
    const answer = await client.startAnswerSession(jwt, prospectId, locale);
    if (answer.kind !== 'started') throw new Error(`expected a session, got ${answer.kind}`);
    return answer.session;
  }

  it('questionnaire(jwt, id, Accept-Language) parses the questionnaire', async () => {
    const { jwt } = await clientProspect('kyc');
    const q = await client.questionnaire(jwt, 8, 'nb-NO');
    expect(q.questions.map((x) => x.question_id)).toEqual([...privateQuestionOrder]);
    expect(q.questions.find((x) => x.question_id === 87)!.answers[0]!.answer_tag).toBe('monthly_income_0_20000_nok');
    expect((await client.questionnaire(jwt, 9, 'sv')).questionnaire_id).toBe(9);
    await expect(client.questionnaire(jwt, 7, 'sv')).rejects.toMatchObject({ status: 404 });
  });

  it.each(['kyc', 'onboarding'])('%s: answers normally — session, previous, risk done on the 2nd poll, submit ok', async (scenario) => {
    const { jwt, prospectId } = await clientProspect(scenario);
    const session = await started(jwt, prospectId, 'en');
    const second = await client.answerSessionNext(jwt, session.answerSessionId, answersFor(session.answerSessionPage!));
    expect(second.answerSessionPage!.questions[0]!.id).toBe(87);
    const back = await client.answerSessionPrevious(jwt, session.answerSessionId);
    expect(back.answerSessionPage).toEqual(session.answerSessionPage);
    expect(await answerAll(jwt, session.answerSessionId, back.answerSessionPage)).toBe(10);
    expect(await client.riskCalculation(jwt, prospectId)).toEqual({ done: false });
    expect(await client.riskCalculation(jwt, prospectId)).toEqual({ done: true });
    expect(await client.submitKycStep(jwt, prospectId)).toEqual({ ok: true });
    expect(await readOut(sandbox.url, prospectId)).toMatchObject({ startCalls: 1, nextCalls: 11, previousCalls: 1, riskPolls: 2, submitted: true });
  });

  it('kycAlreadyAnswered: start answers 403 → alreadyAnswered (no UpstreamError); the step submit is taken', async () => {
    const { jwt, prospectId } = await clientProspect('kycAlreadyAnswered');
    expect(await client.startAnswerSession(jwt, prospectId, 'sv-SE')).toEqual({ kind: 'alreadyAnswered' });
    expect(await client.submitKycStep(jwt, prospectId)).toEqual({ ok: true });
    expect(await readOut(sandbox.url, prospectId)).toEqual({
      startCalls: 1,
      nextCalls: 0,
      previousCalls: 0,
      riskPolls: 0,
      submitted: true,
      answers: {},
      answerSessions: [],
    });
  });

  it('kycBusy: start answers 409 three times (busy), then a session', async () => {
    const { jwt, prospectId } = await clientProspect('kycBusy');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await client.startAnswerSession(jwt, prospectId, 'sv-SE')).kind);
    expect(answers).toEqual(['busy', 'busy', 'busy', 'started']);
    expect((await readOut(sandbox.url, prospectId)).startCalls).toBe(4);
  });

  it('kycBusyForever: start is always busy', async () => {
    const { jwt, prospectId } = await clientProspect('kycBusyForever');
    for (let i = 0; i < 12; i++) expect(await client.startAnswerSession(jwt, prospectId, 'sv-SE')).toEqual({ kind: 'busy' });
    expect((await readOut(sandbox.url, prospectId)).startCalls).toBe(12);
  });

  it('kycNextFailsOnce: the first next answers 500 (UpstreamError), the same answers again go through', async () => {
    const { jwt, prospectId } = await clientProspect('kycNextFailsOnce');
    const session = await started(jwt, prospectId);
    const answers = answersFor(session.answerSessionPage!);
    const failure = await client.answerSessionNext(jwt, session.answerSessionId, answers).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ status: 500 });
    expect((await readOut(sandbox.url, prospectId)).answers).toEqual({});
    const second = await client.answerSessionNext(jwt, session.answerSessionId, answers);
    expect(second.answerSessionPage!.questions[0]!.id).toBe(87);
    expect(await answerAll(jwt, session.answerSessionId, second.answerSessionPage)).toBe(9);
    expect(await readOut(sandbox.url, prospectId)).toMatchObject({ startCalls: 1, nextCalls: 11, answers: { '83': [200] } });
  });

  it('kycRiskNeverDone: the risk calculation is never done (30 polls)', async () => {
    const { jwt, prospectId } = await clientProspect('kycRiskNeverDone');
    const session = await started(jwt, prospectId);
    await answerAll(jwt, session.answerSessionId, session.answerSessionPage);
    for (let i = 0; i < 30; i++) expect(await client.riskCalculation(jwt, prospectId)).toEqual({ done: false });
    expect(await readOut(sandbox.url, prospectId)).toMatchObject({ riskPolls: 30, nextCalls: 10, submitted: false });
  });

  it('kycMoreInformation: the step submit answers 403 → moreInformationRequired', async () => {
    const { jwt, prospectId } = await clientProspect('kycMoreInformation');
    const session = await started(jwt, prospectId);
    await answerAll(jwt, session.answerSessionId, session.answerSessionPage);
    expect(await client.riskCalculation(jwt, prospectId)).toEqual({ done: false });
    expect(await client.riskCalculation(jwt, prospectId)).toEqual({ done: true });
    expect(await client.submitKycStep(jwt, prospectId)).toEqual({ ok: false, moreInformationRequired: true });
    expect(await readOut(sandbox.url, prospectId)).toMatchObject({ startCalls: 1, nextCalls: 10, riskPolls: 2, submitted: false });
  });

  it('kycUnknownType: the first page carries a FREE_TEXT question after the occupation; the page is answered without it', async () => {
    const { jwt, prospectId } = await clientProspect('kycUnknownType');
    const session = await started(jwt, prospectId, 'da-DK');
    const first = session.answerSessionPage!;
    expect(first.questions.map((q) => [q.id, q.type])).toEqual([
      [83, 'SINGLE_CHOICE'],
      [93, 'FREE_TEXT'],
    ]);
    const unknown = first.questions[1]!;
    expect(unknown.options).toEqual([]);
    expect(unknown.text).toBe('Beskriv din beskæftigelse med dine egne ord.');
    expect(unknown.helpText).toBeTruthy();
    await expect(
      client.answerSessionNext(jwt, session.answerSessionId, [
        { questionId: 83, answerIds: [200] },
        { questionId: 93, answerIds: [200] },
      ]),
    ).rejects.toMatchObject({ status: 400 });
    expect(await answerAll(jwt, session.answerSessionId, first)).toBe(10);
    expect(await client.submitKycStep(jwt, prospectId)).toEqual({ ok: true });
    const out = await readOut(sandbox.url, prospectId);
    expect(out).toMatchObject({ startCalls: 1, nextCalls: 11, submitted: true });
    expect(Object.keys(out.answers)).not.toContain('93');
  });

  it('other failures throw UpstreamError, with the status', async () => {
    const { jwt, prospectId } = await clientProspect('kyc');
    await expect(client.answerSessionNext(jwt, 'no-such-session', [])).rejects.toMatchObject({ status: 404 });
    await expect(client.answerSessionPrevious(jwt, 'no-such-session')).rejects.toBeInstanceOf(UpstreamError);
    await expect(client.submitKycStep(jwt, prospectId)).rejects.toMatchObject({ status: 400 });
    await expect(client.startAnswerSession('not-a-token', prospectId, 'sv-SE')).rejects.toMatchObject({ status: 401 });
    await expect(client.riskCalculation(jwt, 'no-such-prospect')).rejects.toMatchObject({ status: 404 });
  });
});
