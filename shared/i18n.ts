// ICU message formatting (FormatJS intl-messageformat). Pure: callers hand in the loaded catalogues.
import { IntlMessageFormat } from 'intl-messageformat';
import { cachedBy } from './cachedBy.ts';

export const supportedLocales = ['en', 'sv-SE', 'sv-FI', 'nb-NO', 'da-DK', 'fi-FI'] as const;
export type Locale = (typeof supportedLocales)[number];
export const defaultLocale: Locale = 'en';

/** Each market's own language, what a visitor sees unless they chose another one (lang, locale cookie). */
export const marketLocales = { SE: 'sv-SE', NO: 'nb-NO', DK: 'da-DK', FI: 'fi-FI' } as const satisfies Record<string, Locale>;

/** DEFAULT_LOCALE is `market` (the market's language) or one locale for every market. */
export function initialLocale(setting: 'market' | Locale, country: keyof typeof marketLocales): Locale {
  return setting === 'market' ? marketLocales[country] : setting;
}

export type Catalogue = Record<string, string>;
export type Translate = (key: string, values?: Record<string, string | number>) => string;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (supportedLocales as readonly string[]).includes(value);
}

/** Maps a short `lang` value (sv, fi, nb, no, da, en) to a locale, using the active country for sv. */
export function localeFromLang(lang: string, country: 'SE' | 'NO' | 'DK' | 'FI'): Locale | undefined {
  const l = lang.toLowerCase();
  if (isLocale(lang)) return lang;
  if (l === 'en') return 'en';
  if (l === 'sv') return country === 'FI' ? 'sv-FI' : 'sv-SE';
  if (l === 'fi') return 'fi-FI';
  if (l === 'nb' || l === 'no') return 'nb-NO';
  if (l === 'da') return 'da-DK';
  return undefined;
}

export function createTranslator(locale: Locale, catalogue: Catalogue, fallback: Catalogue): Translate {
  const formats = new Map<string, IntlMessageFormat>();
  // A message asked for without values reads the same every time: formatted once (a page asks for dozens).
  const plain = new Map<string, string>();
  const format = (key: string, values?: Parameters<Translate>[1]): string => {
    const source = catalogue[key] ?? fallback[key];
    if (source === undefined) throw new Error(`Missing message ${key}`);
    return String(cachedBy(formats, key, () => new IntlMessageFormat(source, locale)).format(values));
  };
  return (key, values) => (values === undefined ? cachedBy(plain, key, () => format(key)) : format(key, values));
}
