// Brokerage API client: one typed function per call of identification-routing-creation §7 and customer-information §7. Every answer is parsed by
// the contract schema shared with sandbox/. Callers pass the prospect's access token (jwt) explicitly, through the one rule of
// calling the brokerage as the person (shared/asPerson.ts), which refreshes it. The calls of the customer-information steps,
// of carrying on with a saved application, of KYC, of the legacy form, of the status page and of the end of creation live in
// parts of their own (brokerageStepCalls.ts, brokerageResumeCalls.ts, brokerageKycCalls.ts, brokerageLegacyCalls.ts, …).
import { z } from 'zod';
import {
  brokeragePaths as paths,
  bankidSessionResponse,
  signicatSessionResponse,
  type SignicatSessionRequest,
  refreshTokenResponse,
  routingStatusResponse,
  systemStatusResponse,
  createProspectResponse,
  type CreatedProspect,
  initialStepsResponse,
  okResponse,
  signatureRequest,
  signatureResponse,
  createCustomerResponse,
  creationStatusResponse,
  type CountryCode,
} from '../../shared/contracts/brokerageContract.ts';
import { kycPaths } from '../../shared/contracts/kycContract.ts';
import { legacyPaths } from '../../shared/contracts/legacyContract.ts';
import { caseStatusPaths } from '../../shared/contracts/caseStatusContract.ts';
import { savedApplicationPaths } from '../../shared/contracts/savedApplicationContract.ts';
import { createHttpClient, UpstreamError, type CallObserver } from './http.ts';
import { emptyAnswer, idempotencyHeaders } from './idempotency.ts';
import { brokerageKycCalls } from './brokerageKycCalls.ts';
import { brokerageLegacyCalls } from './brokerageLegacyCalls.ts';
import { brokerageStepCalls } from './brokerageStepCalls.ts';
import { brokerageResumeCalls } from './brokerageResumeCalls.ts';
import { brokerageCaseStatusCalls } from './brokerageCaseStatusCalls.ts';
import { brokerageAfterCreationCalls } from './brokerageAfterCreationCalls.ts';

export interface BrokerageClientOptions {
  baseUrl: string;
  timeoutMs: number;
  /** At most this many connections to the brokerage (server/upstream/http.ts); without, as many as calls in flight. */
  connections?: number;
  /** Each call's time and status, by call name (server/infra/metrics.ts). */
  observe?: CallObserver;
}

/** Every brokerage path by call name: a call's name in the metrics (kycStep, initialSteps, …), never its path with ids. */
const brokerageCallPaths = { ...caseStatusPaths, ...legacyPaths, ...kycPaths, ...savedApplicationPaths, ...paths };

/**
 * POST /api/2/customers' answer: `ok` when creation was requested (no data.message), else the brokerage refused it
 * (e.g. the agreements not signed yet). `status` is the HTTP status answered.
 */
export interface CreateCustomerAnswer {
  ok: boolean;
  status: number;
}

/**
 * A status of POST /api/2/customers that is the brokerage's answer about the prospect rather than a failure of the call:
 * the 4xx other than 401/403 (those are the call wrapper's token refresh or expired session, customer-information §7)
 * and other than 408/429 (a timeout or throttling: try again). 5xx is an outage.
 */
function isCreateCustomerRefusal(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
}

function createCustomerAnswer(status: number, body: z.infer<typeof createCustomerResponse> | undefined): CreateCustomerAnswer {
  return { ok: status < 400 && body?.data?.message === undefined, status };
}

export function createBrokerageClient(options: BrokerageClientOptions) {
  const http = createHttpClient({
    name: 'brokerage',
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    connections: options.connections,
    paths: brokerageCallPaths,
    observe: options.observe,
  });

  return {
    http,
    async createBankidSession(orderReference: string) {
      return (await http.json({ method: 'POST', path: paths.bankidSession, body: { orderReference }, schema: bankidSessionResponse })).data;
    },
    /** POST session creation after identification through the OIDC broker (identification-routing-creation §7); answers a refresh token. */
    async createSignicatSession(body: SignicatSessionRequest) {
      return (await http.json({ method: 'POST', path: paths.signicatSession, body, schema: signicatSessionResponse })).data;
    },
    async refreshToken(refreshToken: string) {
      return (await http.json({ method: 'POST', path: paths.refreshToken, body: { refreshToken }, schema: refreshTokenResponse })).data;
    },
    /**
     * Logs out the current sessions (identification-routing-creation §7): DELETE of the session-service session and of the older
     * login. A 401 means there was no session to end and is ignored; other failures throw. Both calls
     * always run, so one failing does not keep the other session alive.
     */
    async logout(jwt?: string) {
      const results = await Promise.allSettled(
        [paths.logoutCurrent, paths.logoutLegacy].map((path) => http.json({ method: 'DELETE', path, ...(jwt ? { bearer: jwt } : {}), schema: emptyAnswer })),
      );
      const failure = results.find(
        (r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof UpstreamError && r.reason.status === 401),
      );
      if (failure) throw failure.reason;
    },
    async routingStatus(jwt: string) {
      return (await http.json({ method: 'GET', path: paths.routingStatus, bearer: jwt, schema: routingStatusResponse })).data;
    },
    /**
     * GET onboarding status (identification-routing-creation §3 status). Public (our reading): the page shell asks
     * without a person (server/infra/systemStatusCache.ts); the creation worker sends the person's token.
     */
    async systemStatus(jwt?: string) {
      return (await http.json({ method: 'GET', path: paths.systemStatus, ...(jwt ? { bearer: jwt } : {}), schema: systemStatusResponse })).data;
    },
    async becomeCustomerIntent(jwt: string, country: CountryCode) {
      await http.json({ method: 'PUT', path: paths.becomeCustomerIntent, bearer: jwt, body: { customerType: 'PRIVATE', country }, schema: emptyAnswer });
    },
    async submitValidationStep(jwt: string, country: CountryCode, v3: boolean) {
      await http.json({ method: 'POST', path: v3 ? paths.validationStepV3 : paths.validationStep, bearer: jwt, body: { country }, schema: okResponse });
    },
    /**
     * POST prospects v3 (v2 for the legacy form): a new prospect, or the person's unfinished one of that flow again
     * (`resumed: true`, one application per person; brokerageContract.ts createProspectResponse).
     */
    async createProspect(jwt: string, country: CountryCode, legacy: boolean): Promise<CreatedProspect> {
      const path = legacy ? paths.prospectsV2 : paths.prospectsV3;
      return (await http.json({ method: 'POST', path, bearer: jwt, body: { country, customerType: 'PRIVATE' }, schema: createProspectResponse })).data;
    },
    async initialSteps(jwt: string, prospectId: string) {
      return (await http.json({ method: 'GET', path: paths.initialSteps(prospectId), bearer: jwt, schema: initialStepsResponse })).data.data.initialSteps;
    },
    /**
     * POST signatures (customer-information §4.8, §7): the signing URL. A 403 is high risk (customer-information §8
     * "Signature 403": additional information is needed), not an expired session; other failures throw. `attempt`
     * names the signing attempt: its retries after a timeout reuse the signing session the first try created.
     */
    async requestSignature(
      jwt: string,
      prospectId: string,
      body: z.input<typeof signatureRequest>,
      attempt: string,
    ): Promise<{ ok: true; url: string } | { ok: false; highRisk: true }> {
      try {
        const path = paths.signatures(prospectId);
        const sent = signatureRequest.parse(body);
        const answer = await http.json({
          method: 'POST',
          path,
          bearer: jwt,
          headers: idempotencyHeaders(attempt, 'POST', path, sent),
          body: sent,
          schema: signatureResponse,
        });
        return { ok: true, url: answer.data.data.url };
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 403) return { ok: false, highRisk: true };
        throw err;
      }
    },
    /**
     * POST /api/2/customers (identification-routing-creation §7: data.message present means error). Its answer is
     * classified (createCustomerAnswer) as an answer of the brokerage: created, or refused (the prospect not signed,
     * creation not possible). A failure of the call throws UpstreamError as every other call
     * does, so the caller's wrapper can tell them apart (customer-information §7): a 401 refreshes an expired token and
     * is tried again, 401/403 otherwise is an expired session, a 5xx, timeout or unreachable brokerage is "try again".
     */
    async createCustomer(jwt: string, prospectId: string): Promise<CreateCustomerAnswer> {
      try {
        const { status, data } = await http.json({
          method: 'POST',
          path: paths.customers,
          bearer: jwt,
          body: { prospect_id: prospectId },
          schema: createCustomerResponse,
        });
        return createCustomerAnswer(status, data);
      } catch (err) {
        if (err instanceof UpstreamError && isCreateCustomerRefusal(err.status)) {
          return createCustomerAnswer(err.status, createCustomerResponse.safeParse(err.body).data);
        }
        throw err;
      }
    },
    /** GET creation_status; answers the HTTP status alongside so the decision can apply rule 1. */
    async creationStatus(jwt: string, prospectId: string) {
      const { status, body } = await http.raw({ method: 'GET', path: paths.creationStatus, bearer: jwt, query: { prospect_id: prospectId } });
      if (status >= 400 || status === 0) return { httpStatus: status, body: null };
      const parsed = creationStatusResponse.safeParse(body);
      if (!parsed.success) throw new UpstreamError('brokerage', status, undefined, 'creation_status: unexpected answer shape');
      return { httpStatus: status, body: parsed.data };
    },
    ...brokerageStepCalls(http),
    ...brokerageResumeCalls(http),
    ...brokerageKycCalls(http),
    ...brokerageLegacyCalls(http),
    ...brokerageCaseStatusCalls(http),
    ...brokerageAfterCreationCalls(http),
  };
}
export type BrokerageClient = ReturnType<typeof createBrokerageClient>;
