// Know-your-customer wire contract of the brokerage API (customer-information §3 "Questionnaire",
// "Answer session page", §4.6, §7). server/upstream/brokerageClient.ts parses every answer with these;
// sandbox/ parses every request with them. Where customer-information §7 shows no path or no response
// body, the choice is ours and marked so.
import { z } from 'zod';

const prospect = (prospectId: string) => `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}`;

export const kycPaths = {
  /** GET, header Accept-Language (default sv): the questionnaire of a customer type (customer-information §7). */
  questionnaire: (questionnaireId: number) => `/api/2/customers/kyc/questionnaire/${questionnaireId}`,
  // Answer sessions: the spec names the calls (start, next {id}, previous {id}) but not their paths; these are ours.
  answerSessions: '/api/2/customers/kyc/answer-sessions',
  answerSessionNext: (answerSessionId: string) => `/api/2/customers/kyc/answer-sessions/${encodeURIComponent(answerSessionId)}/next`,
  answerSessionPrevious: (answerSessionId: string) => `/api/2/customers/kyc/answer-sessions/${encodeURIComponent(answerSessionId)}/previous`,
  /** GET risk calculation: "path not shown" in customer-information §7; ours, on the prospect. */
  riskCalculation: (prospectId: string) => `${prospect(prospectId)}/risk-calculation`,
  /** POST submit KYC step: path not shown; it follows the other steps' paths. */
  kycStep: (prospectId: string) => `${prospect(prospectId)}/steps/kyc`,
} as const;

/** customer-information §3, §9: customer type codes of the questionnaires. */
export const QUESTIONNAIRE_PERSON = 8;
export const QUESTIONNAIRE_COMPANY = 9;
/** customer-information §7: the answer session of a private person. */
export const PRIVATE_QUESTIONNAIRE_ALIAS = 'private basic';
/** customer-information §7: the header naming the locale of an answer session's texts (start call). */
export const X_LOCALE_HEADER = 'x-locale';

/** customer-information §9: questionnaire 8's questions in the order they are asked. */
export const privateQuestionOrder = [83, 87, 90, 89, 88, 92, 85, 86, 84, 91] as const;
/** customer-information §4.7, §9: the politically exposed person question and its answers. */
export const PEP_QUESTION = 84;
export const PEP_YES = 224;
export const PEP_NO = 223;

const id = z.number().int().nonnegative();
const text = z.string().max(2000);

// --- questionnaire (GET) --------------------------------------------------------------------------
/** An answer type we render; anything else is kept as its text so the page can log it and leave it out. */
export const answerType = z.union([z.enum(['SINGLE_CHOICE', 'MULTIPLE_CHOICE']), z.string().min(1).max(100)]);

export const questionnaire = z.object({
  questionnaire_id: id,
  questions: z
    .array(
      z.object({
        question_id: id,
        question_tag: z.string().min(1).max(200),
        answer_type: answerType,
        answers: z.array(z.object({ answer_id: id, answer_tag: z.string().min(1).max(200) })).max(100),
      }),
    )
    .max(100),
});
export type Questionnaire = z.infer<typeof questionnaire>;
/** customer-information §7: the questions are in data; an error answer carries them in its data too. */
export const questionnaireResponse = z.object({ data: questionnaire });

// --- answer sessions ------------------------------------------------------------------------------
/** POST answer-session start; the page's locale goes in the x-locale header. */
export const answerSessionStartRequest = z.object({
  targetCustomerId: z.string().min(1).max(100),
  questionnaireAlias: z.literal(PRIVATE_QUESTIONNAIRE_ALIAS),
});

export const answerSessionQuestion = z.object({
  id,
  text: text.min(1),
  type: answerType,
  options: z.array(z.object({ id, text: text.min(1) })).max(100),
  helpText: text.nullish(),
});
export type AnswerSessionQuestion = z.infer<typeof answerSessionQuestion>;

export const answerSessionPage = z.object({
  title: text,
  questions: z.array(answerSessionQuestion).max(20),
  hasNextPage: z.boolean(),
});
export type AnswerSessionPage = z.infer<typeof answerSessionPage>;

/**
 * The start, next and previous calls answer the session and its page. After the last page is answered
 * (a next on a page without a next page) the page is null: the questionnaire is answered. That null is
 * our choice; customer-information §7 only says "next page, hasNextPage".
 */
export const answerSessionResponse = z.object({
  answerSessionId: z.string().min(1).max(100),
  answerSessionPage: answerSessionPage.nullable(),
});
export type AnswerSessionResponse = z.infer<typeof answerSessionResponse>;

/** POST answer-session next: the answers of the page shown. */
export const answerSessionNextRequest = z.object({
  answers: z.array(z.object({ questionId: id, answerIds: z.array(id).min(1).max(100) })).max(20),
});
export type AnswerSessionAnswers = z.infer<typeof answerSessionNextRequest>['answers'];

// --- risk calculation and the step ----------------------------------------------------------------
/** GET risk calculation, polled until done (customer-information §4.6, §9). */
export const riskCalculationResponse = z.object({ riskCalculation: z.object({ done: z.boolean() }) });
