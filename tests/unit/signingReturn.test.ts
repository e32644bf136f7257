// Where signing returns to (shared/signingReturn.ts; customer-information §2.1, §4.8), in a browser and in the
// native app's webview; each URL passes the signature request's contract.
import { describe, expect, it } from 'vitest';
import { signingReturnUrls } from '../../shared/signingReturn.ts';
import { signatureRequest } from '../../shared/contracts/brokerage.ts';

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
