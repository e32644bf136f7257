// One way per locale to write ranges and the opening time (shared/localeFormats.ts): ranges of amounts and of counts
// with the same en dash in every locale (Danish CLDR's hyphen replaced), on the legacy form and in the brokerage
// stand-in's questionnaire alike; the opening hour as the creation screen and the downtime page both write it.
import { describe, expect, it } from 'vitest';
import { formatClockTime, formatRange, formatTime } from '../../shared/localeFormats.ts';
import { supportedLocales } from '../../shared/i18n.ts';
import { accessOpening } from '../../shared/bankingDays.ts';
import { OPENING_HOUR } from '../../shared/markets.ts';
import { answerLabel } from '../../server/stages/customerInformation/steps/legacyFormPresenter.ts';
import { pageOf } from '../../sandbox/kyc.ts';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatRange', () => {
  it.each([
    ['da-DK', 0, 15_000, 'DKK', '0–15.000 kr.'],
    ['da-DK', 0, 10, null, '0–10'],
    ['sv-SE', 0, 15_000, 'SEK', '0–15 000 kr'],
    ['nb-NO', 2_000, 5_000, 'NOK', '2 000–5 000 kr'],
    ['fi-FI', 0, 2_000, 'EUR', '0–2 000 €'],
    ['en', 1_000, 10_000, 'EUR', '€1,000 – €10,000'],
  ] as const)('%s %d to %d %s: %s', (locale, from, to, currency, expected) => {
    expect(nbsp(formatRange(locale, from, to, currency))).toBe(expected);
  });

  it.each(supportedLocales)('%s: amounts and counts share the en dash, never a hyphen', (locale) => {
    for (const range of [formatRange(locale, 0, 15_000, 'DKK'), formatRange(locale, 0, 10)]) {
      expect(range).toContain('–');
      expect(range).not.toMatch(/\d-\d/);
    }
  });
});

describe('bands as shown', () => {
  const t = (key: string, values?: Record<string, string | number>) => `${key} ${JSON.stringify(values)}`;
  it('the legacy form writes a Danish money band and a count band with the en dash', () => {
    const da = { t, market: 'DK', locale: 'da-DK' } as const;
    expect(nbsp(answerLabel(da, 'monthly_income', 'monthly_income_0_15000_dkk'))).toBe('0–15.000 kr.');
    expect(answerLabel(da, 'deposit_count', 'deposit_count_0_10')).toBe('0–10');
  });

  it('the brokerage stand-in writes its Danish money bands like its count bands', () => {
    const options = pageOf([87, 89], false, 'da-DK', 'DK').questions.flatMap((q) => q.options.map((o) => nbsp(o.text)));
    const ranges = options.filter((o) => /\d/.test(o) && !/^Mere|^Flere/.test(o));
    expect(ranges.length).toBeGreaterThan(3);
    for (const range of ranges) expect(range, range).toMatch(/^\d[\d.]*–\d[\d.]*( kr\.)?$/);
  });
});

describe('the opening time', () => {
  it.each(supportedLocales)('%s: the creation screen’s hour reads as the downtime page’s time in every market', (locale) => {
    for (const country of ['SE', 'NO', 'DK', 'FI'] as const) {
      const opening = accessOpening(new Date('2026-11-24T01:30:00Z'), country);
      expect(formatClockTime(locale, OPENING_HOUR)).toBe(formatTime(locale, opening.at, opening.timeZone));
    }
  });

  it('Swedish writes 06:00 on both, Danish 06.00, Finnish 6.00', () => {
    expect([formatClockTime('sv-SE', 6), formatClockTime('da-DK', 6), formatClockTime('fi-FI', 6)]).toEqual(['06:00', '06.00', '6.00']);
  });
});
