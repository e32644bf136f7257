import { describe, expect, it } from 'vitest';
import { errorCodeMessage, failedHintMessage, pendingHintMessage, type BankidMode } from '../../shared/bankidHints.ts';
import { failedHintCodes, pendingHintCodes } from '../../shared/contracts/bankidContract.ts';
import en from '../../locales/en.json' with { type: 'json' };

const catalogue = en as Record<string, string>;

// Every hint code of the RP API v6.0, in both modes: the RFA message (BankID's recommended user messages).
const pendingTable: [string, BankidMode, string][] = [
  ['outstandingTransaction', 'QR', 'RFA_1'],
  ['outstandingTransaction', 'SAME_DEVICE', 'RFA_13'],
  ['noClient', 'QR', 'RFA_1'],
  ['noClient', 'SAME_DEVICE', 'RFA_1'],
  ['started', 'QR', 'RFA_14'],
  ['started', 'SAME_DEVICE', 'RFA_15'],
  ['userMrtd', 'QR', 'RFA_21'],
  ['userMrtd', 'SAME_DEVICE', 'RFA_21'],
  ['userCallConfirm', 'QR', 'RFA_21'],
  ['userCallConfirm', 'SAME_DEVICE', 'RFA_21'],
  ['userSign', 'QR', 'RFA_9'],
  ['userSign', 'SAME_DEVICE', 'RFA_9'],
  ['somethingNewFromBankid', 'QR', 'RFA_21'],
  ['somethingNewFromBankid', 'SAME_DEVICE', 'RFA_21'],
];

const failedTable: [string, BankidMode, string, boolean][] = [
  ['expiredTransaction', 'QR', 'RFA_8', true],
  ['expiredTransaction', 'SAME_DEVICE', 'RFA_8', true],
  ['certificateErr', 'QR', 'RFA_16', true],
  ['certificateErr', 'SAME_DEVICE', 'RFA_16', true],
  ['userCancel', 'QR', 'RFA_6', true],
  ['userCancel', 'SAME_DEVICE', 'RFA_6', true],
  ['cancelled', 'QR', 'RFA_3', true],
  ['cancelled', 'SAME_DEVICE', 'RFA_3', true],
  ['startFailed', 'QR', 'RFA_17_QR', true],
  ['startFailed', 'SAME_DEVICE', 'RFA_17', true],
  ['userDeclinedCall', 'QR', 'RFA_6', true],
  ['userDeclinedCall', 'SAME_DEVICE', 'RFA_6', true],
  ['notSupportedByUserApp', 'QR', 'RFA_2', true],
  ['notSupportedByUserApp', 'SAME_DEVICE', 'RFA_2', true],
  ['transactionRiskBlocked', 'QR', 'RFA_22', true],
  ['transactionRiskBlocked', 'SAME_DEVICE', 'RFA_22', true],
  // An unknown hint: no retry, "Something went wrong. Contact customer support."
  ['somethingNewFromBankid', 'QR', 'UNKNOWN_HINT', false],
  ['somethingNewFromBankid', 'SAME_DEVICE', 'UNKNOWN_HINT', false],
];

describe('BankID hint messages (identification-routing-creation §8)', () => {
  it.each(pendingTable)('pending %s in %s mode → %s', (hint, mode, key) => {
    expect(pendingHintMessage(hint, mode)).toEqual({ key, retry: false });
  });

  it.each(failedTable)('failed %s in %s mode → %s (retry %s)', (hint, mode, key, retry) => {
    expect(failedHintMessage(hint, mode)).toEqual({ key, retry });
  });

  it('covers every hint code of the contract in both modes', () => {
    for (const hint of pendingHintCodes) expect(pendingTable.filter(([h]) => h === hint)).toHaveLength(2);
    for (const hint of failedHintCodes) expect(failedTable.filter(([h]) => h === hint)).toHaveLength(2);
  });

  it.each([
    ['alreadyInProgress', 'RFA_4'],
    ['internalError', 'RFA_5'],
    ['maintenance', 'RFA_5'],
    ['requestTimeout', 'RFA_5'],
    ['invalidParameters', 'RFA_22'],
    [undefined, 'RFA_22'],
  ])('RP error %s → %s with Try again', (code, key) => {
    expect(errorCodeMessage(code)).toEqual({ key, retry: true });
  });

  it("uses BankID's official English texts", () => {
    expect(catalogue['bankid.RFA_1']).toBe('Start your BankID app.');
    expect(catalogue['bankid.RFA_3']).toBe('Action cancelled. Please try again.');
    expect(catalogue['bankid.RFA_8']).toBe(
      "The BankID app is not responding. Please check that it is started and that you have internet access. If you don't have a valid BankID you can get one from your bank. Try again.",
    );
    expect(catalogue['bankid.RFA_22']).toBe('Unknown error. Please try again.');
    expect(catalogue['bankid.UNKNOWN_HINT']).toBe('Something went wrong. Contact customer support.');
    const keys = [...pendingTable, ...failedTable].map((row) => `bankid.${row[2]}`);
    for (const key of [...keys, 'bankid.RFA_4', 'bankid.RFA_5', 'bankid.IP_MISMATCH']) expect(catalogue[key], key).toBeTruthy();
  });
});
