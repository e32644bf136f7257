// The call wrapper of customer-information §7: the brokerage client bound to the person's request. Every
// call of the page goes through it and never handles a token: the wrapper sends the session's access
// token. A 401 with code EXPIRED_ACCESS_TOKEN (the access token lives 30 minutes, a person may take
// longer) is logged as a token refresh: the session's refresh token buys a new access token, once per
// request however many calls run side by side, and the call is tried again. Whatever still fails is the
// page's error (callErrorKind): 401/403 → session expired, anything else → try again.
import type { Logger } from 'pino';
import type { BrokerageClient } from '../../upstream/brokerage.ts';
import { UpstreamError } from '../../upstream/http.ts';
import type { Journey } from '../../journey.ts';
import { EXPIRED_ACCESS_TOKEN, unauthorizedBody } from '../../../shared/contracts/brokerage.ts';

export type StepErrorKind = 'SESSION_EXPIRED_ERROR' | 'TRY_AGAIN_ERROR';

/** customer-information §7: 401/403 → session expired, anything else → try again. */
export function callErrorKind(err: unknown): StepErrorKind {
  return err instanceof UpstreamError && (err.status === 401 || err.status === 403) ? 'SESSION_EXPIRED_ERROR' : 'TRY_AGAIN_ERROR';
}

export function isExpiredAccessToken(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && err.status === 401 && unauthorizedBody.safeParse(err.body).data?.code === EXPIRED_ACCESS_TOKEN;
}

/** A brokerage call made with the person's access token, as the steps see it: without the token. */
type Bound<Call> = Call extends (jwt: string, ...args: infer Args) => Promise<infer Result> ? (...args: Args) => Promise<Result> : never;

/** The brokerage calls of the customer-information page (the KYC step's too), each bound to the person's session. */
export interface PersonBrokerage {
  submitAccountPicker: Bound<BrokerageClient['submitAccountPicker']>;
  submitAccountAlias: Bound<BrokerageClient['submitAccountAlias']>;
  agreementBundles: Bound<BrokerageClient['agreementBundles']>;
  submitCitizenship: Bound<BrokerageClient['submitCitizenship']>;
  initFileUpload: Bound<BrokerageClient['initFileUpload']>;
  submitMilestone: Bound<BrokerageClient['submitMilestone']>;
  taxValidationRules: Bound<BrokerageClient['taxValidationRules']>;
  submitTaxInfo: Bound<BrokerageClient['submitTaxInfo']>;
  createCase: Bound<BrokerageClient['createCase']>;
  submitTaxResidence: Bound<BrokerageClient['submitTaxResidence']>;
  submitResidency: Bound<BrokerageClient['submitResidency']>;
  submitContactInfo: Bound<BrokerageClient['submitContactInfo']>;
  contactRelatedData: Bound<BrokerageClient['contactRelatedData']>;
  requestSignature: Bound<BrokerageClient['requestSignature']>;
  createCustomer: Bound<BrokerageClient['createCustomer']>;
  questionnaire: Bound<BrokerageClient['questionnaire']>;
  startAnswerSession: Bound<BrokerageClient['startAnswerSession']>;
  answerSessionNext: Bound<BrokerageClient['answerSessionNext']>;
  answerSessionPrevious: Bound<BrokerageClient['answerSessionPrevious']>;
  riskCalculation: Bound<BrokerageClient['riskCalculation']>;
  submitKycStep: Bound<BrokerageClient['submitKycStep']>;
  createRegulation: Bound<BrokerageClient['createRegulation']>;
  updateProspect: Bound<BrokerageClient['updateProspect']>;
  requestLegacySignature: Bound<BrokerageClient['requestLegacySignature']>;
}

/**
 * The brokerage client for one request of the person (the journey is the request's session). The
 * refresh token never leaves the session and no token is logged.
 */
export function brokerageForPerson(brokerage: BrokerageClient, journey: Journey, logger: Logger): PersonBrokerage {
  let refreshing: Promise<void> | undefined;

  async function refresh(call: string, cause: UpstreamError): Promise<void> {
    logger.info({ upstream: 'brokerage', call }, 'access token expired: token refresh');
    // A session from before refresh tokens were kept has nothing to refresh with: it has expired.
    if (!journey.refreshToken) throw cause;
    try {
      journey.jwt = (await brokerage.refreshToken(journey.refreshToken)).jwt;
    } catch (err) {
      logger.warn({ upstream: 'brokerage', call, status: err instanceof UpstreamError ? err.status : undefined }, 'token refresh failed');
      throw cause;
    }
  }

  /** One call with the current token; after an expired one, once more with the refreshed token. */
  async function withToken<Result>(call: string, run: (jwt: string) => Promise<Result>): Promise<Result> {
    const sent = journey.jwt;
    if (!sent) throw new UpstreamError('brokerage', 401, undefined, 'no access token in the session');
    try {
      return await run(sent);
    } catch (err) {
      if (!isExpiredAccessToken(err)) throw err;
      // Calls running side by side share one refresh; a call that sent an older token just retries.
      if (journey.jwt === sent) await (refreshing ??= refresh(call, err));
      return await run(journey.jwt!);
    }
  }

  return {
    submitAccountPicker: (...args) => withToken('submitAccountPicker', (jwt) => brokerage.submitAccountPicker(jwt, ...args)),
    submitAccountAlias: (...args) => withToken('submitAccountAlias', (jwt) => brokerage.submitAccountAlias(jwt, ...args)),
    agreementBundles: (...args) => withToken('agreementBundles', (jwt) => brokerage.agreementBundles(jwt, ...args)),
    submitCitizenship: (...args) => withToken('submitCitizenship', (jwt) => brokerage.submitCitizenship(jwt, ...args)),
    initFileUpload: (...args) => withToken('initFileUpload', (jwt) => brokerage.initFileUpload(jwt, ...args)),
    submitMilestone: (...args) => withToken('submitMilestone', (jwt) => brokerage.submitMilestone(jwt, ...args)),
    taxValidationRules: (...args) => withToken('taxValidationRules', (jwt) => brokerage.taxValidationRules(jwt, ...args)),
    submitTaxInfo: (...args) => withToken('submitTaxInfo', (jwt) => brokerage.submitTaxInfo(jwt, ...args)),
    createCase: (...args) => withToken('createCase', (jwt) => brokerage.createCase(jwt, ...args)),
    submitTaxResidence: (...args) => withToken('submitTaxResidence', (jwt) => brokerage.submitTaxResidence(jwt, ...args)),
    submitResidency: (...args) => withToken('submitResidency', (jwt) => brokerage.submitResidency(jwt, ...args)),
    submitContactInfo: (...args) => withToken('submitContactInfo', (jwt) => brokerage.submitContactInfo(jwt, ...args)),
    contactRelatedData: (...args) => withToken('contactRelatedData', (jwt) => brokerage.contactRelatedData(jwt, ...args)),
    requestSignature: (...args) => withToken('requestSignature', (jwt) => brokerage.requestSignature(jwt, ...args)),
    createCustomer: (...args) => withToken('createCustomer', (jwt) => brokerage.createCustomer(jwt, ...args)),
    questionnaire: (...args) => withToken('questionnaire', (jwt) => brokerage.questionnaire(jwt, ...args)),
    startAnswerSession: (...args) => withToken('startAnswerSession', (jwt) => brokerage.startAnswerSession(jwt, ...args)),
    answerSessionNext: (...args) => withToken('answerSessionNext', (jwt) => brokerage.answerSessionNext(jwt, ...args)),
    answerSessionPrevious: (...args) => withToken('answerSessionPrevious', (jwt) => brokerage.answerSessionPrevious(jwt, ...args)),
    riskCalculation: (...args) => withToken('riskCalculation', (jwt) => brokerage.riskCalculation(jwt, ...args)),
    submitKycStep: (...args) => withToken('submitKycStep', (jwt) => brokerage.submitKycStep(jwt, ...args)),
    createRegulation: (...args) => withToken('createRegulation', (jwt) => brokerage.createRegulation(jwt, ...args)),
    updateProspect: (...args) => withToken('updateProspect', (jwt) => brokerage.updateProspect(jwt, ...args)),
    requestLegacySignature: (...args) => withToken('requestLegacySignature', (jwt) => brokerage.requestLegacySignature(jwt, ...args)),
  };
}
