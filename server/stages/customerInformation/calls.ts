// The call wrapper of customer-information §7: the brokerage client bound to the person's request. Every call of the
// page goes through it and never handles a token: an expired access token is refreshed as everywhere the brokerage is
// called as the person (shared/asPerson.ts: once per request however many calls run side by side, then the call is
// tried again). Whatever still fails is the page's error (callErrorKind): 401/403 → session expired, else try again.
import type { Logger } from 'pino';
import type { BrokerageClient } from '../../upstream/brokerageClient.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { asPersonInSession } from '../../upstream/asPersonInSession.ts';
import type { Journey } from '../../journey.ts';
import type { StepId } from '../../../shared/contracts/brokerageContract.ts';
import type { StepRelatedData } from '../../../shared/contracts/savedApplicationContract.ts';
import { noSharedAnswers, type SharedAnswers } from '../../infra/sharedAnswersCache.ts';
import type { StepErrorKind } from '../../../views/pages/CustomerInformationPageView.tsx';

export type { StepErrorKind };

/** customer-information §7: 401/403 → session expired, anything else → try again. */
export function callErrorKind(err: unknown): StepErrorKind {
  return err instanceof UpstreamError && (err.status === 401 || err.status === 403) ? 'SESSION_EXPIRED_ERROR' : 'TRY_AGAIN_ERROR';
}

/** A brokerage call made with the person's access token, as the steps see it: without the token. */
type Bound<Call> = Call extends (jwt: string, ...args: infer Args) => Promise<infer Result> ? (...args: Args) => Promise<Result> : never;

/** The brokerage calls of the customer-information page (the KYC step's too), each bound to the person's session. */
export interface PersonBrokerage {
  submitAccountPicker: Bound<BrokerageClient['submitAccountPicker']>;
  submitAccountAlias: Bound<BrokerageClient['submitAccountAlias']>;
  agreementBundles: Bound<BrokerageClient['agreementBundles']>;
  submitCitizenship: Bound<BrokerageClient['submitCitizenship']>;
  submitOlderCitizenship: Bound<BrokerageClient['submitOlderCitizenship']>;
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
  prospectSteps: Bound<BrokerageClient['prospectSteps']>;
  stepRelatedData: <S extends StepId>(prospectId: string, step: S) => Promise<StepRelatedData<S>>;
  onboardingReady: Bound<BrokerageClient['onboardingReady']>;
}

/**
 * The brokerage client for one request of the person (the journey is the request's session), through the one
 * rule of calling the brokerage as the person (shared/asPerson.ts). The refresh token never leaves the
 * session and no token is logged.
 */
export function brokerageForPerson(brokerage: BrokerageClient, journey: Journey, logger: Logger, shared: SharedAnswers = noSharedAnswers): PersonBrokerage {
  const { call: withToken } = asPersonInSession(brokerage, journey, logger);

  return {
    submitAccountPicker: (...args) => withToken('submitAccountPicker', (jwt) => brokerage.submitAccountPicker(jwt, ...args)),
    submitAccountAlias: (...args) => withToken('submitAccountAlias', (jwt) => brokerage.submitAccountAlias(jwt, ...args)),
    // The same for everyone: kept a while per web process (server/infra/sharedAnswersCache.ts).
    agreementBundles: (query) => shared.agreementBundles(query, () => withToken('agreementBundles', (jwt) => brokerage.agreementBundles(jwt, query))),
    submitCitizenship: (...args) => withToken('submitCitizenship', (jwt) => brokerage.submitCitizenship(jwt, ...args)),
    submitOlderCitizenship: (...args) => withToken('submitOlderCitizenship', (jwt) => brokerage.submitOlderCitizenship(jwt, ...args)),
    initFileUpload: (...args) => withToken('initFileUpload', (jwt) => brokerage.initFileUpload(jwt, ...args)),
    submitMilestone: (...args) => withToken('submitMilestone', (jwt) => brokerage.submitMilestone(jwt, ...args)),
    taxValidationRules: (...args) => withToken('taxValidationRules', (jwt) => brokerage.taxValidationRules(jwt, ...args)),
    submitTaxInfo: (...args) => withToken('submitTaxInfo', (jwt) => brokerage.submitTaxInfo(jwt, ...args)),
    createCase: (...args) => withToken('createCase', (jwt) => brokerage.createCase(jwt, ...args)),
    submitTaxResidence: (...args) => withToken('submitTaxResidence', (jwt) => brokerage.submitTaxResidence(jwt, ...args)),
    submitResidency: (...args) => withToken('submitResidency', (jwt) => brokerage.submitResidency(jwt, ...args)),
    submitContactInfo: (...args) => withToken('submitContactInfo', (jwt) => brokerage.submitContactInfo(jwt, ...args)),
    // The person's own application's, kept a while for its page views (server/infra/sharedAnswersCache.ts).
    contactRelatedData: (prospectId) =>
      shared.contactRelatedData(prospectId, () => withToken('contactRelatedData', (jwt) => brokerage.contactRelatedData(jwt, prospectId))),
    requestSignature: (...args) => withToken('requestSignature', (jwt) => brokerage.requestSignature(jwt, ...args)),
    createCustomer: (...args) => withToken('createCustomer', (jwt) => brokerage.createCustomer(jwt, ...args)),
    questionnaire: (id, language) => shared.questionnaire(id, language, () => withToken('questionnaire', (jwt) => brokerage.questionnaire(jwt, id, language))),
    startAnswerSession: (...args) => withToken('startAnswerSession', (jwt) => brokerage.startAnswerSession(jwt, ...args)),
    answerSessionNext: (...args) => withToken('answerSessionNext', (jwt) => brokerage.answerSessionNext(jwt, ...args)),
    answerSessionPrevious: (...args) => withToken('answerSessionPrevious', (jwt) => brokerage.answerSessionPrevious(jwt, ...args)),
    riskCalculation: (...args) => withToken('riskCalculation', (jwt) => brokerage.riskCalculation(jwt, ...args)),
    submitKycStep: (...args) => withToken('submitKycStep', (jwt) => brokerage.submitKycStep(jwt, ...args)),
    createRegulation: (...args) => withToken('createRegulation', (jwt) => brokerage.createRegulation(jwt, ...args)),
    updateProspect: (...args) => withToken('updateProspect', (jwt) => brokerage.updateProspect(jwt, ...args)),
    requestLegacySignature: (...args) => withToken('requestLegacySignature', (jwt) => brokerage.requestLegacySignature(jwt, ...args)),
    prospectSteps: (...args) => withToken('prospectSteps', (jwt) => brokerage.prospectSteps(jwt, ...args)),
    stepRelatedData: (prospectId, step) => withToken('stepRelatedData', (jwt) => brokerage.stepRelatedData(jwt, prospectId, step)),
    onboardingReady: (...args) => withToken('onboardingReady', (jwt) => brokerage.onboardingReady(jwt, ...args)),
  };
}
