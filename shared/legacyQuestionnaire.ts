// Questionnaire 8 on the legacy single form (customer-information §2.3 "Legacy single form", §3 "Questionnaire",
// §8 "Unknown KYC tag translation"): the questionnaire GET gives tags, not texts, so the form shows each
// question and answer through our locales. Pure: which message a tag reads as, in which order the questions
// come, and how a money or count band's tag (monthly_income_0_20000_sek, deposit_count_over_100) reads.
// An unknown tag is null here; the page logs it and shows the tag itself.
import { privateQuestionOrder, type Questionnaire } from './contracts/kycContract.ts';

/** The question tags our locales know: `legacy.kyc.question.<tag>`. */
export const knownQuestionTags = [
  'occupation',
  'politically_exposed_person',
  'purpose_of_saving',
  'origin_of_funds',
  'ownership_of_money',
  'monthly_income',
  'initial_transfer',
  'deposit_count',
  'yearly_deposit_value',
  'withdrawal_count',
] as const;

/** The fixed answer tags our locales know: `legacy.kyc.answer.<tag>`. */
export const knownAnswerTags = [
  'employed',
  'self_employed',
  'student',
  'retired',
  'not_working',
  'pep_no',
  'pep_yes',
  'long_term_saving',
  'retirement',
  'saving_for_relatives',
  'short_term_trading',
  'salary_or_pension',
  'business_income',
  'savings_and_investments',
  'inheritance_or_gift',
  'property_sale',
  'own_money',
  'someone_elses_money',
] as const;

const questionTags: ReadonlySet<string> = new Set(knownQuestionTags);
const answerTags: ReadonlySet<string> = new Set(knownAnswerTags);

/** A band answer: from–to (to null: "more than from"), in a currency (upper case) or a count (none). */
export interface Band {
  from: number;
  to: number | null;
  currency: string | null;
}

export type AnswerText = { kind: 'message'; key: string } | { kind: 'band'; band: Band } | { kind: 'unknown'; tag: string };

/** The message key of a question tag, or null when our locales do not know it. */
export function questionTextKey(tag: string): string | null {
  return questionTags.has(tag) ? `legacy.kyc.question.${tag}` : null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How an answer tag of a question reads: a known fixed answer, a band of that question (its tag starts with
 * the question's tag: `<question>_<from>_<to>[_<currency>]` or `<question>_over_<from>[_<currency>]`), or unknown.
 */
export function answerText(questionTag: string, answerTag: string): AnswerText {
  if (answerTags.has(answerTag)) return { kind: 'message', key: `legacy.kyc.answer.${answerTag}` };
  const band = new RegExp(`^${escape(questionTag)}_(?:(\\d+)_(\\d+)|over_(\\d+))(?:_([a-z]{3}))?$`).exec(answerTag);
  if (band && questionTags.has(questionTag)) {
    const [, from, to, over, currency] = band;
    const range = over === undefined ? { from: Number(from), to: Number(to) } : { from: Number(over), to: null };
    if (range.to === null || range.from < range.to) return { kind: 'band', band: { ...range, currency: currency ? currency.toUpperCase() : null } };
  }
  return { kind: 'unknown', tag: answerTag };
}

/** The questions in the order of customer-information §9 (83, 87, 90, …); others after them, in the order given. */
export function orderedQuestions(questions: Questionnaire['questions']): Questionnaire['questions'] {
  const rank = (id: number) => {
    const at = (privateQuestionOrder as readonly number[]).indexOf(id);
    return at === -1 ? privateQuestionOrder.length : at;
  };
  return questions
    .map((q, index) => ({ q, index }))
    .sort((a, b) => rank(a.q.question_id) - rank(b.q.question_id) || a.index - b.index)
    .map(({ q }) => q);
}

/** Every tag of the questionnaire our locales do not know (to log once per form shown; tags only, no answers). */
export function unknownTags(questions: Questionnaire['questions']): string[] {
  const unknown: string[] = [];
  for (const q of questions) {
    if (questionTextKey(q.question_tag) === null) unknown.push(q.question_tag);
    for (const a of q.answers) if (answerText(q.question_tag, a.answer_tag).kind === 'unknown') unknown.push(a.answer_tag);
  }
  return [...new Set(unknown)];
}
