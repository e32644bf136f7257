// Brokerage API wire contract (paths and field names from the spec, section 7 of both documents).
// server/upstream/brokerageClient.ts parses every answer with these; sandbox/ parses every request with them.
import { z } from 'zod';

export const countryCode = z.enum(['SE', 'NO', 'DK', 'FI']);
export type CountryCode = z.infer<typeof countryCode>;

export const brokeragePaths = {
  bankidSession: '/nnxapi/authentication/v1/sessions/bankid',
  // Session after identification through the OIDC broker (DK, NO, FI); the path shape is not in the spec.
  signicatSession: '/api/2/authentication/signicat/session',
  refreshToken: '/nnxapi/authentication/v1/sessions/refresh-token',
  logoutCurrent: '/nnxapi/authentication/v1/sessions/current',
  routingStatus: '/api/2/onboarding/routing-status',
  systemStatus: '/api/2/onboarding/status',
  becomeCustomerIntent: '/api/2/onboarding/become-customer-intent',
  validationStep: '/api/2/onboarding/validation-step',
  validationStepV3: '/api/2/onboarding/validation-step/v3',
  prospectsV3: '/api/2/prospects/v3',
  prospectsV2: '/api/2/prospects/v2',
  initialSteps: (prospectId: string) => `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}/initial-steps`,
  accountPickerStep: (prospectId: string) => `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}/steps/account-picker`,
  // customer-information §7 does not show the alias path; it follows the account-picker one.
  accountAliasStep: (prospectId: string) => `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}/steps/account-alias`,
  agreementBundles: '/api/2/content/onboarding/agreement/bundles',
  milestoneStep: (prospectId: string, milestone: Milestone) => `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}/steps/milestone-${milestone}`,
  // With an Idempotency-Key (IDEMPOTENCY_KEY_HEADER below, our reading): a retry after a timeout reuses the signing session.
  signatures: (prospectId: string) => `/api/2/prospects/v2/${encodeURIComponent(prospectId)}/signatures`,
  // Citizenship and file calls (customer-information §7); the exact paths are not in the spec.
  submitCitizenshipV3: '/api/2/onboarding/submit-citizenship/v3',
  initFileUpload: '/api/2/onboarding/init-file-upload',
  customers: '/api/2/customers',
  creationStatus: '/api/2/customers/creation_status',
  // Added for the sandbox (identification-routing-creation §7): the older logout and the login-session start after creation.
  logoutLegacy: '/api/2/login',
  // identification-routing-creation §4 "Customer creation" ("When polling stops…"), §7: turns the person's identified session
  // into a logged-in session for the bank's site. With an Idempotency-Key (our reading), so a retry starts no second one.
  nnxSessionLogin: '/api/2/authentication/nnx-session/login',
  // The bank's site redeems the login's hand-off code here, server to server (our reading: the spec has the browser make
  // the login call and receive the session itself; a session started by our worker reaches the browser this way instead).
  loginHandoffRedeem: '/api/2/authentication/nnx-session/handoff/redeem',
  // identification-routing-creation §4 "Customer creation": on done "run an affiliate conversion (generates a lead number)".
  // The spec names the call but shows neither path nor payload: path, body and answer are our reading (see affiliateConversionRequest).
  affiliateConversion: '/api/2/onboarding/affiliate-conversion',
  // Tax information and residency (customer-information.md §7); the exact paths are not in the spec.
  taxInfoStepV3: (prospectId: string) => `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}/steps/tax-info/v3`,
  taxValidationRules: '/api/2/onboarding/tax-auto-validation-rules',
  residencyStep: (prospectId: string) => `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}/steps/residency`,
  createCase: '/api/2/onboarding/cases',
  // POST submit tax residence (customer-information §7): the spec shows its payload but not its path; this one is ours.
  taxResidence: '/api/2/onboarding/tax-residence',
  // Contact information (customer-information.md §7): submit-contact-info-step and "related data by step
  // name"; the exact paths are not in the spec, they follow the account-picker one.
  contactInfoStep: (prospectId: string) => `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}/steps/contact-info`,
  stepRelatedData: (prospectId: string, step: StepId) =>
    `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}/steps/${encodeURIComponent(step)}/related-data`,
} as const;

export type Milestone = 'one' | 'two' | 'three';

// --- authentication -------------------------------------------------------------
export const bankidSessionRequest = z.object({ orderReference: z.string().min(1) });
export const bankidSessionResponse = z.object({ refreshToken: z.string().min(1) });
/** The national id comes from the ID token our server verified; returnUrl is where the journey continues. */
export const signicatSessionRequest = z.object({ nationalId: z.string().min(1).max(32), country: countryCode, returnUrl: z.string().url() });
export type SignicatSessionRequest = z.infer<typeof signicatSessionRequest>;
export const signicatSessionResponse = z.object({ refreshToken: z.string().min(1) });
export const refreshTokenRequest = z.object({ refreshToken: z.string().min(1) });
export const refreshTokenResponse = z.object({ jwt: z.string().min(1), expiresIn: z.number().int().positive() });
/** Code of a 401 whose access token has outlived its lifetime: a token refresh helps (customer-information §7). */
export const EXPIRED_ACCESS_TOKEN = 'EXPIRED_ACCESS_TOKEN';
/** Body of a 401 of an authenticated call: a code (EXPIRED_ACCESS_TOKEN, or another for unknown or refused tokens). */
export const unauthorizedBody = z.object({
  code: z.string().min(1).max(100),
  data: z
    .object({ message: z.string().max(500) })
    .partial()
    .optional(),
});

// --- routing ----------------------------------------------------------------------
export const routingStatuses = [
  'ONBOARDING_INTENT',
  'ONBOARDING',
  'LOGIN',
  'ONBOARDING_NIGHTLY_DOWNTIME',
  'MINOR',
  'MANUAL_SUPPORT',
  'ONBOARDING_OPEN_CASE',
] as const;
export const routingStatus = z.enum(routingStatuses);
export type RoutingStatus = z.infer<typeof routingStatus>;

export const routingStatusResponse = z.object({
  customerRoutingStatus: routingStatus,
  customerId: z.string().nullable(),
  routingInformation: z.array(z.string()).nullable(),
});
export type RoutingStatusResponse = z.infer<typeof routingStatusResponse>;

/**
 * The feedback banners we know (identification-routing-creation §8 "High-load notice": possible delays in account
 * opening). The spec names the field (§3 status {creationPaused, feedbackBanner}) but not its values: HIGH_LOAD is our
 * reading. shared/systemStatus.ts decides what a page shows for each.
 */
export const knownFeedbackBanner = z.enum(['HIGH_LOAD']);
export type KnownFeedbackBanner = z.infer<typeof knownFeedbackBanner>;

/**
 * GET onboarding status (identification-routing-creation §3 status {creationPaused, feedbackBanner}): public, our
 * reading, since the start page shows it before anyone has identified; the creation worker sends the person's token.
 * feedbackBanner stays any string here, so a banner this build does not know never fails the worker's read of
 * creationPaused; the pages show only the known ones (shared/systemStatus.ts).
 */
export const systemStatusResponse = z.object({
  creationPaused: z.boolean(),
  feedbackBanner: z.string().nullable(),
});
export type SystemStatus = z.infer<typeof systemStatusResponse>;

export const customerType = z.enum(['PRIVATE', 'CORPORATE', 'MINOR']);
export const becomeCustomerIntentRequest = z.object({ customerType, country: countryCode });
export const blockedBody = z.object({ shouldBlockBecomeCustomer: z.literal(true) });

export const validationStepRequest = z.object({ country: countryCode });

// --- idempotency (our reading; not in the spec) -------------------------------------------------
/**
 * Idempotency-Key request header (the IETF httpapi draft's): our reading of how the brokerage API makes a call that
 * creates something safe to repeat after a timeout. The same key and body answer the first answer again, another body
 * 422, a first call still running 409. Which calls carry it and what a real brokerage must do: docs/decisions.md
 * "Idempotency-Key".
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** The key itself: what our client sends is a base64url SHA-256 digest; the draft allows any sf-string. */
export const idempotencyKey = z.string().regex(/^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,255}$/);
/** The header's value for a key: a structured-field string (RFC 8941 §3.3.3). */
export const idempotencyKeyHeaderValue = (key: string): string => `"${idempotencyKey.parse(key)}"`;
/** The key of a header value, or null when it is not one quoted sf-string without escapes. */
export function parseIdempotencyKeyHeader(value: string): string | null {
  const quoted = /^"(.*)"$/.exec(value.trim());
  const key = quoted ? idempotencyKey.safeParse(quoted[1]) : null;
  return key?.success ? key.data : null;
}
export const okResponse = z.object({}).passthrough();

// --- prospects --------------------------------------------------------------------
export const createProspectRequest = z.object({ country: countryCode, customerType });
/**
 * POST prospects v3 / v2 (identification-routing-creation §4 routing, §7). One application per person (our reading):
 * while the person has an unfinished prospect of the same flow (v3 step flow or v2 legacy form; unfinished = not
 * signed, kept for months after it was last saved to), the call answers that prospect with `resumed: true` instead of
 * creating another. The answer on the same call keeps routing's order of the spec (intent, validation step, prospect)
 * unchanged, and every way into the journey (any browser, the app's webview, after an expired session) passes it. The
 * status stays 200 either way, as before, so a client reading only prospect_id keeps working.
 */
export const createProspectResponse = z.object({ prospect_id: z.string().min(1), resumed: z.boolean() });
export type CreatedProspect = z.infer<typeof createProspectResponse>;

export const stepIds = [
  'MILESTONE_ONE_STEP',
  'ACCOUNT_PICKER_STEP',
  'ACCOUNT_ALIAS_STEP',
  'MILESTONE_TWO_STEP',
  'CONTACT_INFORMATION_STEP',
  'CITIZENSHIP_STEP',
  'RESIDENCY_STEP',
  'TAX_INFO_STEP',
  'KYC_STEP',
  'MILESTONE_THREE_STEP',
  'EXISTING_STEP',
] as const;
export const stepId = z.enum(stepIds);
export type StepId = z.infer<typeof stepId>;

export const initialStepsResponse = z.object({ data: z.object({ initialSteps: z.array(stepId) }) });

export const accountTypesWithCountry = ['ISK_SE', 'DEP_SE', 'ASK_NO', 'DEP_NO', 'EPK_NO', 'ESA_FI', 'DEP_FI', 'DEP_DK', 'DSK_DK'] as const;
export const accountTypeWithCountry = z.enum(accountTypesWithCountry);
export type AccountTypeWithCountry = z.infer<typeof accountTypeWithCountry>;

export const accountPickerStepRequest = z.object({ accountTypesWithCountry: z.array(accountTypeWithCountry).min(1) });

// --- citizenship and files (customer-information §3 "Citizenship entry", "File upload"; §7) ---
export const isoCountry = z.string().regex(/^[A-Z]{2}$/);
export const citizenshipEntry = z.object({
  countryCode: isoCountry,
  taskId: z.string().min(1).optional(),
  /** Attachment ids of the uploaded proof. */
  attachments: z.array(z.string().min(1)),
});
export const submitCitizenshipRequest = z.strictObject({
  prospectId: z.string().min(1),
  isCitizenInTld: z.boolean(),
  citizenshipInformationList: z.array(citizenshipEntry),
});
export type SubmitCitizenshipRequest = z.infer<typeof submitCitizenshipRequest>;
export const submitCitizenshipResponse = z.object({
  data: z.object({ tasks: z.array(z.object({ countryCode: isoCountry, taskId: z.string().min(1) })) }),
});
export const uploadContentType = z.enum(['image/jpeg', 'image/png', 'application/pdf']);
export const initFileUploadRequest = z.object({ fileName: z.string().min(1).max(200), contentType: uploadContentType, taskId: z.string().min(1) });
export type InitFileUploadRequest = z.infer<typeof initFileUploadRequest>;
/** data.url is where the bytes are PUT; attachmentId names the file in later submits (not in the spec: our choice). */
export const initFileUploadResponse = z.object({ data: z.object({ url: z.string().url(), attachmentId: z.string().min(1) }) });

/** customer-information §3 alias payload. The alias rules themselves (shared/accountAlias.ts) are checked by the caller. */
export const accountAliasStepRequest = z.object({
  accountTypeAliases: z.array(z.object({ accountTypeWithCountry, alias: z.string().min(1).max(200) })).min(1),
});
export type AccountTypeAlias = z.infer<typeof accountAliasStepRequest>['accountTypeAliases'][number];

/** customer-information §7 precontractual documents of one account (§9 ATYID ids). The answer's shape is not in the spec. */
export const agreementBundlesQuery = z.object({
  pdf_id: z.string().regex(/^ATYID_\d+$/),
  country: countryCode,
  lang: z.string().regex(/^[a-z]{2}$/),
});
export const agreementBundlesResponse = z.object({
  data: z.object({ documents: z.array(z.object({ title: z.string().min(1), url: z.string().url() })) }),
});
export type AgreementDocument = z.infer<typeof agreementBundlesResponse>['data']['documents'][number];

export const signatureRequest = z.object({
  cancel_url: z.string().url(),
  complete_url: z.string().url(),
  postpone_url: z.string().url(),
  lang: z.string().min(2),
});
export const signatureResponse = z.object({ data: z.object({ url: z.string().url() }) });

// --- tax information and residency (customer-information.md §3, §7) ------------------------
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const compiles = (pattern: string) => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
};

export const taxInformationListItem = z.object({
  countryCode: isoCountry,
  taxIdentificationNumber: z.string().min(1).max(64),
  startDate: isoDate,
});
export const taxInfoStepRequest = z.object({
  taxableInTld: z.boolean(),
  taxInformationListOutsideOfTld: z.array(taxInformationListItem).max(250),
});
/** A failed tax submit names the offending fields (e.g. taxInformationListOutsideOfTld[0].startDate). */
export const taxInfoErrorBody = z.object({ data: z.object({ invalidFields: z.array(z.string().max(200)).max(100) }) });
/** Per country: every regex must match the number; the placeholder shows the expected format. */
export const taxValidationRule = z.object({
  countryCode: isoCountry,
  validationRegex: z.array(z.string().max(300).refine(compiles, 'not a regular expression')).max(10),
  patternPlaceholder: z.string().max(100),
});
export const taxValidationRulesResponse = z.object({ data: z.object({ rules: z.array(taxValidationRule).max(300) }) });

/** Residency data (customer-information §3): address abroad, the three answers, the uploaded documents. */
export const residencyQuestions = ['applicationPurpose', 'reasonForLivingAbroad', 'durationAbroad'] as const;
export const residencyStepRequest = z.object({
  addressCountry: isoCountry,
  address: z.string().min(1).max(200),
  zipCode: z.string().min(1).max(20),
  city: z.string().min(1).max(100),
  questionsAndAnswers: z.array(z.object({ question: z.enum(residencyQuestions), answer: z.string().min(1).max(2000) })).length(3),
  attachments: z
    .array(z.object({ attachmentId: z.string().min(1).max(200) }))
    .min(1)
    .max(20),
  nnxTaskId: z.string().min(1).max(200),
});
export const caseTypes = ['RESIDENCY', 'TAX_RESIDENCE'] as const;
export const createCaseRequest = z.object({
  prospectId: z.string().min(1),
  type: z.enum(caseTypes),
  taskId: z.string().min(1).max(200).optional(),
  taskData: z.record(z.string(), z.string().max(2000)),
  attachments: z.array(z.object({ attachmentId: z.string().min(1).max(200) })).max(20),
});
export const createCaseResponse = z.object({ data: z.object({ taskId: z.string().min(1) }) });
/** POST submit tax residence (customer-information §7): the proof of tax residence, on the TAX_RESIDENCE case (nnxTaskId) it was uploaded to. */
export const submitTaxResidenceRequest = z.object({
  prospectId: z.string().min(1),
  type: z.literal('TAX_RESIDENCE'),
  nnxTaskId: z.string().min(1).max(200),
  taskData: z.object({ countryCode: isoCountry }),
  attachments: z
    .array(z.object({ attachmentId: z.string().min(1).max(200) }))
    .min(1)
    .max(20),
});
export type SubmitTaxResidenceRequest = z.infer<typeof submitTaxResidenceRequest>;

// --- contact information (customer-information.md §3 contact data, §7, §8) ---------------------
/** mobilePhoneNumber in E.164 (+ and up to 15 digits). */
export const contactInfoStepRequest = z.object({
  mobilePhoneNumber: z.string().regex(/^\+[1-9]\d{6,14}$/),
  email: z.email().max(254),
});
export type ContactInfoStepRequest = z.infer<typeof contactInfoStepRequest>;
export const contactInfoFields = ['email', 'mobilePhoneNumber'] as const;
/** customer-information §7/§8: a refused contact submit (400) lists the offending field names in data.fields. */
export const contactInfoErrorBody = z.object({ data: z.object({ fields: z.array(z.string().max(200)).max(20) }) });
/** Related data of the contact step: what the upstream knows (registered address from the population register, the contact data saved). */
export const contactRelatedData = z.object({
  email: z.string().max(254).nullish(),
  mobilePhoneNumber: z.string().max(32).nullish(),
  address: z.string().max(200).nullish(),
  zipCode: z.string().max(20).nullish(),
  city: z.string().max(100).nullish(),
});
export type ContactRelatedData = z.infer<typeof contactRelatedData>;
/** GET related data of the contact step (savedApplicationContract.ts has every step's). */
export const contactRelatedDataResponse = z.object({ data: z.object({ stepRelatedData: contactRelatedData }) });

// --- customer creation ------------------------------------------------------------
export const createCustomerRequest = z.object({ prospect_id: z.string().min(1) });
export const createCustomerResponse = z.object({
  data: z.object({ message: z.string().optional() }).passthrough().optional(),
});

export const creationRequest = z.object({
  request_type: z.string(),
  status: z.string(),
});
export const creationStatusResponse = z.object({
  done: z.boolean(),
  creation_process_status: z.string(),
  nightly_downtime: z.boolean(),
  creation_requests: z.array(creationRequest),
  status: z.string().optional(),
});
export type CreationStatus = z.infer<typeof creationStatusResponse>;
export const creationStatusQuery = z.object({ prospect_id: z.string().min(1) });

// --- after customer creation (identification-routing-creation §4 "Customer creation", §7) ---------------------------
/**
 * A login hand-off code (our reading): one-time, short-lived, bound to the person whose session asked for it. It is a
 * credential while it lives: kept sealed server-side, never logged, never in job data or creation events.
 */
export const loginHandoffCode = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/);
/**
 * POST nnx-session login (no body; our reading of its answer): the login session for the bank's site is started and
 * handed over by a code the bank's site redeems once (loginHandoffRedeem) within `expiresInSeconds`.
 */
export const nnxSessionLoginResponse = z.object({
  handoffCode: loginHandoffCode,
  expiresInSeconds: z.number().int().positive().max(3600),
});
export type LoginHandoff = z.infer<typeof nnxSessionLoginResponse>;
/**
 * POST handoff redeem, the bank's site to the brokerage: the code, once. The caller is the bank's site, authenticated as
 * a client of its own (`Authorization: Bearer <its client token>`; our reading), never a browser.
 */
export const loginHandoffRedeemRequest = z.object({ code: loginHandoffCode });
/**
 * Its answer: the customer now logged in on the bank's site. An unknown, used or expired code answers 400 with
 * code LOGIN_HANDOFF_REFUSED (the reason in data.message), and the visitor stays logged out.
 */
export const loginHandoffRedeemResponse = z.object({
  customer: z.object({ nationalId: z.string().min(1), givenName: z.string().min(1), surname: z.string().min(1) }),
});
export type LoginHandoffRedeemed = z.infer<typeof loginHandoffRedeemResponse>;
export const LOGIN_HANDOFF_REFUSED = 'LOGIN_HANDOFF_REFUSED';
/**
 * POST affiliate conversion (our reading: the spec names the call, not its shape): the created customer's prospect, sent as
 * the person with an Idempotency-Key, so that a retry converts once; the answer's lead number is kept with the application
 * and never shown to the person.
 */
export const affiliateConversionRequest = z.object({ prospectId: z.string().min(1).max(100) });
export type AffiliateConversionRequest = z.infer<typeof affiliateConversionRequest>;
/** A lead number as the brokerage hands it out: `LN-` and digits (our reading). */
export const leadNumber = z.string().regex(/^LN-\d{1,20}$/);
export const affiliateConversionResponse = z.object({ leadNumber });
export type AffiliateConversionResponse = z.infer<typeof affiliateConversionResponse>;

/** Generic error body of the brokerage API: data.message, optional field list. */
export const brokerageErrorBody = z.object({
  data: z
    .object({ message: z.string().optional(), fields: z.array(z.string()).optional() })
    .passthrough()
    .optional(),
  code: z.string().optional(),
});
