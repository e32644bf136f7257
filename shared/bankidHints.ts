// BankID hint codes → the RFA messages (identification-routing-creation §8 "BankID hint messages"), following BankID's
// recommended user messages. Pure: the server turns the key into text with the locale catalogue.
export type BankidMode = 'QR' | 'SAME_DEVICE';

export interface HintMessage {
  /** Message key under `bankid.` in locales/*.json. */
  key: string;
  /** Offer Try again (failed orders only; an unknown hint never retries). */
  retry: boolean;
}

const pending: Record<string, (mode: BankidMode) => string> = {
  outstandingTransaction: (mode) => (mode === 'QR' ? 'RFA_1' : 'RFA_13'),
  noClient: () => 'RFA_1',
  started: (mode) => (mode === 'QR' ? 'RFA_14' : 'RFA_15'),
  userMrtd: () => 'RFA_21',
  userCallConfirm: () => 'RFA_21',
  userSign: () => 'RFA_9',
};

const failed: Record<string, (mode: BankidMode) => string> = {
  expiredTransaction: () => 'RFA_8',
  certificateErr: () => 'RFA_16',
  userCancel: () => 'RFA_6',
  cancelled: () => 'RFA_3',
  startFailed: (mode) => (mode === 'QR' ? 'RFA_17_QR' : 'RFA_17'),
  userDeclinedCall: () => 'RFA_6',
  notSupportedByUserApp: () => 'RFA_2',
  transactionRiskBlocked: () => 'RFA_22',
};

/**
 * The device that completed a same-device order is not the one that started it (completionData.device.ipAddress
 * differs from the browser's address): the identification is refused, and the user may try again.
 */
export const ipMismatchMessage: HintMessage = { key: 'IP_MISMATCH', retry: true };

export function pendingHintMessage(hintCode: string, mode: BankidMode): HintMessage {
  // An unknown pending hint is still "in progress" (RFA_21): BankID may add hints at any time.
  return { key: (pending[hintCode] ?? (() => 'RFA_21'))(mode), retry: false };
}

export function failedHintMessage(hintCode: string, mode: BankidMode): HintMessage {
  const known = failed[hintCode];
  if (!known) return { key: 'UNKNOWN_HINT', retry: false };
  return { key: known(mode), retry: true };
}

/** RP API error codes of a failed auth/collect call. */
export function errorCodeMessage(errorCode: string | undefined): HintMessage {
  if (errorCode === 'alreadyInProgress') return { key: 'RFA_4', retry: true };
  if (errorCode === 'internalError' || errorCode === 'maintenance' || errorCode === 'requestTimeout') return { key: 'RFA_5', retry: true };
  // Polling exceptions and unexpected statuses (identification-routing-creation §8).
  return { key: 'RFA_22', retry: true };
}
