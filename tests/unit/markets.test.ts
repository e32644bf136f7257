// What differs by market (shared/markets.ts): the support number and the FAQ side panel's items.
import { describe, expect, it } from 'vitest';
import { faqItemsFor, forMarket, phoneExamples, type FaqItemKey } from '../../shared/markets.ts';
import { defaultPhonePrefix, validatePhone } from '../../shared/contactInformation.ts';
import { loadConfig } from '../../server/config.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';

describe('FAQ items per market (customer-information §2.3, accounts per §3)', () => {
  const table: [CountryCode, FaqItemKey[]][] = [
    ['SE', ['DEP', 'ISK', 'TAX', 'PEP']],
    ['NO', ['DEP', 'ASK', 'EPK', 'TAX', 'PEP']],
    ['DK', ['DEP', 'DSK', 'TAX', 'PEP']],
    ['FI', ['DEP', 'ESA', 'TAX', 'PEP']],
  ];
  it.each(table)('%s shows %j', (country, items) => {
    expect(faqItemsFor(country)).toEqual(items);
  });
});

describe('support number per market (SUPPORT_PHONE_<market>)', () => {
  it("defaults to each country's own number", () => {
    const phones = loadConfig({}).supportPhones;
    const prefixes: [CountryCode, string][] = [
      ['SE', '+46 '],
      ['NO', '+47 '],
      ['DK', '+45 '],
      ['FI', '+358 '],
    ];
    for (const [country, prefix] of prefixes) expect(forMarket(phones, country).startsWith(prefix), country).toBe(true);
  });

  it('takes one configured number per market', () => {
    const phones = loadConfig({ SUPPORT_PHONE_NO: '+47 21 00 00 01', SUPPORT_PHONE_DK: '+45 33 00 00 02' }).supportPhones;
    expect(forMarket(phones, 'NO')).toBe('+47 21 00 00 01');
    expect(forMarket(phones, 'DK')).toBe('+45 33 00 00 02');
  });

  it.each(['0800 123', '+46', 'call us', '+46 8 000 000 00 ext 5'])('refuses %j with a clear message', (value) => {
    expect(() => loadConfig({ SUPPORT_PHONE_FI: value })).toThrow(/SUPPORT_PHONE_FI: a phone number such as/);
  });
});

describe('phone example per market (the legacy form’s phone hint)', () => {
  it.each(['SE', 'NO', 'DK', 'FI'] as const)('%s: a valid mobile number with the market’s own calling code', (country) => {
    const example = phoneExamples[country];
    expect(example.startsWith(`+${defaultPhonePrefix(country)} `)).toBe(true);
    expect(validatePhone(defaultPhonePrefix(country), example).ok).toBe(true);
  });
});
