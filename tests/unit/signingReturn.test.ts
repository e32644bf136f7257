// Where signing returns to (shared/signingReturn.ts; customer-information §2.1, §4.8), in a browser and in the
// native app's webview; each URL passes the signature request's contract.
import { describe, expect, it } from 'vitest';
import { reopenableSigningUrl, signingReturnUrls } from '../../shared/signingReturn.ts';
import { signatureRequest } from '../../shared/contracts/brokerageContract.ts';

const base = { publicUrl: 'https://onboarding.example.se', prospectId: 'p/1', nativeAppScheme: 'nordicbank' };

describe('signingReturnUrls', () => {
  it.each([
    {
      webview: false,
      expected: {
        complete_url: 'https://onboarding.example.se/onboarding/customer-creation/p%2F1',
        cancel_url: 'https://onboarding.example.se/onboarding/cancel',
        postpone_url: 'https://onboarding.example.se/onboarding/customer-information/p%2F1',
      },
    },
    {
      webview: true,
      expected: {
        complete_url: 'nordicbank://onboarding/customer-creation/p%2F1',
        cancel_url: 'nordicbank://onboarding/cancel',
        postpone_url: 'https://onboarding.example.se/onboarding/customer-information/p%2F1',
      },
    },
  ])('webview=$webview', ({ webview, expected }) => {
    const urls = signingReturnUrls({ ...base, webview });
    expect(urls).toEqual(expected);
    expect(signatureRequest.safeParse({ ...urls, lang: 'sv' }).success).toBe(true);
  });
});

describe('signingReturnUrls with the order key', () => {
  it('cancel and postpone return through our signing returns naming the order; in the app the cancel deep link names it too', () => {
    const urls = signingReturnUrls({ ...base, webview: false, orderKey: 'k 1' });
    expect(urls).toEqual({
      complete_url: 'https://onboarding.example.se/onboarding/customer-creation/p%2F1',
      cancel_url: 'https://onboarding.example.se/onboarding/customer-information/p%2F1/signing-cancelled?order=k%201',
      postpone_url: 'https://onboarding.example.se/onboarding/customer-information/p%2F1/signing-postponed?order=k%201',
    });
    expect(signatureRequest.safeParse({ ...urls, lang: 'sv' }).success).toBe(true);
    // The app opens the deep link's path on our origin in its webview: the order it names ends, so Sign cannot re-open it.
    const inApp = signingReturnUrls({ ...base, webview: true, orderKey: 'k 1' });
    expect(inApp.cancel_url).toBe('nordicbank://onboarding/customer-information/p%2F1/signing-cancelled?order=k%201');
    expect(inApp.complete_url).toBe('nordicbank://onboarding/customer-creation/p%2F1');
    expect(signatureRequest.safeParse({ ...inApp, lang: 'sv' }).success).toBe(true);
  });
});

describe('reopenableSigningUrl', () => {
  const LIFETIME = 300_000;
  const url = 'https://sign.example/o/1';
  it.each([
    { why: 'an open order within its lifetime', kept: { signingUrl: url, handedOutAt: 1_000 }, now: 1_000 + LIFETIME - 1, expected: url },
    { why: 'an order at its lifetime', kept: { signingUrl: url, handedOutAt: 1_000 }, now: 1_000 + LIFETIME, expected: undefined },
    { why: 'a cancelled order', kept: { signingUrl: url, handedOutAt: 1_000, ended: 'cancelled' as const }, now: 1_001, expected: undefined },
    { why: 'a postponed order', kept: { signingUrl: url, handedOutAt: 1_000, ended: 'postponed' as const }, now: 1_001, expected: undefined },
    { why: 'an order of unknown age (kept before orders were timed)', kept: { signingUrl: url }, now: 1_001, expected: undefined },
    { why: 'no order', kept: undefined, now: 1_001, expected: undefined },
  ])('$why', ({ kept, now, expected }) => {
    expect(reopenableSigningUrl(kept, now, LIFETIME)).toBe(expected);
  });
});
