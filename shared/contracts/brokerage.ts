// Brokerage API wire contract (paths and field names from the spec, section 7 of both documents).
// server/upstream/brokerage.ts parses every answer with these; sandbox/ parses every request with them.
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
  milestoneStep: (prospectId: string, milestone: Milestone) =>
    `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}/steps/milestone-${milestone}`,
  signatures: (prospectId: string) => `/api/2/prospects/v2/${encodeURIComponent(prospectId)}/signatures`,
  customers: '/api/2/customers',
  creationStatus: '/api/2/customers/creation_status',
  // Added for the sandbox (spec section 7): the older logout and the login-session start after creation.
  logoutLegacy: '/api/2/login',
  nnxSessionLogin: '/api/2/authentication/nnx-session/login',
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

export const systemStatusResponse = z.object({
  creationPaused: z.boolean(),
  feedbackBanner: z.string().nullable(),
});
export type SystemStatus = z.infer<typeof systemStatusResponse>;

export const customerType = z.enum(['PRIVATE', 'CORPORATE', 'MINOR']);
export const becomeCustomerIntentRequest = z.object({ customerType, country: countryCode });
export const blockedBody = z.object({ shouldBlockBecomeCustomer: z.literal(true) });

export const validationStepRequest = z.object({ country: countryCode });
export const okResponse = z.object({}).passthrough();

// --- prospects --------------------------------------------------------------------
export const createProspectRequest = z.object({ country: countryCode, customerType });
export const createProspectResponse = z.object({ prospect_id: z.string().min(1) });

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

export const accountTypesWithCountry = [
  'ISK_SE',
  'DEP_SE',
  'ASK_NO',
  'DEP_NO',
  'EPK_NO',
  'ESA_FI',
  'DEP_FI',
  'DEP_DK',
  'DSK_DK',
] as const;
export const accountTypeWithCountry = z.enum(accountTypesWithCountry);
export type AccountTypeWithCountry = z.infer<typeof accountTypeWithCountry>;

export const accountPickerStepRequest = z.object({ accountTypesWithCountry: z.array(accountTypeWithCountry).min(1) });

export const signatureRequest = z.object({
  cancel_url: z.string().url(),
  complete_url: z.string().url(),
  postpone_url: z.string().url(),
  lang: z.string().min(2),
});
export const signatureResponse = z.object({ data: z.object({ url: z.string().url() }) });

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

/** Generic error body of the brokerage API: data.message, optional field list. */
export const brokerageErrorBody = z.object({
  data: z
    .object({ message: z.string().optional(), fields: z.array(z.string()).optional() })
    .passthrough()
    .optional(),
  code: z.string().optional(),
});
