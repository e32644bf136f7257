// Questionnaire 8's tags on the legacy single form (customer-information §2.3, §3, §8 unknown KYC tag): table-driven.
import { describe, expect, it } from 'vitest';
import { answerText, orderedQuestions, questionTextKey, unknownTags } from '../../shared/legacyQuestionnaire.ts';

describe('questionTextKey', () => {
  it.each([
    ['occupation', 'legacy.kyc.question.occupation'],
    ['politically_exposed_person', 'legacy.kyc.question.politically_exposed_person'],
    ['withdrawal_count', 'legacy.kyc.question.withdrawal_count'],
    ['occupation_description', null],
    ['', null],
  ])('%s → %s', (tag, key) => expect(questionTextKey(tag)).toBe(key));
});

describe('answerText', () => {
  it.each([
    ['occupation', 'employed', { kind: 'message', key: 'legacy.kyc.answer.employed' }],
    ['politically_exposed_person', 'pep_yes', { kind: 'message', key: 'legacy.kyc.answer.pep_yes' }],
    ['monthly_income', 'monthly_income_0_20000_sek', { kind: 'band', band: { from: 0, to: 20000, currency: 'SEK' } }],
    ['monthly_income', 'monthly_income_over_100000_sek', { kind: 'band', band: { from: 100000, to: null, currency: 'SEK' } }],
    ['initial_transfer', 'initial_transfer_1000_10000_eur', { kind: 'band', band: { from: 1000, to: 10000, currency: 'EUR' } }],
    ['deposit_count', 'deposit_count_11_50', { kind: 'band', band: { from: 11, to: 50, currency: null } }],
    ['deposit_count', 'deposit_count_over_100', { kind: 'band', band: { from: 100, to: null, currency: null } }],
    // A band of another question, a reversed band, an unknown question's band and a made-up tag are unknown.
    ['deposit_count', 'monthly_income_0_20000_sek', { kind: 'unknown', tag: 'monthly_income_0_20000_sek' }],
    ['deposit_count', 'deposit_count_50_11', { kind: 'unknown', tag: 'deposit_count_50_11' }],
    ['company_size', 'company_size_0_10', { kind: 'unknown', tag: 'company_size_0_10' }],
    ['occupation', 'astronaut', { kind: 'unknown', tag: 'astronaut' }],
  ])('%s / %s', (question, answer, expected) => expect(answerText(question, answer)).toEqual(expected));
});

const q = (question_id: number, question_tag = 'occupation') => ({ question_id, question_tag, answer_type: 'SINGLE_CHOICE', answers: [] });

describe('orderedQuestions (customer-information §9 order 83, 87, 90, 89, 88, 92, 85, 86, 84, 91)', () => {
  it('sorts the known ids and keeps others after them in their order', () => {
    const ids = orderedQuestions([q(84), q(93), q(83), q(91), q(1), q(87)]).map((x) => x.question_id);
    expect(ids).toEqual([83, 87, 84, 91, 93, 1]);
  });
});

describe('unknownTags', () => {
  it('lists unknown question and answer tags once', () => {
    const questions = [
      {
        question_id: 83,
        question_tag: 'occupation',
        answer_type: 'SINGLE_CHOICE',
        answers: [
          { answer_id: 1, answer_tag: 'astronaut' },
          { answer_id: 2, answer_tag: 'student' },
        ],
      },
      { question_id: 93, question_tag: 'mystery', answer_type: 'SINGLE_CHOICE', answers: [{ answer_id: 3, answer_tag: 'astronaut' }] },
    ];
    expect(unknownTags(questions)).toEqual(['astronaut', 'mystery']);
  });
});
