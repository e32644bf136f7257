// The sandbox's know-your-customer upstream (sandbox/kyc.ts; customer-information §3, §4.6, §7, §9) over HTTP, and
// the typed brokerage client's KYC calls (server/upstream/brokerageClient.ts) against a listening sandbox: the
// questionnaires, the answer sessions and their texts in every locale, validation, previous, the risk calculation,
// the KYC step submit, and one test per KYC persona, each checked against the read-out GET /sandbox/kyc.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/main.ts';
import {
  brokerageErrorBody,
  brokeragePaths,
  createProspectResponse,
  refreshTokenResponse,
  type CountryCode,
} from '../../shared/contracts/brokerageContract.ts';
import {
  answerSessionResponse,
  kycPaths,
  PEP_NO,
  PEP_QUESTION,
  PEP_YES,
  privateQuestionOrder,
  PRIVATE_QUESTIONNAIRE_ALIAS,
  questionnaireResponse,
  riskCalculationResponse,
  X_LOCALE_HEADER,
  type AnswerSessionAnswers,
  type AnswerSessionPage,
  type Questionnaire,
} from '../../shared/contracts/kycContract.ts';
import { supportedLocales } from '../../shared/i18n.ts';
import { createBrokerageClient, type BrokerageClient } from '../../server/upstream/brokerageClient.ts';
import { UpstreamError } from '../../server/upstream/http.ts';
import { kycReadOut } from '../support/kycSandbox.ts';

type Target = Parameters<typeof request>[0];
const bearer = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
const newApp = () => createSandboxApp({ publicUrl: 'http://sandbox.test' });

async function personaFor(app: Target, scenario: string, country: CountryCode = 'SE'): Promise<{ nationalId: string }> {
  const personas = (await request(app).get('/sandbox/personas').expect(200)).body as Array<{ nationalId: string; scenario: string; country: string }>;
  const found = personas.find((p) => p.scenario === scenario && p.country === country);
  if (!found) throw new Error(`no ${country} persona for ${scenario}`);
  return found;
}

/** A brokerage session (sandbox shortcut) and a fresh v3 prospect of the scenario's persona. */
async function prospectOf(app: Target, scenario: string, country: CountryCode = 'SE'): Promise<{ jwt: string; prospectId: string }> {
  const persona = await personaFor(app, scenario, country);
  const session = await request(app).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  const refreshed = await request(app).post(brokeragePaths.refreshToken).send({ refreshToken: session.body.refreshToken }).expect(200);
  const { jwt } = refreshTokenResponse.parse(refreshed.body);
  await request(app).put(brokeragePaths.becomeCustomerIntent).set(bearer(jwt)).send({ customerType: 'PRIVATE', country }).expect(204);
  await request(app).post(brokeragePaths.validationStepV3).set(bearer(jwt)).send({ country }).expect(200);
  const created = await request(app).post(brokeragePaths.prospectsV3).set(bearer(jwt)).send({ country, customerType: 'PRIVATE' }).expect(200);
  return { jwt, prospectId: createProspectResponse.parse(created.body).prospect_id };
}

const readOut = (app: Target, prospectId: string) => kycReadOut(app, prospectId);

async function getQuestionnaire(app: Target, jwt: string, id: number, acceptLanguage?: string): Promise<Questionnaire> {
  const req = request(app).get(kycPaths.questionnaire(id)).set(bearer(jwt));
  if (acceptLanguage) void req.set('Accept-Language', acceptLanguage);
  return questionnaireResponse.parse((await req.expect(200)).body).data;
}

const start = (app: Target, jwt: string, prospectId: string, locale?: string) => {
  const req = request(app).post(kycPaths.answerSessions).set(bearer(jwt));
  if (locale) void req.set(X_LOCALE_HEADER, locale);
  return req.send({ targetCustomerId: prospectId, questionnaireAlias: PRIVATE_QUESTIONNAIRE_ALIAS });
};
const next = (app: Target, jwt: string, sessionId: string, answers: unknown) =>
  request(app).post(kycPaths.answerSessionNext(sessionId)).set(bearer(jwt)).send({ answers });
const previous = (app: Target, jwt: string, sessionId: string) => request(app).post(kycPaths.answerSessionPrevious(sessionId)).set(bearer(jwt));

/** Answers a page as a careful prospect would: the first option of every known question, no to PEP. */
function answersFor(page: AnswerSessionPage): AnswerSessionAnswers {
  return page.questions
    .filter((q) => q.type === 'SINGLE_CHOICE' || q.type === 'MULTIPLE_CHOICE')
    .map((q) => ({ questionId: q.id, answerIds: [q.id === PEP_QUESTION ? PEP_NO : q.options[0]!.id] }));
}

/** Starts a session and answers every page; answers the pages shown and the read-out's answers. */
async function walkOverHttp(app: Target, jwt: string, prospectId: string, locale?: string): Promise<{ pages: AnswerSessionPage[]; sessionId: string }> {
  const started = answerSessionResponse.parse((await start(app, jwt, prospectId, locale).expect(200)).body);
  const pages: AnswerSessionPage[] = [];
  let page = started.answerSessionPage;
  while (page) {
    pages.push(page);
    const res = answerSessionResponse.parse((await next(app, jwt, started.answerSessionId, answersFor(page)).expect(200)).body);
    expect(res.answerSessionId).toBe(started.answerSessionId);
    page = res.answerSessionPage;
  }
  return { pages, sessionId: started.answerSessionId };
}

const allTexts = (page: AnswerSessionPage) => [page.title, ...page.questions.flatMap((q) => [q.text, q.helpText ?? '', ...q.options.map((o) => o.text)])];

// --- questionnaires ---------------------------------------------------------------------------------------

describe('sandbox: GET questionnaire', () => {
  it('answers questionnaire 8 in the order of customer-information §9, with PEP 84 (no 223, yes 224) and unique answer ids', async () => {
    const app = newApp();
    const { jwt } = await prospectOf(app, 'kyc');
    const q = await getQuestionnaire(app, jwt, 8);
    expect(q.questionnaire_id).toBe(8);
    expect(q.questions.map((x) => x.question_id)).toEqual([...privateQuestionOrder]);
    expect(q.questions.map((x) => x.question_tag)).toEqual([
      'occupation',
      'monthly_income',
      'yearly_deposit_value',
      'deposit_count',
      'initial_transfer',
      'withdrawal_count',
      'purpose_of_saving',
      'origin_of_funds',
      'politically_exposed_person',
      'ownership_of_money',
    ]);
    const byId = new Map(q.questions.map((x) => [x.question_id, x]));
    expect(byId.get(PEP_QUESTION)).toEqual({
      question_id: 84,
      question_tag: 'politically_exposed_person',
      answer_type: 'SINGLE_CHOICE',
      answers: [
        { answer_id: PEP_NO, answer_tag: 'pep_no' },
        { answer_id: PEP_YES, answer_tag: 'pep_yes' },
      ],
    });
    expect(byId.get(86)!.answer_type).toBe('MULTIPLE_CHOICE');
    expect(q.questions.filter((x) => x.answer_type !== 'SINGLE_CHOICE').map((x) => x.question_id)).toEqual([86]);
    expect(byId.get(91)!.answers).toHaveLength(2);
    // The bands of §9 (SEK by default, Accept-Language sv).
    expect(byId.get(87)!.answers.map((a) => a.answer_tag)).toEqual([
      'monthly_income_0_20000_sek',
      'monthly_income_20000_50000_sek',
      'monthly_income_50000_100000_sek',
      'monthly_income_over_100000_sek',
    ]);
    expect(byId.get(88)!.answers).toHaveLength(6);
    expect(byId.get(88)!.answers.at(-1)!.answer_tag).toBe('initial_transfer_over_8000000_sek');
    expect(byId.get(89)!.answers.map((a) => a.answer_tag)).toEqual([
      'deposit_count_0_10',
      'deposit_count_11_50',
      'deposit_count_51_100',
      'deposit_count_over_100',
    ]);
    expect(byId.get(90)!.answers.at(-1)!.answer_tag).toBe('yearly_deposit_value_over_5000000_sek');
    expect(q.questions.some((x) => x.answer_type === 'SINGLE_CHOICE' && x.answers.length > 2)).toBe(true);
    const ids = q.questions.flatMap((x) => x.answers.map((a) => a.answer_id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const x of q.questions) expect(x.question_tag).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('honours Accept-Language: the bands in the market’s currency, with the same ids and tags otherwise', async () => {
    const app = newApp();
    const { jwt } = await prospectOf(app, 'kyc');
    const sv = await getQuestionnaire(app, jwt, 8, 'sv-SE,sv;q=0.9');
    expect(await getQuestionnaire(app, jwt, 8, 'en')).toEqual(sv);
    const idsOf = (q: Questionnaire) => q.questions.map((x) => [x.question_id, x.answers.map((a) => a.answer_id)]);
    const incomeTags = (q: Questionnaire) => q.questions.find((x) => x.question_id === 87)!.answers.map((a) => a.answer_tag);
    for (const [language, currency, first] of [
      ['nb-NO', 'nok', 'monthly_income_0_20000_nok'],
      ['da-DK,da;q=0.9,en;q=0.5', 'dkk', 'monthly_income_0_15000_dkk'],
      ['fi-FI', 'eur', 'monthly_income_0_2000_eur'],
      ['sv-FI', 'eur', 'monthly_income_0_2000_eur'],
    ] as const) {
      const q = await getQuestionnaire(app, jwt, 8, language);
      expect(idsOf(q), language).toEqual(idsOf(sv));
      expect(incomeTags(q)[0], language).toBe(first);
      expect(incomeTags(q).every((t) => t.endsWith(`_${currency}`))).toBe(true);
      expect(q.questions.find((x) => x.question_id === 83)).toEqual(sv.questions.find((x) => x.question_id === 83));
    }
  });

  it('answers questionnaire 9 (company): eleven questions, industry multiple choice, the turnover bands of §9', async () => {
    const app = newApp();
    const { jwt } = await prospectOf(app, 'kyc');
    const q = await getQuestionnaire(app, jwt, 9);
    expect(q.questionnaire_id).toBe(9);
    expect(q.questions.map((x) => x.question_tag)).toEqual([
      'industry',
      'corporate_form',
      'virtual_currency_use',
      'purpose',
      'origin_of_funds',
      'yearly_turnover',
      'opening_transfer',
      'deposit_count',
      'yearly_deposit_value',
      'ownership_of_money',
      'withdrawal_count',
    ]);
    expect(q.questions.map((x) => x.question_id)).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110]);
    expect(q.questions[0]!.answer_type).toBe('MULTIPLE_CHOICE');
    expect(q.questions.find((x) => x.question_tag === 'yearly_turnover')!.answers.map((a) => a.answer_tag)).toEqual([
      'yearly_turnover_0_200000_sek',
      'yearly_turnover_200000_2000000_sek',
      'yearly_turnover_2000000_20000000_sek',
      'yearly_turnover_20000000_100000000_sek',
      'yearly_turnover_100000000_500000000_sek',
      'yearly_turnover_over_500000000_sek',
    ]);
    const ids = [...q.questions, ...(await getQuestionnaire(app, jwt, 8)).questions].flatMap((x) => x.answers.map((a) => a.answer_id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('needs a bearer token and knows only questionnaires 8 and 9', async () => {
    const app = newApp();
    const { jwt } = await prospectOf(app, 'kyc');
    await request(app).get(kycPaths.questionnaire(8)).expect(401);
    await request(app).get(kycPaths.questionnaire(7)).set(bearer(jwt)).expect(404);
  });
});

// --- answer sessions ------------------------------------------------------------------------------------

describe('sandbox: answer sessions', () => {
  it('has every text in every locale, none empty, the options those of the questionnaire', async () => {
    const app = newApp();
    const { jwt } = await prospectOf(app, 'kyc');
    const questionnaire = await getQuestionnaire(app, jwt, 8);
    const seen = new Map<string, string[]>();
    for (const locale of supportedLocales) {
      const fresh = await prospectOf(app, 'kyc');
      const { pages } = await walkOverHttp(app, fresh.jwt, fresh.prospectId, locale);
      expect(pages.map((p) => p.questions.map((q) => q.id))).toEqual(privateQuestionOrder.map((id) => [id]));
      pages.forEach((page, i) => {
        const expected = questionnaire.questions[i]!;
        const [q] = page.questions;
        expect(q!.type).toBe(expected.answer_type);
        expect(q!.options.map((o) => o.id)).toEqual(expected.answers.map((a) => a.answer_id));
        expect(page.hasNextPage).toBe(i < pages.length - 1);
        for (const text of allTexts(page)) expect(text.trim(), `${locale} question ${q!.id}`).not.toBe('');
        expect(new Set(q!.options.map((o) => o.text)).size, `${locale} question ${q!.id}`).toBe(q!.options.length);
      });
      seen.set(locale, pages.flatMap(allTexts));
    }
    // Each language is its own; sv-FI reads as sv-SE for a Swedish prospect (same texts, same kronor bands).
    expect(seen.get('sv-FI')).toEqual(seen.get('sv-SE'));
    const languages = ['en', 'sv-SE', 'nb-NO', 'da-DK', 'fi-FI'].map((l) => seen.get(l)!);
    for (const [i, a] of languages.entries()) for (const b of languages.slice(i + 1)) expect(a[1]).not.toBe(b[1]);
    expect(seen.get('sv-SE')![1]).toBe('Vad är din huvudsakliga sysselsättning?');
    expect(seen.get('en')![1]).toBe('What is your main occupation?');
  });

  it('answers a full session in two locales: texts differ, ids do not; a null page after the last; the answers stored', async () => {
    const app = newApp();
    const en = await prospectOf(app, 'kyc');
    const sv = await prospectOf(app, 'kyc');
    const enWalk = await walkOverHttp(app, en.jwt, en.prospectId, 'en');
    const svWalk = await walkOverHttp(app, sv.jwt, sv.prospectId, 'sv-SE');
    expect(enWalk.pages).toHaveLength(10);
    expect(enWalk.pages.map((p) => p.questions.map((q) => q.options.map((o) => o.id)))).toEqual(
      svWalk.pages.map((p) => p.questions.map((q) => q.options.map((o) => o.id))),
    );
    enWalk.pages.forEach((page, i) => {
      expect(page.title).not.toBe(svWalk.pages[i]!.title);
      expect(page.questions[0]!.text).not.toBe(svWalk.pages[i]!.questions[0]!.text);
      expect(page.questions[0]!.helpText).not.toBe(svWalk.pages[i]!.questions[0]!.helpText);
    });
    const pep = enWalk.pages.find((p) => p.questions[0]!.id === PEP_QUESTION)!.questions[0]!;
    expect(pep.options).toEqual([
      { id: PEP_NO, text: 'No' },
      { id: PEP_YES, text: 'Yes' },
    ]);
    expect(pep.helpText).toMatch(/politically exposed person/i);
    // Amounts in the prospect's currency, written the locale's way.
    const income = (p: AnswerSessionPage[]) => p.find((x) => x.questions[0]!.id === 87)!.questions[0]!.options.map((o) => o.text);
    expect(income(svWalk.pages).at(-1)).toMatch(/^Mer än 100\s000\skr$/);
    expect(income(enWalk.pages).at(-1)!.replace(/\s/g, ' ')).toBe('More than SEK 100,000');

    const out = await readOut(app, en.prospectId);
    expect(out).toEqual({
      startCalls: 1,
      nextCalls: 10,
      previousCalls: 0,
      riskPolls: 0,
      submitted: false,
      answers: Object.fromEntries(enWalk.pages.map((p) => [String(p.questions[0]!.id), answersFor(p)[0]!.answerIds])),
    });
    expect(out.answers[String(PEP_QUESTION)]).toEqual([PEP_NO]);
    // Answered: a next on the finished session and a new start are refused.
    await next(app, en.jwt, enWalk.sessionId, [{ questionId: 83, answerIds: [200] }]).expect(400);
    await start(app, en.jwt, en.prospectId, 'en').expect(403);
  });

  it('takes the bands of the prospect’s market, the texts of the session’s locale, English for an unknown one', async () => {
    const app = newApp();
    const fi = await prospectOf(app, 'onboarding', 'FI');
    const incomeOf = async (locale: string | undefined) => {
      const { prospectId } = await prospectOf(app, 'onboarding', 'FI');
      const s = answerSessionResponse.parse((await start(app, fi.jwt, prospectId, locale).expect(200)).body);
      let page = s.answerSessionPage!;
      while (page.questions[0]!.id !== 87)
        page = answerSessionResponse.parse((await next(app, fi.jwt, s.answerSessionId, answersFor(page)).expect(200)).body).answerSessionPage!;
      return page;
    };
    const fiPage = await incomeOf('fi-FI');
    expect(fiPage.questions[0]!.text).toBe('Paljonko ovat kuukausitulosi ennen veroja?');
    expect(fiPage.questions[0]!.options.map((o) => o.text.replace(/\s/g, ' '))).toEqual(['0–2 000 €', '2 000–5 000 €', '5 000–10 000 €', 'Yli 10 000 €']);
    expect((await incomeOf('sv-FI')).questions[0]!.options.at(-1)!.text.replace(/\s/g, ' ')).toBe('Mer än 10 000 €');
    const unknown = await incomeOf('de-DE');
    expect(unknown.title).toBe('About you and your savings');
    expect(unknown.questions[0]!.options.at(-1)!.text).toBe('More than €10,000');
    expect((await incomeOf(undefined)).title).toBe('About you and your savings');
  });

  it('refuses answers that do not fit the page shown with 400 and the fields, and stays on the page', async () => {
    const app = newApp();
    const { jwt, prospectId } = await prospectOf(app, 'kyc');
    const s = answerSessionResponse.parse((await start(app, jwt, prospectId).expect(200)).body);
    const id = s.answerSessionId;
    const refused = async (answers: unknown) => brokerageErrorBody.parse((await next(app, jwt, id, answers).expect(400)).body).data?.fields;
    expect(await refused([{ questionId: 999, answerIds: [200] }])).toEqual(['answers.0.questionId', 'answers']);
    expect(await refused([{ questionId: 84, answerIds: [PEP_NO] }])).toEqual(['answers.0.questionId', 'answers']);
    expect(await refused([{ questionId: 83, answerIds: [999] }])).toEqual(['answers.0.answerIds']);
    expect(await refused([{ questionId: 83, answerIds: [PEP_NO] }])).toEqual(['answers.0.answerIds']);
    expect(await refused([{ questionId: 83, answerIds: [200, 201] }])).toEqual(['answers.0.answerIds']);
    expect(await refused([])).toEqual(['answers']);
    expect(await refused([{ questionId: 83, answerIds: [] }])).toEqual(['answers.0.answerIds']);
    expect(
      await refused([
        { questionId: 83, answerIds: [200] },
        { questionId: 83, answerIds: [201] },
      ]),
    ).toEqual(['answers.1.questionId']);
    expect(await refused('occupation')).toEqual(['answers']);
    // Nothing stored; the same page still takes its answer.
    expect((await readOut(app, prospectId)).answers).toEqual({});
    const ok = answerSessionResponse.parse((await next(app, jwt, id, [{ questionId: 83, answerIds: [201] }]).expect(200)).body);
    expect(ok.answerSessionPage!.questions[0]!.id).toBe(87);
    // A multiple-choice question takes several answers, but not one twice.
    let page = ok.answerSessionPage!;
    while (page.questions[0]!.id !== 86) page = answerSessionResponse.parse((await next(app, jwt, id, answersFor(page)).expect(200)).body).answerSessionPage!;
    expect(await refused([{ questionId: 86, answerIds: [209, 209] }])).toEqual(['answers.0.answerIds']);
    await next(app, jwt, id, [{ questionId: 86, answerIds: [209, 212] }]).expect(200);
    const out = await readOut(app, prospectId);
    expect(out.answers['83']).toEqual([201]);
    expect(out.answers['86']).toEqual([209, 212]);
    // 9 refused, page 83, six pages up to 86, one refused and one taken there.
    expect(out.nextCalls).toBe(9 + 1 + 6 + 2);
  });

  it('goes back a page with previous: 400 on the first page, the last page again after the null page', async () => {
    const app = newApp();
    const { jwt, prospectId } = await prospectOf(app, 'kyc');
    const s = answerSessionResponse.parse((await start(app, jwt, prospectId, 'sv-SE').expect(200)).body);
    const id = s.answerSessionId;
    expect(brokerageErrorBody.parse((await previous(app, jwt, id).expect(400)).body).data?.fields).toEqual(['answerSessionId']);
    await next(app, jwt, id, [{ questionId: 83, answerIds: [200] }]).expect(200);
    const back = answerSessionResponse.parse((await previous(app, jwt, id).expect(200)).body);
    expect(back.answerSessionPage).toEqual(s.answerSessionPage);
    // Answered again differently: the later answer counts.
    let page = answerSessionResponse.parse((await next(app, jwt, id, [{ questionId: 83, answerIds: [203] }]).expect(200)).body).answerSessionPage;
    while (page) page = answerSessionResponse.parse((await next(app, jwt, id, answersFor(page)).expect(200)).body).answerSessionPage;
    const last = answerSessionResponse.parse((await previous(app, jwt, id).expect(200)).body).answerSessionPage!;
    expect(last.questions.map((q) => q.id)).toEqual([91]);
    expect(last.hasNextPage).toBe(false);
    // Reopened: not answered until the last page is answered again.
    await request(app).post(kycPaths.kycStep(prospectId)).set(bearer(jwt)).expect(400);
    expect((await next(app, jwt, id, answersFor(last)).expect(200)).body.answerSessionPage).toBeNull();
    await request(app).post(kycPaths.kycStep(prospectId)).set(bearer(jwt)).expect(204);
    const out = await readOut(app, prospectId);
    expect(out).toMatchObject({ startCalls: 1, previousCalls: 3, nextCalls: 12, submitted: true });
    expect(out.answers['83']).toEqual([203]);
  });

  it('reports the risk calculation done from the 2nd poll after the questionnaire is answered; the step takes a submit only then', async () => {
    const app = newApp();
    const { jwt, prospectId } = await prospectOf(app, 'onboarding');
    const risk = async () => riskCalculationResponse.parse((await request(app).get(kycPaths.riskCalculation(prospectId)).set(bearer(jwt)).expect(200)).body);
    expect(await risk()).toEqual({ riskCalculation: { done: false } });
    await request(app).post(kycPaths.kycStep(prospectId)).set(bearer(jwt)).expect(400);
    await walkOverHttp(app, jwt, prospectId, 'en');
    expect(await risk()).toEqual({ riskCalculation: { done: false } });
    expect(await risk()).toEqual({ riskCalculation: { done: true } });
    expect(await risk()).toEqual({ riskCalculation: { done: true } });
    expect((await readOut(app, prospectId)).submitted).toBe(false);
    const submitted = await request(app).post(kycPaths.kycStep(prospectId)).set(bearer(jwt)).expect(204);
    expect(submitted.text).toBe('');
    expect(await readOut(app, prospectId)).toMatchObject({ riskPolls: 4, submitted: true, startCalls: 1, nextCalls: 10 });
  });

  it('refuses another person’s prospect and answer session, and unknown ones', async () => {
    const app = newApp();
    const mine = await prospectOf(app, 'kyc');
    const theirs = await prospectOf(app, 'onboarding');
    expect(brokerageErrorBody.parse((await start(app, mine.jwt, theirs.prospectId).expect(403)).body).data?.message).toMatch(/another customer/);
    await request(app).get(kycPaths.riskCalculation(theirs.prospectId)).set(bearer(mine.jwt)).expect(403);
    await request(app).post(kycPaths.kycStep(theirs.prospectId)).set(bearer(mine.jwt)).expect(403);
    await start(app, mine.jwt, 'no-such-prospect').expect(404);
    const s = answerSessionResponse.parse((await start(app, theirs.jwt, theirs.prospectId).expect(200)).body);
    await next(app, mine.jwt, s.answerSessionId, [{ questionId: 83, answerIds: [200] }]).expect(404);
    await previous(app, mine.jwt, s.answerSessionId).expect(404);
    await next(app, mine.jwt, 'no-such-session', []).expect(404);
    await start(app, mine.jwt, mine.prospectId).set(bearer('not-a-token')).expect(401);
    await request(app)
      .post(kycPaths.answerSessions)
      .set(bearer(mine.jwt))
      .send({ targetCustomerId: mine.prospectId, questionnaireAlias: 'company' })
      .expect(400);
    expect(await readOut(app, theirs.prospectId)).toEqual({ startCalls: 1, nextCalls: 0, previousCalls: 0, riskPolls: 0, submitted: false, answers: {} });
    expect((await readOut(app, mine.prospectId)).startCalls).toBe(0);
  });

  it('read-out: 400 without a prospect id, 404 for an unknown one, cleared by POST /sandbox/reset', async () => {
    const app = newApp();
    const { jwt, prospectId } = await prospectOf(app, 'kyc');
    await walkOverHttp(app, jwt, prospectId);
    expect((await readOut(app, prospectId)).nextCalls).toBe(10);
    await request(app).get('/sandbox/kyc').expect(400);
    await request(app).get('/sandbox/kyc').query({ prospectId: 'nobody' }).expect(404);
    await request(app).post('/sandbox/reset').expect(204);
    await request(app).get('/sandbox/kyc').query({ prospectId }).expect(404);
    // The same persona starts over: a new prospect has nothing recorded.
    const again = await prospectOf(app, 'kyc');
    expect(await readOut(app, again.prospectId)).toEqual({ startCalls: 0, nextCalls: 0, previousCalls: 0, riskPolls: 0, submitted: false, answers: {} });
    await start(app, again.jwt, again.prospectId).expect(200);
  });
});

// --- the typed client against a listening sandbox, one test per persona ------------------------------------------

describe('typed brokerage client: KYC personas', () => {
  let sandbox: RunningSandbox;
  let client: BrokerageClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
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
    expect(await readOut(sandbox.url, prospectId)).toEqual({ startCalls: 1, nextCalls: 0, previousCalls: 0, riskPolls: 0, submitted: true, answers: {} });
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
