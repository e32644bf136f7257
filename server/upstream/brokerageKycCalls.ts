// The brokerage's know-your-customer calls (customer-information §4.6, §7; contract shared/contracts/kycContract.ts), part of
// the brokerage client (brokerageClient.ts): one typed function per call, each answer parsed by the contract schema.
import {
  kycPaths,
  questionnaireResponse,
  answerSessionResponse,
  answerSessionNextRequest,
  riskCalculationResponse,
  PRIVATE_QUESTIONNAIRE_ALIAS,
  X_LOCALE_HEADER,
  type AnswerSessionAnswers,
  type AnswerSessionResponse,
  type Questionnaire,
} from '../../shared/contracts/kycContract.ts';
import { UpstreamError, type HttpClient } from './http.ts';
import { emptyAnswer } from './idempotency.ts';

/** customer-information §4.6: a 403 means the questionnaire counts as answered, a 409 that the session is not ready (retry). */
export type AnswerSessionStart = { kind: 'started'; session: AnswerSessionResponse } | { kind: 'alreadyAnswered' } | { kind: 'busy' };

export function brokerageKycCalls(http: HttpClient) {
  return {
    /**
     * GET the questionnaire of a customer type (8 person, 9 company) in the Accept-Language given. Per customer-information §7 an
     * error answer whose data still holds the questionnaire is used; other failures throw.
     */
    async questionnaire(jwt: string, questionnaireId: number, acceptLanguage: string): Promise<Questionnaire> {
      const path = kycPaths.questionnaire(questionnaireId);
      try {
        return (await http.json({ method: 'GET', path, bearer: jwt, headers: { 'accept-language': acceptLanguage }, schema: questionnaireResponse })).data.data;
      } catch (err) {
        const fallback = err instanceof UpstreamError && err.status >= 400 ? questionnaireResponse.safeParse(err.body) : null;
        if (fallback?.success) return fallback.data.data;
        throw err;
      }
    },
    /**
     * POST answer-session start for the prospect's private questionnaire, its texts in `locale` (x-locale). A 403 (already answered)
     * and a 409 (busy: the caller retries) are answers, not errors: a 403 must not reach the page's call wrapper, which would take it
     * for an expired session. Other failures throw UpstreamError.
     */
    async startAnswerSession(jwt: string, prospectId: string, locale: string): Promise<AnswerSessionStart> {
      try {
        const { data } = await http.json({
          method: 'POST',
          path: kycPaths.answerSessions,
          bearer: jwt,
          headers: { [X_LOCALE_HEADER]: locale },
          body: { targetCustomerId: prospectId, questionnaireAlias: PRIVATE_QUESTIONNAIRE_ALIAS },
          schema: answerSessionResponse,
        });
        return { kind: 'started', session: data };
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 403) return { kind: 'alreadyAnswered' };
        if (err instanceof UpstreamError && err.status === 409) return { kind: 'busy' };
        throw err;
      }
    },
    /** POST answer-session next: the answers of the page shown; answers the next page, or a null page after the last. */
    async answerSessionNext(jwt: string, answerSessionId: string, answers: AnswerSessionAnswers): Promise<AnswerSessionResponse> {
      const body = answerSessionNextRequest.parse({ answers });
      return (await http.json({ method: 'POST', path: kycPaths.answerSessionNext(answerSessionId), bearer: jwt, body, schema: answerSessionResponse })).data;
    },
    /** POST answer-session previous: answers the page before the one shown. */
    async answerSessionPrevious(jwt: string, answerSessionId: string): Promise<AnswerSessionResponse> {
      return (await http.json({ method: 'POST', path: kycPaths.answerSessionPrevious(answerSessionId), bearer: jwt, schema: answerSessionResponse })).data;
    },
    /** GET risk calculation of the prospect (polled until done, customer-information §4.6). */
    async riskCalculation(jwt: string, prospectId: string): Promise<{ done: boolean }> {
      return (await http.json({ method: 'GET', path: kycPaths.riskCalculation(prospectId), bearer: jwt, schema: riskCalculationResponse })).data
        .riskCalculation;
    },
    /** POST submit KYC step. A 403 means more information is required (its own screen), not an expired session; other failures throw. */
    async submitKycStep(jwt: string, prospectId: string): Promise<{ ok: true } | { ok: false; moreInformationRequired: true }> {
      try {
        await http.json({ method: 'POST', path: kycPaths.kycStep(prospectId), bearer: jwt, schema: emptyAnswer });
        return { ok: true };
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 403) return { ok: false, moreInformationRequired: true };
        throw err;
      }
    },
  };
}
