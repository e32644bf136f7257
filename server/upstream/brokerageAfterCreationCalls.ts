// The brokerage's calls once customer creation has stopped (identification-routing-creation §4 "Customer creation": "When
// polling stops…"; §7): the login session and the affiliate conversion. Part of the brokerage client (brokerageClient.ts):
// each answer parsed by the contract schema, a failure throws UpstreamError with the status. Both are sent as the person
// with an Idempotency-Key derived from the caller's `attempt` (idempotency.ts), so a retry after a timeout or a worker
// killed mid-call starts no second login session and generates no second lead number.
import {
  brokeragePaths as paths,
  affiliateConversionRequest,
  affiliateConversionResponse,
  nnxSessionLoginResponse,
  type LoginHandoff,
} from '../../shared/contracts/brokerageContract.ts';
import { UpstreamError, type HttpClient } from './http.ts';
import { idempotencyHeaders } from './idempotency.ts';

export function brokerageAfterCreationCalls(http: HttpClient) {
  return {
    /**
     * POST nnx-session login: turns the person's identified session into a logged-in one for the bank's site (no body);
     * answers the one-time code that hands it to the person's browser there (a credential: kept sealed, never logged).
     */
    async startLoginSession(jwt: string, attempt: string): Promise<LoginHandoff> {
      const headers = idempotencyHeaders(attempt, 'POST', paths.nnxSessionLogin, null);
      const answer = await http.json({ method: 'POST', path: paths.nnxSessionLogin, bearer: jwt, headers, schema: nnxSessionLoginResponse });
      // A 204 (no code) hands nothing over: the login failed as far as the person is concerned.
      if (answer.status === 204 || !answer.data) throw new UpstreamError(http.name, answer.status, undefined, 'nnx-session login answered no hand-off code');
      return answer.data;
    },
    /** POST affiliate conversion of the created customer's prospect: the lead number (kept with the application, never shown). */
    async affiliateConversion(jwt: string, prospectId: string, attempt: string): Promise<{ leadNumber: string }> {
      const sent = affiliateConversionRequest.parse({ prospectId });
      const headers = idempotencyHeaders(attempt, 'POST', paths.affiliateConversion, sent);
      const answer = await http.json({
        method: 'POST',
        path: paths.affiliateConversion,
        bearer: jwt,
        headers,
        body: sent,
        schema: affiliateConversionResponse,
      });
      return { leadNumber: answer.data.leadNumber };
    },
  };
}
