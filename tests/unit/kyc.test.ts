// The KYC questionnaire's rules (shared/kyc.ts, customer-information §2.3, §4.6, §5 "KYC", §9), table-driven.
import { describe, expect, it } from 'vitest';
import {
  answerProblem,
  controlOf,
  decideRiskPoll,
  decideStart,
  isOutOfStepRefusal,
  kycPointsDone,
  riskPollWaitMs,
  type StartResult,
} from '../../shared/kyc.ts';

const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: 200 + i, text: `o${i}` }));

describe('controlOf (customer-information §2.3)', () => {
  it.each([
    ['single choice, 2 answers', 'SINGLE_CHOICE', 2, 'radios'],
    ['single choice, 3 answers', 'SINGLE_CHOICE', 3, 'select'],
    ['single choice, 6 answers', 'SINGLE_CHOICE', 6, 'select'],
    ['multiple choice', 'MULTIPLE_CHOICE', 5, 'checkboxes'],
    ['multiple choice, 2 answers', 'MULTIPLE_CHOICE', 2, 'checkboxes'],
    ['an unknown type', 'FREE_TEXT', 0, null],
  ])('%s → %s', (_name, type, n, control) => {
    expect(controlOf({ type, options: options(n) })).toBe(control);
  });
});

describe('answerProblem (customer-information §5 "KYC")', () => {
  const single = { type: 'SINGLE_CHOICE', options: options(3) };
  const multiple = { type: 'MULTIPLE_CHOICE', options: options(3) };
  it.each([
    ['nothing chosen', single, [], 'chooseAlternative'],
    ['one of its answers', single, [201], null],
    ['two answers to a single choice', single, [200, 201], 'invalid'],
    ['an answer of another question', single, [999], 'invalid'],
    ['several answers to a multiple choice', multiple, [200, 202], null],
    ['the same answer twice', multiple, [200, 200], 'invalid'],
    ['nothing chosen on a multiple choice', multiple, [], 'chooseAlternative'],
  ])('%s', (_name, question, ids, problem) => {
    expect(answerProblem(question, ids)).toBe(problem);
  });
});

describe('decideStart (customer-information §4.6)', () => {
  it.each<[StartResult, number, string]>([
    ['started', 1, 'showQuestions'],
    ['started', 60, 'showQuestions'],
    ['alreadyAnswered', 1, 'submitStep'],
    ['busy', 1, 'retry'],
    ['busy', 59, 'retry'],
    ['busy', 60, 'error'],
  ])('%s on attempt %i → %s', (result, attempt, decision) => {
    expect(decideStart(result, attempt)).toBe(decision);
  });
});

describe('decideRiskPoll and its waits (customer-information §4.6, §9)', () => {
  it.each([
    [true, 1, 'submitStep'],
    [false, 1, 'poll'],
    [false, 24, 'poll'],
    [false, 25, 'submitStep'],
  ])('done %s on attempt %i → %s', (done, attempt, decision) => {
    expect(decideRiskPoll(done, attempt)).toBe(decision);
  });

  it('waits 100 + 200 × attempt ms', () => {
    expect([1, 2, 25].map((n) => riskPollWaitMs(n))).toEqual([300, 500, 5100]);
    // Configurable (KYC_RISK_POLL_BASE_MS, KYC_RISK_POLL_STEP_MS) so tests wait milliseconds.
    expect([1, 25].map((n) => riskPollWaitMs(n, { baseMs: 5, stepMs: 1 }))).toEqual([6, 30]);
  });
});

describe('kycPointsDone (customer-information §2.2: 3 + 27 points over the pages)', () => {
  it.each([
    [0, 10, 0],
    [1, 10, 3],
    [5, 10, 15],
    [10, 10, 30],
    [12, 10, 30],
    [1, 3, 10],
    [0, 0, 0],
  ])('%i of %i pages → %i', (answered, pages, points) => {
    expect(kycPointsDone(answered, pages)).toBe(points);
  });
});

describe('isOutOfStepRefusal: the answer session says the page shown is not its current page (next, previous)', () => {
  const refusal = (message: string, fields?: string[]) => ({ data: { message, ...(fields ? { fields } : {}) } });
  it.each<[string, number, unknown, boolean]>([
    // The session moved on (a next it took whose answer our session never saved) or back, or is done or gone.
    ['answers of another page', 400, refusal('The answers do not fit the page', ['answers.0.questionId', 'answers']), true],
    ['an answer the page does not offer', 400, refusal('The answers do not fit the page', ['answers.0.answerIds']), true],
    ['a question of the page unanswered', 400, refusal('The answers do not fit the page', ['answers']), true],
    ['every page answered already', 400, refusal('Every page is answered already', ['answerSessionId']), true],
    ['no previous page', 400, refusal('The first page has no previous page', ['answerSessionId']), true],
    ['a 400 naming nothing', 400, refusal('Bad request'), true],
    ['a 400 without a body', 400, undefined, true],
    ['a 400 naming a page field among others', 400, refusal('Invalid request', ['x-locale', 'answers.1.questionId']), true],
    ['the session unknown', 404, refusal('No such answer session'), true],
    ['the session gone', 410, undefined, true],
    ['the session in another state', 409, refusal('Conflict'), true],
    // A fault of our request, which another session would not mend.
    ['a 400 naming only other fields', 400, refusal('Invalid request', ['x-locale']), false],
    ['a 400 naming a field that only starts like a page field', 400, refusal('Invalid request', ['answersMeta']), false],
    // customer-information §7: session expired.
    ['401', 401, { code: 'INVALID_ACCESS_TOKEN' }, false],
    ['403', 403, refusal('Forbidden'), false],
    // Try again: a timeout, too many requests, an outage, no answer at all.
    ['408', 408, undefined, false],
    ['429', 429, undefined, false],
    ['500', 500, refusal('Internal error'), false],
    ['503', 503, undefined, false],
    ['unreachable or past the deadline (0)', 0, undefined, false],
  ])('%s (%i) → %s', (_name, status, body, outOfStep) => {
    expect(isOutOfStepRefusal(status, body)).toBe(outOfStep);
  });
});
