// Sensitive answers (customer-information.md §4.7, §4.10): answers that open a compliance dialog instead of
// letting the online application go on as it is. For each: the dialog it opens and the answer its primary
// action puts back (the in-country / harmless one). Pure data, shared by the steps, the legacy form's cards
// and the KYC questionnaire, so every screen asks the same thing for the same answer.
import { taxLiabilities } from './taxInformation.ts';
import type { SensitiveAnswerDialogType } from './complianceDialogTypes.ts';
import { PEP_NO, PEP_QUESTION, PEP_YES } from './contracts/kycContract.ts';

/** customer-information §9: the politically exposed person question of questionnaire 8, and its answers' ids. */
export const PEP_QUESTION_ID = PEP_QUESTION;
export const PEP_ANSWER = { yes: PEP_YES, no: PEP_NO } as const;

/** customer-information §3 answer enumerations. */
export const pepAnswers = [PEP_ANSWER.yes, PEP_ANSWER.no] as const;
export const investmentRiskAnswers = ['yes', 'no'] as const;
export const citizenshipAnswers = ['inOfficeCitizenship', 'multipleCitizenship', 'otherCitizenships'] as const;
export const residencyAnswers = ['inOffice', 'other'] as const;

export interface SensitiveQuestionAnswers {
  pep: (typeof pepAnswers)[number];
  investmentRisk: (typeof investmentRiskAnswers)[number];
  citizenship: (typeof citizenshipAnswers)[number];
  residency: (typeof residencyAnswers)[number];
  taxLiability: (typeof taxLiabilities)[number];
}
export type SensitiveQuestion = keyof SensitiveQuestionAnswers;

interface Rule<A> {
  /** Every answer the question has. */
  answers: readonly A[];
  /** The answers that open the dialog. */
  sensitive: readonly A[];
  dialog: SensitiveAnswerDialogType;
  /** What the dialog's primary action sets the answer to. */
  resetTo: A;
}

export const sensitiveAnswerRules = {
  // PEP yes → PEP dialog; its primary action answers no (customer-information §4.7, §4.10).
  pep: { answers: pepAnswers, sensitive: [PEP_ANSWER.yes], dialog: 'PEP', resetTo: PEP_ANSWER.no },
  // Investment risk no → the risk acknowledgement; its primary action answers yes.
  investmentRisk: { answers: investmentRiskAnswers, sensitive: ['no'], dialog: 'INVESTMENT_RISK', resetTo: 'yes' },
  // Any citizenship besides the market's (also several, the market's among them) → CITIZENSHIP.
  citizenship: { answers: citizenshipAnswers, sensitive: ['multipleCitizenship', 'otherCitizenships'], dialog: 'CITIZENSHIP', resetTo: 'inOfficeCitizenship' },
  residency: { answers: residencyAnswers, sensitive: ['other'], dialog: 'RESIDENCY', resetTo: 'inOffice' },
  // customer-information §4.10 CRS: USA or other → FATCA, whose confirm answers home. (The stepped tax information refines
  // 'other' into a country choice, customer-information §4.5: shared/taxInformation.ts decideLiability.)
  taxLiability: { answers: taxLiabilities, sensitive: ['usa', 'other'], dialog: 'FATCA', resetTo: 'inOffice' },
} as const satisfies RuleTable;

type RuleTable = { readonly [Q in SensitiveQuestion]: Rule<SensitiveQuestionAnswers[Q]> };
// The same table, read by a question only known as a type parameter.
const rules: RuleTable = sensitiveAnswerRules;

export interface SensitiveAnswerDialog<Q extends SensitiveQuestion> {
  type: SensitiveAnswerDialogType;
  resetTo: SensitiveQuestionAnswers[Q];
}

/** The dialog an answer opens, with the answer its primary action sets; null when the answer opens none. */
export function sensitiveAnswerDialog<Q extends SensitiveQuestion>(question: Q, answer: SensitiveQuestionAnswers[Q]): SensitiveAnswerDialog<Q> | null {
  const rule = rules[question];
  return rule.sensitive.includes(answer) ? { type: rule.dialog, resetTo: rule.resetTo } : null;
}

/** The answer once the dialog's primary action was taken: the reset one; an answer without a dialog stays. */
export function answerAfterPrimary<Q extends SensitiveQuestion>(question: Q, answer: SensitiveQuestionAnswers[Q]): SensitiveQuestionAnswers[Q] {
  return sensitiveAnswerDialog(question, answer)?.resetTo ?? answer;
}

/**
 * A KYC questionnaire answer by ids (customer-information §3 submitted kyc: question_id, answer_id): the PEP dialog for yes to
 * question 84, with the answer id its primary action sets; null for every other question and answer.
 */
export function kycAnswerDialog(questionId: number, answerId: number): { type: 'PEP'; resetTo: number } | null {
  if (questionId !== PEP_QUESTION_ID || answerId !== PEP_ANSWER.yes) return null;
  return { type: sensitiveAnswerRules.pep.dialog, resetTo: sensitiveAnswerRules.pep.resetTo };
}
