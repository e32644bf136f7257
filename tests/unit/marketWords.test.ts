// Words a native speaker stopped at: the possessive agrees with the account's gender, Finnish names
// the market in the inessive/genitive instead of "vain maassa Suomi", and each market's FAQ uses the account's own term.
import { describe, expect, it } from 'vitest';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { countryName } from '../../shared/countries.ts';
import { supportedLocales } from '../../shared/i18n.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';

const i18n = createI18n(loadCatalogues());
const t = (locale: Parameters<typeof i18n.translator>[0]) => i18n.translator(locale);

describe('account name label: the possessive agrees with the account', () => {
  const table: [Parameters<typeof i18n.translator>[0], string, string][] = [
    ['sv-SE', 'DEP', 'Namn på din Aktie- och fonddepå'],
    ['sv-SE', 'ISK', 'Namn på ditt Investeringssparkonto'],
    ['sv-FI', 'DEP', 'Namn på din Aktie- och fonddepå'],
    ['sv-FI', 'ESA', 'Namn på ditt Aktiesparkonto'],
    ['da-DK', 'DEP', 'Navn på dit Aktie- og fondsdepot'],
    ['da-DK', 'DSK', 'Navn på din Aktiesparekonto'],
    ['nb-NO', 'DEP', 'Navn på din Aksje- og fondskonto'],
    ['nb-NO', 'ASK', 'Navn på din Aksjesparekonto'],
    ['en', 'DEP', 'Name of your Stock and Fund Account'],
    ['fi-FI', 'ESA', 'Tilin Osakesäästötili nimi'],
  ];
  it.each(table)('%s %s: %s', (locale, code, expected) => {
    const tr = t(locale);
    expect(tr('accountAlias.label', { account: tr(`account.${code}`), code })).toBe(expected);
  });
});

describe('Finnish names the market as Finnish does', () => {
  const markets: [CountryCode, string, string][] = [
    ['SE', 'Ruotsissa', 'Ruotsin'],
    ['NO', 'Norjassa', 'Norjan'],
    ['DK', 'Tanskassa', 'Tanskan'],
    ['FI', 'Suomessa', 'Suomen'],
  ];
  it.each(markets)('%s: vain %s, %s ulkopuolella', (code, inessive, genitive) => {
    const tr = t('fi-FI');
    const values = { country: countryName(code, 'fi-FI'), countryCode: code };
    expect(tr('taxInformation.liability.inOffice', values)).toBe(`Olen verovelvollinen vain ${inessive}`);
    expect(tr('taxInformation.fatca.attest', values)).toBe(`Olen verovelvollinen vain ${inessive}`);
    expect(tr('taxInformation.fatca.attestText', values)).toContain(`verovelvollinen vain ${inessive} ja asut siellä`);
    expect(tr('taxInformation.fatca.text', values)).toContain(`asut ${genitive} ulkopuolella`);
    for (const key of ['taxInformation.liability.inOffice', 'taxInformation.fatca.attestText', 'taxInformation.fatca.text']) {
      expect(tr(key, values)).not.toContain('maassa');
      expect(tr(key, values)).not.toContain('maan ');
    }
  });

  it.each(supportedLocales)('%s still names each market in the liability answer', (locale) => {
    for (const code of ['SE', 'NO', 'DK', 'FI'] as const) {
      const text = t(locale)('taxInformation.liability.inOffice', { country: countryName(code, locale), countryCode: code });
      expect(text.length).toBeGreaterThan(10);
      expect(text).not.toContain('{');
    }
  });
});

describe("each market's FAQ names the account as the account picker does", () => {
  it('Danish: fondsdepot, as the account is called', () => {
    const tr = t('da-DK');
    expect(tr('account.DEP').toLowerCase()).toContain('fondsdepot');
    expect(tr('faq.DEP.question')).toContain(tr('account.DEP').toLowerCase());
  });
  it('Finnish: the depot is the osake- ja rahastotili', () => {
    const tr = t('fi-FI');
    expect(tr('faq.DEP.question')).toContain(tr('account.DEP').toLowerCase());
  });
});

describe('the account texts give the figures of customer-information §9', () => {
  const percent = (value: number) => new RegExp(`\\b${value}(?: |\\u00a0)?%`);
  it.each(supportedLocales)('%s: the depot is taxed 30 %% on profit and dividends; the pension cuts shares from 100 %% at 55', (locale) => {
    const tr = t(locale);
    expect(tr('faq.DEP.answer')).toMatch(percent(30));
    expect(tr('account.DEP.text')).toMatch(percent(30));
    expect(tr('faq.EPK.answer')).toMatch(percent(100));
    expect(tr('faq.EPK.answer')).toMatch(/\b55\b/);
    expect(tr('faq.EPK.answer')).toMatch(/\b800\b.*\b1000\b/);
  });
});
