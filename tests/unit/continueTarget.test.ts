// Where Continue leads after customer creation (identification-routing-creation §4 "Customer creation": "the continue
// button goes to the given redirect URL or the overview page for outcomes that allow log-in, otherwise to /";
// "Redirect sanitising"), per market, and the per-market links it picks from (server/config.ts). The targets are the
// bank site's (BANK_SITE_URL): a relative clientUrl or configured path on the onboarding's own origin is no route there
// and only bounced to the start page.
import { describe, expect, it } from 'vitest';
import { continueTarget, type ContinueTargets } from '../../server/stages/customerCreation/creationPage.tsx';
import { loadConfig, marketLinkDefaults } from '../../server/config.ts';
import { newJourney, type Journey } from '../../server/journey.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import type { CreationOutcome } from '../../shared/creationOutcome.ts';

const markets = ['SE', 'NO', 'DK', 'FI'] as const;
const perMarket = (what: string) =>
  Object.fromEntries(markets.map((m) => [m, `https://${m.toLowerCase()}.bank.example/${what}`])) as Record<CountryCode, string>;
const targets: ContinueTargets = {
  successUrls: perMarket('welcome'),
  overviewUrls: perMarket('overview'),
  getStartedUrls: perMarket('get-started'),
  homeUrl: 'https://www.bank.example/',
  bankSiteOrigin: 'https://www.bank.example',
};

function journey(country: CountryCode, options: { clientUrl?: string; webview?: boolean } = {}): Journey {
  return { ...newJourney(country), webview: options.webview ?? false, queryParams: options.clientUrl === undefined ? {} : { clientUrl: options.clientUrl } };
}

const logInOutcomes: CreationOutcome[] = ['done', 'customerExists', 'accountLimit'];

describe('Continue for an outcome that allows log-in', () => {
  it.each(markets)('%s: without clientUrl, done to the success URL and the others to the overview of the market', (country) => {
    expect(continueTarget('done', journey(country), targets)).toEqual({ url: targets.successUrls[country] });
    for (const outcome of ['customerExists', 'accountLimit'] as const) {
      expect(continueTarget(outcome, journey(country), targets)).toEqual({ url: targets.overviewUrls[country] });
    }
  });

  it.each(markets)('%s: the clientUrl the entry gave, as a path of the bank’s site', (country) => {
    for (const outcome of logInOutcomes) {
      expect(continueTarget(outcome, journey(country, { clientUrl: '/sv/mina-sidor?x=1#top' }), targets)).toEqual({
        url: 'https://www.bank.example/sv/mina-sidor?x=1#top',
      });
      expect(continueTarget(outcome, journey(country, { clientUrl: '/a/../b' }), targets)).toEqual({ url: 'https://www.bank.example/b' });
    }
  });

  it.each(markets)('%s: a clientUrl that is not a path of ours leads to the market get-started page, with the reason', (country) => {
    for (const clientUrl of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '',
    ]) {
      const target = continueTarget('done', journey(country, { clientUrl }), targets);
      expect(target.url).toBe(targets.getStartedUrls[country]);
      expect(target.rejected).toEqual(expect.any(String));
    }
  });

  it("in the native app's webview the login-in-app route, whatever clientUrl says", () => {
    for (const outcome of logInOutcomes) {
      expect(continueTarget(outcome, journey('NO', { webview: true, clientUrl: 'https://evil.example' }), targets)).toEqual({
        url: '/onboarding/login-in-app',
      });
    }
  });
});

describe('Continue for the other outcomes ignores clientUrl', () => {
  it('an error and a paused creation (no log-in) go to / (the bank’s home), nightly downtime to its page', () => {
    const given = journey('DK', { clientUrl: '/onboarding/case-status' });
    expect(continueTarget('creationPaused', given, targets)).toEqual({ url: targets.homeUrl });
    expect(continueTarget('unspecifiedApiResponseError', given, targets)).toEqual({ url: targets.homeUrl });
    expect(continueTarget('maxPollingTries', given, targets)).toEqual({ url: targets.homeUrl });
    expect(continueTarget('nightly_downtime', given, targets)).toEqual({ url: '/onboarding/nightly-downtime-status?justCompletedSignup=true' });
  });
});

describe('per-market links (server/config.ts)', () => {
  it('defaults: no link leads back into the journey; FAQ and get-started are each market’s own outside page; the overview is the success URL', () => {
    const c = loadConfig({});
    for (const m of markets) {
      for (const value of [c.faqUrls[m], c.getStartedUrls[m], c.overviewUrls[m]]) expect(value).toMatch(/^https?:\/\//);
      expect(c.faqUrls[m]).toBe(marketLinkDefaults.FAQ_URL[m]);
      expect(c.getStartedUrls[m]).toBe(marketLinkDefaults.GET_STARTED_URL[m]);
      expect(c.overviewUrls[m]).toBe(c.successUrls[m]);
    }
    expect(new Set(Object.values(c.getStartedUrls)).size).toBe(4);
    expect(new Set(Object.values(c.faqUrls)).size).toBe(4);
  });

  it('<NAME>_<market> over <NAME> over the default, for the overview, FAQ and get-started page', () => {
    const c = loadConfig({
      OVERVIEW_URL: 'https://bank.example/overview',
      OVERVIEW_URL_FI: 'https://fi.bank.example/yleiskatsaus',
      GET_STARTED_URL_NO: 'https://no.bank.example/kom-i-gang',
      FAQ_URL: '/help',
      FAQ_URL_DK: 'https://dk.bank.example/faq',
      SUCCESS_URL_SE: 'https://se.bank.example/welcome',
    });
    expect(c.overviewUrls).toEqual({
      SE: 'https://bank.example/overview',
      NO: 'https://bank.example/overview',
      DK: 'https://bank.example/overview',
      FI: 'https://fi.bank.example/yleiskatsaus',
    });
    expect(c.getStartedUrls).toEqual({ ...marketLinkDefaults.GET_STARTED_URL, NO: 'https://no.bank.example/kom-i-gang' });
    // A path is a page of the bank's site (BANK_SITE_URL, here its default).
    const site = new URL(loadConfig({}).BANK_SITE_URL).origin;
    expect(c.faqUrls).toEqual({ SE: `${site}/help`, NO: `${site}/help`, DK: 'https://dk.bank.example/faq', FI: `${site}/help` });
    // Without OVERVIEW_URL the overview follows the market's success URL.
    expect(loadConfig({ SUCCESS_URL_SE: 'https://se.bank.example/welcome' }).overviewUrls.SE).toBe('https://se.bank.example/welcome');
  });

  it('every link given as a path resolves on the bank’s site (BANK_SITE_URL’s origin), never on ours', () => {
    const c = loadConfig({
      PUBLIC_URL: 'https://onboarding.bank.example',
      BANK_SITE_URL: 'https://www.bank.example/sv/',
      HOME_URL: '/',
      SUCCESS_URL: '/valkommen',
      OVERVIEW_URL_SE: '/oversikt',
      FAQ_URL: '/fragor',
      GET_STARTED_URL: '/kom-igang',
      LOGIN_URL: '/login-next',
      PRIVACY_URL: '/integritet',
      DEPOSIT_GUARANTEE_URL: '/insattningsgaranti',
    });
    expect(c.bankSiteOrigin).toBe('https://www.bank.example');
    expect([c.HOME_URL, c.LOGIN_URL, c.PRIVACY_URL, c.DEPOSIT_GUARANTEE_URL]).toEqual([
      'https://www.bank.example/',
      'https://www.bank.example/login-next',
      'https://www.bank.example/integritet',
      'https://www.bank.example/insattningsgaranti',
    ]);
    expect([c.successUrls.SE, c.overviewUrls.SE, c.overviewUrls.NO, c.faqUrls.DK, c.getStartedUrls.FI]).toEqual([
      'https://www.bank.example/valkommen',
      'https://www.bank.example/oversikt',
      'https://www.bank.example/valkommen',
      'https://www.bank.example/fragor',
      'https://www.bank.example/kom-igang',
    ]);
    // An absolute link stays as given.
    expect(loadConfig({ BANK_SITE_URL: 'https://www.bank.example', HOME_URL: 'https://home.example/x' }).HOME_URL).toBe('https://home.example/x');
  });

  it.each([
    ['BANK_SITE_URL', 'ftp://www.bank.example'],
    ['BANK_SITE_URL', '/sv'],
    ['HOME_URL', '//evil.example'],
    ['SUCCESS_URL', 'javascript:alert(1)'],
    ['GET_STARTED_URL_SE', 'javascript:alert(1)'],
    ['GET_STARTED_URL', '//evil.example'],
    ['FAQ_URL', 'faq'],
    ['FAQ_URL_NO', '/\\evil.example'],
    ['OVERVIEW_URL_DK', 'ftp://bank.example/overview'],
    ['ACCOUNT_TYPES_INFO_URL', 'https:// bad'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
