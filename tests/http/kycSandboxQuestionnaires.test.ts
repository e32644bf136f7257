// The sandbox's KYC questionnaires over HTTP (sandbox/kyc.ts; customer-information §3, §7, §9): questionnaire 8 in
// the order of §9, its bands in the market's currency, questionnaire 9 (company), and who may read them.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { kycPaths, PEP_NO, PEP_QUESTION, PEP_YES, privateQuestionOrder, type Questionnaire } from '../../shared/contracts/kycContract.ts';
import { getQuestionnaire, prospectOf } from '../support/kycSandbox.ts';
import { bearer, newApp } from '../support/sandboxApi.ts';

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
