// The legacy prospect's wire contract (customer-information §3 "Prospect update payload", "Regulation
// payload", "Signature request", §4.9, §7): the regulation, the prospect v2 update and the legacy signature
// request, the calls that save a prospect from the legacy single form. server/upstream/brokerageClient.ts parses
// every answer with these; sandbox/ parses every request with them. Where customer-information §7 shows no
// body, the choice is ours and marked so.
import { z } from 'zod';
import { countryCode } from './brokerageContract.ts';
import { carriedQueryParams } from '../carriedQuery.ts';

const prospect = (prospectId: string) => `/api/2/prospects/v2/${encodeURIComponent(prospectId)}`;

export const legacyPaths = {
  /** POST: create the regulation (customer-information §7), with an Idempotency-Key (brokerageContract.ts IDEMPOTENCY_KEY_HEADER, our reading). */
  regulation: '/api/2/prospects/v2/regulation',
  /** PUT: update the prospect (customer-information §7). */
  prospect,
  /**
   * POST: the signature request; the legacy variant carries nextUrl, the query params and the EPK flag. With an
   * Idempotency-Key (brokerageContract.ts IDEMPOTENCY_KEY_HEADER, our reading), so a retry after a timeout reuses the signing session.
   */
  signatures: (prospectId: string) => `${prospect(prospectId)}/signatures`,
} as const;

const text = z.string().max(200);
const iso2 = z.string().regex(/^[A-Z]{2}$/);

// --- regulation ----------------------------------------------------------------------------------

/** customer-information §3 Regulation payload; customer_type is always 'individual'. */
export const regulationRequest = z.object({
  regulation_id: z.string().max(100).nullable(),
  national_id_number_country_code: countryCode,
  national_id_number: z.string().min(1).max(32),
  address_country: iso2,
  jurisdiction: countryCode,
  customer_type: z.literal('individual'),
  kyc: z.object({ answers: z.array(z.object({ question_id: z.number().int().nonnegative(), answer_id: z.number().int().nonnegative() })).max(200) }),
  tax_info: z.object({
    /** The account types the regulation covers (e.g. ['DEP', 'ISK']), or null. */
    account_type_codes: z
      .array(z.string().regex(/^[A-Z]{2,4}$/))
      .max(20)
      .nullable(),
    taxable_in_jurisdiction: z.boolean(),
    /** false only when the tax-liability answer is 'no' (home only); customer-information §3. */
    taxable_outside_jurisdiction: z.boolean(),
  }),
});
export type RegulationRequest = z.infer<typeof regulationRequest>;

/** customer-information §4.9: 'compliant' with an id is success; another status with an id, nonCompliant; else unspecifiedApiResponseError. */
export const regulationResponse = z.object({
  data: z.object({ status: z.string().max(100).nullish(), regulation_id: z.string().max(100).nullish() }),
});
export type RegulationResponse = z.infer<typeof regulationResponse>['data'];

// --- prospect v2 update --------------------------------------------------------------------------

/**
 * customer-information §3 Prospect update payload (snake_case). Empty values are dropped before sending,
 * so every field is optional on the wire.
 */
export const prospectUpdateRequest = z
  .object({
    national_id_number: z.string().min(1).max(32),
    national_id_number_country_code: countryCode,
    country: countryCode,
    phone_number: z.string().min(1).max(32),
    email: z.string().min(1).max(254),
    /** Citizenship: the country code an in-country answer sends (customer-information §3 answer enumerations). */
    citizen: iso2,
    regulation_id: z.string().min(1).max(100),
    /** Account type plus country suffix, e.g. 'DEP_SE'. */
    account_templates: z
      .array(z.string().regex(/^[A-Z]{2,4}_[A-Z]{2}$/))
      .min(1)
      .max(20),
    first_name: text.min(1),
    last_name: text.min(1),
    account_aliases: z.array(z.object({ account_type: z.string().regex(/^[A-Z]{2,4}$/), alias: z.string().min(1).max(30) })).max(20),
  })
  .partial();
export type ProspectUpdateRequest = z.infer<typeof prospectUpdateRequest>;

/** customer-information §7: data.fields (code, field) on a refusal, data.prospect_id on success. */
export const prospectFieldError = z.object({ code: z.string().max(100), field: z.string().max(100).nullish() });
export type ProspectFieldError = z.infer<typeof prospectFieldError>;
export const prospectUpdateResponse = z.object({
  data: z.object({ prospect_id: z.string().min(1).max(100).nullish(), fields: z.array(prospectFieldError).max(50).nullish() }),
});
export type ProspectUpdateResponse = z.infer<typeof prospectUpdateResponse>['data'];
/**
 * The 400 of a refused prospect update (the choice of shape is ours, after customer-information §7's data.fields):
 * one { code, field } per refused field (e.g. Age on national_id_number, Invalid on phone_number or Email,
 * natregno on national_id_number) and a message.
 */
export const prospectUpdateErrorBody = z.object({
  data: z.object({ message: z.string().max(500).optional(), fields: z.array(prospectFieldError).min(1).max(50) }),
});
export type ProspectUpdateErrorBody = z.infer<typeof prospectUpdateErrorBody>;

// --- legacy signature request --------------------------------------------------------------------

/**
 * customer-information §3 Signature request, legacy variant: the step flow's four fields plus nextUrl,
 * the entry's query params and the EPK flag (the field names of these three are ours; the spec names
 * them only).
 */
export const legacySignatureRequest = z.object({
  cancel_url: z.string().url(),
  complete_url: z.string().url(),
  postpone_url: z.string().url(),
  lang: z.string().min(2).max(5),
  nextUrl: z.string().url(),
  /** The entry's carried query, under the limits the start page keeps it to (shared/carriedQuery.ts). */
  queryParams: carriedQueryParams,
  epk: z.boolean(),
});
export type LegacySignatureRequest = z.infer<typeof legacySignatureRequest>;

/** customer-information §3: the legacy response holds signature.signatureUrl. */
export const legacySignatureResponse = z.object({ data: z.object({ signature: z.object({ signatureUrl: z.string().url() }) }) });
