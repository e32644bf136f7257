// customer-information.md §4.7 and §4.10: which answers open a compliance dialog, which one, and what its
// primary action resets the answer to; every other answer opens none.
import { describe, expect, it } from 'vitest';
import {
  answerAfterPrimary,
  kycAnswerDialog,
  PEP_ANSWER,
  PEP_QUESTION_ID,
  sensitiveAnswerDialog,
  sensitiveAnswerRules,
  type SensitiveQuestion,
  type SensitiveQuestionAnswers,
} from '../../shared/sensitiveAnswers.ts';

type Row = {
  [Q in SensitiveQuestion]: [question: Q, answer: SensitiveQuestionAnswers[Q], dialog: string | null, resetTo: SensitiveQuestionAnswers[Q] | null];
}[SensitiveQuestion];

const table: Row[] = [
  ['pep', 224, 'PEP', 223],
  ['pep', 223, null, null],
  ['investmentRisk', 'no', 'INVESTMENT_RISK', 'yes'],
  ['investmentRisk', 'yes', null, null],
  ['citizenship', 'otherCitizenships', 'CITIZENSHIP', 'inOfficeCitizenship'],
  ['citizenship', 'multipleCitizenship', 'CITIZENSHIP', 'inOfficeCitizenship'],
  ['citizenship', 'inOfficeCitizenship', null, null],
  ['residency', 'other', 'RESIDENCY', 'inOffice'],
  ['residency', 'inOffice', null, null],
  ['taxLiability', 'usa', 'FATCA', 'inOffice'],
  ['taxLiability', 'other', 'FATCA', 'inOffice'],
  ['taxLiability', 'inOffice', null, null],
];

describe('sensitive answers (customer-information §4.7, §4.10)', () => {
  it.each(table)('%s %j → dialog %s, primary resets to %j', (question, answer, dialog, resetTo) => {
    const opened = sensitiveAnswerDialog(question, answer as never);
    expect(opened).toEqual(dialog === null ? null : { type: dialog, resetTo });
    // The primary action's answer opens no dialog again; an answer without a dialog is kept.
    const after = answerAfterPrimary(question, answer as never);
    expect(after).toBe(resetTo ?? answer);
    expect(sensitiveAnswerDialog(question, after as never)).toBeNull();
  });

  it('the table above decides every answer of every question', () => {
    const rows = new Set(table.map(([q, a]) => `${q}:${a}`));
    const all = Object.entries(sensitiveAnswerRules).flatMap(([q, rule]) => rule.answers.map((a) => `${q}:${a}`));
    expect(new Set(all)).toEqual(rows);
  });

  it('PEP is question 84: yes is answer 224, no is answer 223 (customer-information §9)', () => {
    expect([PEP_QUESTION_ID, PEP_ANSWER.yes, PEP_ANSWER.no]).toEqual([84, 224, 223]);
  });

  it.each([
    [84, 224, { type: 'PEP', resetTo: 223 }],
    [84, 223, null],
    // Another question with the same answer id, and an unknown answer to question 84.
    [83, 224, null],
    [84, 999, null],
  ])('KYC question %i answer %i → %j', (questionId, answerId, expected) => {
    expect(kycAnswerDialog(questionId, answerId)).toEqual(expected);
  });
});
