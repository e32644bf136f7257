// How Continue combines the login's hand-off with the final target (server/stages/customerCreation/loginHandoff.ts): the
// bank site's hand-off address with the code and the target as a return path on that site; a target elsewhere gets no
// hand-off. BANK_SITE_URL must be https but on loopback (the address carries a login code).
import { describe, expect, it } from 'vitest';
import { bankSiteHandoffUrl, handoffAddress, returnPathOnBankSite } from '../../server/stages/customerCreation/loginHandoff.ts';
import { loadConfig } from '../../server/config.ts';

const CODE = 'A'.repeat(43);
const HANDOFF = 'https://www.bank.example/login/handoff';

describe('the hand-off address', () => {
  it('carries the code and the target as a path on the bank site', () => {
    const address = new URL(handoffAddress('https://www.bank.example/se/welcome?x=1#top', CODE, HANDOFF)!);
    expect(`${address.origin}${address.pathname}`).toBe(HANDOFF);
    expect(address.searchParams.get('code')).toBe(CODE);
    expect(address.searchParams.get('returnTo')).toBe('/se/welcome?x=1#top');
    // A sanitised clientUrl is a path: it belongs to the bank's site (identification-routing-creation §4 "Redirect sanitising").
    expect(new URL(handoffAddress('/konto/oversikt', CODE, HANDOFF)!).searchParams.get('returnTo')).toBe('/konto/oversikt');
  });

  it('is none for a target on another origin, or one that is no path of one slash', () => {
    for (const target of ['https://evil.example/se', 'http://www.bank.example/se', '//www.bank.example/se', '/\\evil.example', 'javascript:alert(1)']) {
      expect(returnPathOnBankSite(target, 'https://www.bank.example'), target).toBeNull();
      expect(handoffAddress(target, CODE, HANDOFF), target).toBeNull();
    }
  });

  it('is BANK_SITE_HANDOFF_PATH on BANK_SITE_URL’s origin, /login/handoff by default', () => {
    expect(bankSiteHandoffUrl(loadConfig({}))).toBe('http://127.0.0.1:3001/login/handoff');
    expect(bankSiteHandoffUrl(loadConfig({ BANK_SITE_URL: 'https://www.bank.example/', BANK_SITE_HANDOFF_PATH: '/sso/in' }))).toBe(
      'https://www.bank.example/sso/in',
    );
  });

  it('refuses a plain-http bank site off loopback, and a hand-off path that is not one', () => {
    expect(() => loadConfig({ BANK_SITE_URL: 'http://www.bank.example' })).toThrow(/BANK_SITE_URL must be the bank site's https address/);
    expect(() => loadConfig({ BANK_SITE_HANDOFF_PATH: '//evil.example' })).toThrow(/BANK_SITE_HANDOFF_PATH/);
  });
});
