// The brokerage's calls of the legacy single form (customer-information §4.9, §7; contract shared/contracts/legacyContract.ts),
// part of the brokerage client (brokerageClient.ts): one typed function per call, each answer parsed by the contract schema.
import type { z } from 'zod';
import {
  legacyPaths,
  legacySignatureRequest,
  legacySignatureResponse,
  prospectUpdateErrorBody,
  prospectUpdateRequest,
  prospectUpdateResponse,
  regulationRequest,
  regulationResponse,
  type LegacySignatureRequest,
  type ProspectFieldError,
  type ProspectUpdateRequest,
  type RegulationRequest,
  type RegulationResponse,
} from '../../shared/contracts/legacyContract.ts';
import { UpstreamError, type HttpClient } from './http.ts';
import { idempotencyHeaders } from './idempotency.ts';

/** customer-information §7, §8: the prospect update's answer; a refusal names its fields ({ code, field }). */
export type ProspectUpdateResult = { ok: true; prospectId: string } | { ok: false; fields: ProspectFieldError[] };
/** customer-information §4.9: the legacy signature request's answer; a 403 is high risk. */
export type LegacySignatureResult = { ok: true; url: string } | { ok: false; highRisk: true };

export function brokerageLegacyCalls(http: HttpClient) {
  return {
    /**
     * POST regulation: answers data { status, regulation_id } as received; the caller judges it (customer-information §4.9:
     * 'compliant' with an id is success, another status with an id nonCompliant, else unspecifiedApiResponseError).
     * `attempt` names the save attempt: its retries after a timeout reuse the regulation the first try created.
     */
    async createRegulation(jwt: string, body: RegulationRequest, attempt: string): Promise<RegulationResponse> {
      const path = legacyPaths.regulation;
      const sent = regulationRequest.parse(body);
      return (
        await http.json({ method: 'POST', path, bearer: jwt, headers: idempotencyHeaders(attempt, 'POST', path, sent), body: sent, schema: regulationResponse })
      ).data.data;
    },
    /**
     * PUT prospect v2. A 400 naming fields ({ code, field }, customer-information §8) answers them instead of throwing, so the
     * form can mark them; a 200 without data.prospect_id and other failures throw UpstreamError for the page's call wrapper.
     */
    async updateProspect(jwt: string, prospectId: string, body: ProspectUpdateRequest): Promise<ProspectUpdateResult> {
      const path = legacyPaths.prospect(prospectId);
      let answer: { status: number; data: z.infer<typeof prospectUpdateResponse> };
      try {
        answer = await http.json({ method: 'PUT', path, bearer: jwt, body: prospectUpdateRequest.parse(body), schema: prospectUpdateResponse });
      } catch (err) {
        const refused = err instanceof UpstreamError && err.status === 400 ? prospectUpdateErrorBody.safeParse(err.body) : null;
        if (refused?.success) return { ok: false, fields: refused.data.data.fields };
        throw err;
      }
      const updated = answer.data.data.prospect_id;
      if (!updated) throw new UpstreamError('brokerage', answer.status, answer.data, `brokerage PUT ${path}: no prospect_id in the answer`);
      return { ok: true, prospectId: updated };
    },
    /**
     * POST signatures, legacy variant: answers signature.signatureUrl. A 403 is high risk (customer-information §4.9), not an
     * expired session, so it must not reach the page's call wrapper; other failures throw UpstreamError. `attempt` names the
     * save attempt: its retries after a timeout reuse the signing session the first try created.
     */
    async requestLegacySignature(jwt: string, prospectId: string, body: LegacySignatureRequest, attempt: string): Promise<LegacySignatureResult> {
      try {
        const path = legacyPaths.signatures(prospectId);
        const sent = legacySignatureRequest.parse(body);
        const headers = idempotencyHeaders(attempt, 'POST', path, sent);
        const { data } = await http.json({ method: 'POST', path, bearer: jwt, headers, body: sent, schema: legacySignatureResponse });
        return { ok: true, url: data.data.signature.signatureUrl };
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 403) return { ok: false, highRisk: true };
        throw err;
      }
    },
  };
}
