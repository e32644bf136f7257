// Brokerage API client: one typed function per call of the spec's section 7. Every answer is parsed by
// the contract schema shared with sandbox/. Callers pass the prospect's access token (jwt) explicitly.
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
  initialStepsResponse,
  okResponse,
  signatureResponse,
  createCustomerResponse,
  creationStatusResponse,
  type AccountTypeWithCountry,
  type CountryCode,
  type Milestone,
} from '../../shared/contracts/brokerage.ts';
import { createHttpClient, UpstreamError } from './http.ts';

export interface BrokerageClientOptions {
  baseUrl: string;
  timeoutMs: number;
}

const empty = z.unknown();

export function createBrokerageClient(options: BrokerageClientOptions) {
  const http = createHttpClient({ name: 'brokerage', baseUrl: options.baseUrl, timeoutMs: options.timeoutMs });

  return {
    http,
    async createBankidSession(orderReference: string) {
      return (await http.json({ method: 'POST', path: paths.bankidSession, body: { orderReference }, schema: bankidSessionResponse })).data;
    },
    /** POST session creation after identification through the OIDC broker (spec §7); answers a refresh token. */
    async createSignicatSession(body: SignicatSessionRequest) {
      return (await http.json({ method: 'POST', path: paths.signicatSession, body, schema: signicatSessionResponse })).data;
    },
    async refreshToken(refreshToken: string) {
      return (await http.json({ method: 'POST', path: paths.refreshToken, body: { refreshToken }, schema: refreshTokenResponse })).data;
    },
    /**
     * Logs out the current sessions (spec §7): DELETE of the session-service session and of the older
     * login. A 401 means there was no session to end and is ignored; other failures throw. Both calls
     * always run, so one failing does not keep the other session alive.
     */
    async logout(jwt?: string) {
      const results = await Promise.allSettled(
        [paths.logoutCurrent, paths.logoutLegacy].map((path) => http.json({ method: 'DELETE', path, ...(jwt ? { bearer: jwt } : {}), schema: empty })),
      );
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof UpstreamError && r.reason.status === 401));
      if (failure) throw failure.reason;
    },
    async routingStatus(jwt: string) {
      return (await http.json({ method: 'GET', path: paths.routingStatus, bearer: jwt, schema: routingStatusResponse })).data;
    },
    async systemStatus(jwt: string) {
      return (await http.json({ method: 'GET', path: paths.systemStatus, bearer: jwt, schema: systemStatusResponse })).data;
    },
    async becomeCustomerIntent(jwt: string, country: CountryCode) {
      await http.json({ method: 'PUT', path: paths.becomeCustomerIntent, bearer: jwt, body: { customerType: 'PRIVATE', country }, schema: empty });
    },
    async submitValidationStep(jwt: string, country: CountryCode, v3: boolean) {
      await http.json({ method: 'POST', path: v3 ? paths.validationStepV3 : paths.validationStep, bearer: jwt, body: { country }, schema: okResponse });
    },
    async createProspect(jwt: string, country: CountryCode, legacy: boolean) {
      const path = legacy ? paths.prospectsV2 : paths.prospectsV3;
      return (await http.json({ method: 'POST', path, bearer: jwt, body: { country, customerType: 'PRIVATE' }, schema: createProspectResponse })).data;
    },
    async initialSteps(jwt: string, prospectId: string) {
      return (await http.json({ method: 'GET', path: paths.initialSteps(prospectId), bearer: jwt, schema: initialStepsResponse })).data.data.initialSteps;
    },
    async submitAccountPicker(jwt: string, prospectId: string, accountTypesWithCountry: AccountTypeWithCountry[]) {
      await http.json({ method: 'POST', path: paths.accountPickerStep(prospectId), bearer: jwt, body: { accountTypesWithCountry }, schema: okResponse });
    },
    async submitMilestone(jwt: string, prospectId: string, milestone: Milestone) {
      await http.json({ method: 'POST', path: paths.milestoneStep(prospectId, milestone), bearer: jwt, body: {}, schema: okResponse });
    },
    async requestSignature(jwt: string, prospectId: string, body: { cancel_url: string; complete_url: string; postpone_url: string; lang: string }) {
      return (await http.json({ method: 'POST', path: paths.signatures(prospectId), bearer: jwt, body, schema: signatureResponse })).data.data.url;
    },
    /** POST /api/2/customers. Per the spec, data.message present means the request failed. */
    async createCustomer(jwt: string, prospectId: string): Promise<{ ok: boolean; status: number }> {
      try {
        const { status, data } = await http.json({ method: 'POST', path: paths.customers, bearer: jwt, body: { prospect_id: prospectId }, schema: createCustomerResponse });
        return { ok: !data?.data?.message, status };
      } catch (err) {
        if (err instanceof UpstreamError && err.status >= 400) return { ok: false, status: err.status };
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
    async ping() {
      const { status } = await http.raw({ method: 'GET', path: paths.systemStatus });
      return status > 0 && status < 500;
    },
  };
}
export type BrokerageClient = ReturnType<typeof createBrokerageClient>;
