// BankID Relying Party API v6.0 wire contract (https://developers.bankid.com/api-references/auth--sign/auth).
// Used by server/upstream/bankidClient.ts to parse answers and by sandbox/ to parse requests, so both speak the same wire.
import { z } from 'zod';

export const bankidAuthRequest = z.object({
  endUserIp: z.string().min(1),
  returnUrl: z.string().url().optional(),
  returnRisk: z.boolean().optional(),
  requirement: z
    .object({
      pinCode: z.boolean().optional(),
      mrtd: z.boolean().optional(),
      certificatePolicies: z.array(z.string()).optional(),
      personalNumber: z.string().optional(),
    })
    .optional(),
  userVisibleData: z.string().optional(),
  userVisibleDataFormat: z.literal('simpleMarkdownV1').optional(),
});
export type BankidAuthRequest = z.infer<typeof bankidAuthRequest>;

export const bankidAuthResponse = z.object({
  orderRef: z.string().min(1),
  autoStartToken: z.string().min(1),
  qrStartToken: z.string().min(1),
  qrStartSecret: z.string().min(1),
});
export type BankidAuthResponse = z.infer<typeof bankidAuthResponse>;

export const bankidOrderRefRequest = z.object({ orderRef: z.string().min(1) });

/** Hint codes of the RP API. Unknown codes must be tolerated (the spec: unknown hint → no retry). */
export const pendingHintCodes = ['outstandingTransaction', 'noClient', 'started', 'userMrtd', 'userCallConfirm', 'userSign'] as const;
export const failedHintCodes = [
  'expiredTransaction',
  'certificateErr',
  'userCancel',
  'cancelled',
  'startFailed',
  'userDeclinedCall',
  'notSupportedByUserApp',
  'transactionRiskBlocked',
] as const;

export const bankidCompletionData = z.object({
  user: z.object({
    personalNumber: z.string().regex(/^\d{12}$/),
    name: z.string(),
    givenName: z.string(),
    surname: z.string(),
  }),
  device: z.object({ ipAddress: z.string(), uhi: z.string().optional() }),
  bankIdIssueDate: z.string(),
  stepUp: z.object({ mrtd: z.boolean() }).optional(),
  signature: z.string(),
  ocspResponse: z.string(),
  risk: z.string().optional(),
});

export const bankidCollectResponse = z.discriminatedUnion('status', [
  z.object({ orderRef: z.string(), status: z.literal('pending'), hintCode: z.string() }),
  z.object({ orderRef: z.string(), status: z.literal('failed'), hintCode: z.string() }),
  z.object({ orderRef: z.string(), status: z.literal('complete'), completionData: bankidCompletionData }),
]);
export type BankidCollectResponse = z.infer<typeof bankidCollectResponse>;

export const bankidErrorCodes = [
  'alreadyInProgress',
  'invalidParameters',
  'unauthorized',
  'notFound',
  'methodNotAllowed',
  'requestTimeout',
  'unsupportedMediaType',
  'internalError',
  'maintenance',
] as const;
export const bankidErrorBody = z.object({ errorCode: z.string(), details: z.string() });
export type BankidErrorBody = z.infer<typeof bankidErrorBody>;

export const bankidCancelResponse = z.object({}).passthrough();
