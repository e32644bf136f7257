import { describe, expect, it } from 'vitest';
import { initialLocale, localeFromLang } from '../../shared/i18n.ts';

describe('initialLocale: the language before the visitor picks one', () => {
  it.each([
    ['market', 'SE', 'sv-SE'],
    ['market', 'NO', 'nb-NO'],
    ['market', 'DK', 'da-DK'],
    ['market', 'FI', 'fi-FI'],
    ['en', 'DK', 'en'],
    ['sv-FI', 'FI', 'sv-FI'],
  ] as const)('%s on the %s market → %s', (setting, country, locale) => {
    expect(initialLocale(setting, country)).toBe(locale);
  });
});

describe('localeFromLang: the lang query', () => {
  it.each([
    ['sv', 'SE', 'sv-SE'],
    ['sv', 'FI', 'sv-FI'],
    ['fi', 'FI', 'fi-FI'],
    ['no', 'NO', 'nb-NO'],
    ['nb', 'NO', 'nb-NO'],
    ['da', 'DK', 'da-DK'],
    ['EN', 'SE', 'en'],
    ['de', 'SE', undefined],
  ] as const)('lang=%s on the %s market → %s', (lang, country, locale) => {
    expect(localeFromLang(lang, country)).toBe(locale);
  });
});
