// Loads the locale catalogues once at start-up and picks the request's locale.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createTranslator, defaultLocale, supportedLocales, type Catalogue, type Locale, type Translate } from '../shared/i18n.ts';

const catalogueSchema = z.record(z.string(), z.string());
const localesDir = fileURLToPath(new URL('../locales/', import.meta.url));

export function loadCatalogues(): Record<Locale, Catalogue> {
  return Object.fromEntries(supportedLocales.map((l) => [l, catalogueSchema.parse(JSON.parse(readFileSync(`${localesDir}${l}.json`, 'utf8')))])) as Record<
    Locale,
    Catalogue
  >;
}

export function createI18n(catalogues: Record<Locale, Catalogue>) {
  const translators = new Map<Locale, Translate>();
  for (const l of supportedLocales) translators.set(l, createTranslator(l, catalogues[l], catalogues[defaultLocale]));
  return {
    translator(locale: Locale): Translate {
      return translators.get(locale)!;
    },
  };
}
export type I18n = ReturnType<typeof createI18n>;
