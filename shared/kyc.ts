// The KYC questionnaire's rules (customer-information §2.3 "KYC questionnaire", §4.6, §5 "KYC", §9):
// how a question is rendered, when an answer counts, what the answer-session start and the risk
// polling lead to, which refusal of the answer session says the page shown is out of step with it, and how the step's
// progress moves over its pages. Pure: the KYC step applies them.
import { brokerageErrorBody } from './contracts/brokerageContract.ts';
import type { AnswerSessionQuestion } from './contracts/kycContract.ts';

/** customer-information §9: answer-session start attempts (one every KYC_START_INTERVAL_MS, 1 s; 10 ms in tests). */
export const KYC_START_ATTEMPTS = 60;
/** customer-information §9: risk polling attempts; after the last it counts as done. */
export const RISK_POLL_ATTEMPTS = 25;
/** customer-information §9: the wait before risk poll `attempt` (1-based): 100 + 200 × attempt ms (configurable, for tests). */
export const riskPollWaitMs = (attempt: number, timing: { baseMs: number; stepMs: number } = { baseMs: 100, stepMs: 200 }): number =>
  timing.baseMs + timing.stepMs * attempt;
/** customer-information §9: after this long the loader adds "This is taking longer than expected...". */
export const LOADER_SLOW_AFTER_MS = 10_000;

/** How a question is shown (customer-information §2.3): null for a type we do not render (logged). */
export type QuestionControl = 'radios' | 'select' | 'checkboxes' | null;

export function controlOf(question: Pick<AnswerSessionQuestion, 'type' | 'options'>): QuestionControl {
  if (question.type === 'MULTIPLE_CHOICE') return 'checkboxes';
  if (question.type === 'SINGLE_CHOICE') return question.options.length === 2 ? 'radios' : 'select';
  return null;
}

/** customer-information §5 "KYC": every shown question needs at least one of its own answers, single choice exactly one. */
export function answerProblem(question: Pick<AnswerSessionQuestion, 'type' | 'options'>, answerIds: readonly number[]): 'chooseAlternative' | 'invalid' | null {
  if (answerIds.length === 0) return 'chooseAlternative';
  const offered = new Set(question.options.map((o) => o.id));
  if (answerIds.some((id) => !offered.has(id)) || new Set(answerIds).size !== answerIds.length) return 'invalid';
  if (question.type === 'SINGLE_CHOICE' && answerIds.length !== 1) return 'invalid';
  return null;
}

/** What an answer-session start attempt leads to (customer-information §4.6). */
export type StartResult = 'started' | 'alreadyAnswered' | 'busy';
export type StartDecision = 'showQuestions' | 'submitStep' | 'retry' | 'error';

export function decideStart(result: StartResult, attempt: number): StartDecision {
  if (result === 'started') return 'showQuestions';
  // 403: the questionnaire is treated as already answered.
  if (result === 'alreadyAnswered') return 'submitStep';
  return attempt < KYC_START_ATTEMPTS ? 'retry' : 'error';
}

/** A risk poll: done, or given up after the last attempt, submits the step; otherwise wait and poll again. */
export function decideRiskPoll(done: boolean, attempt: number): 'submitStep' | 'poll' {
  return done || attempt >= RISK_POLL_ATTEMPTS ? 'submitStep' : 'poll';
}

/** What the answer session names in a 400 when the answers do not fit its current page, or it has no such page. */
const PAGE_FIELD = /^(answers(\.\d+\.(questionId|answerIds))?|answerSessionId)$/;

/**
 * Whether the answer session's refusal of next or previous says the page shown is not its current page: the session
 * moved on (it took a next whose answer our session never saved) or is gone. Our answers were checked already, so:
 * 404, 410 and 409, and a 400 naming the page's answers or the session (answers…, answerSessionId) or nothing. Not a
 * 400 naming other fields (our own fault), 401/403 (session expired), 408/429 (try again), 5xx (an outage, §4.6).
 */
export function isOutOfStepRefusal(status: number, body: unknown): boolean {
  if (status === 404 || status === 409 || status === 410) return true;
  if (status !== 400) return false;
  const fields = brokerageErrorBody.safeParse(body).data?.data?.fields ?? [];
  return fields.length === 0 || fields.some((f) => PAGE_FIELD.test(f));
}

/** customer-information §2.2: the KYC step's 30 progress points (3 plus 27 extra), spread over its pages. */
export const KYC_STEP_POINTS = 30;
export function kycPointsDone(pagesAnswered: number, pageCount: number): number {
  if (pageCount <= 0) return 0;
  return Math.round((KYC_STEP_POINTS * Math.min(pagesAnswered, pageCount)) / pageCount);
}
