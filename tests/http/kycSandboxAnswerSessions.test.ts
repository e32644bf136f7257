// The sandbox's KYC answer sessions over HTTP (sandbox/kyc.ts; customer-information §3, §4.6, §7, §9): their texts in
// every locale, validation, previous, the risk calculation, the KYC step submit, another person's prospect, and the
// read-out GET /sandbox/kyc.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { brokerageErrorBody } from '../../shared/contracts/brokerageContract.ts';
import {
  answerSessionResponse,
  kycPaths,
  PEP_NO,
  PEP_QUESTION,
  PEP_YES,
  privateQuestionOrder,
  PRIVATE_QUESTIONNAIRE_ALIAS,
  riskCalculationResponse,
  X_LOCALE_HEADER,
  type AnswerSessionPage,
} from '../../shared/contracts/kycContract.ts';
import { supportedLocales } from '../../shared/i18n.ts';
import { answersFor, getQuestionnaire, kycReadOut as readOut, prospectOf } from '../support/kycSandbox.ts';
import { bearer, newApp, type Target } from '../support/sandboxApi.ts';

const start = (app: Target, jwt: string, prospectId: string, locale?: string) => {
  const req = request(app).post(kycPaths.answerSessions).set(bearer(jwt));
  if (locale) void req.set(X_LOCALE_HEADER, locale);
  return req.send({ targetCustomerId: prospectId, questionnaireAlias: PRIVATE_QUESTIONNAIRE_ALIAS });
};
const next = (app: Target, jwt: string, sessionId: string, answers: unknown) =>
  request(app).post(kycPaths.answerSessionNext(sessionId)).set(bearer(jwt)).send({ answers });
const previous = (app: Target, jwt: string, sessionId: string) => request(app).post(kycPaths.answerSessionPrevious(sessionId)).set(bearer(jwt));

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
      // Its one session, past its last page.
      answerSessions: [{ id: enWalk.sessionId, pageIndex: 10 }],
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
    expect(await readOut(app, theirs.prospectId)).toEqual({
      startCalls: 1,
      nextCalls: 0,
      previousCalls: 0,
      riskPolls: 0,
      submitted: false,
      answers: {},
      answerSessions: [{ id: s.answerSessionId, pageIndex: 0 }],
    });
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
    expect(await readOut(app, again.prospectId)).toEqual({
      startCalls: 0,
      nextCalls: 0,
      previousCalls: 0,
      riskPolls: 0,
      submitted: false,
      answers: {},
      answerSessions: [],
    });
    await start(app, again.jwt, again.prospectId).expect(200);
  });
});
