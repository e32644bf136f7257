// The translated catalogues against locales/en.json: same keys, valid ICU messages with the same arguments,
// no untranslated copies of the English text, and every message formats with sample values.
import { describe, expect, it } from 'vitest';
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { loadCatalogues } from '../../server/catalogues.ts';
import { supportedLocales, type Catalogue, type Locale } from '../../shared/i18n.ts';

const catalogues = loadCatalogues();
const en = catalogues.en;
const translated = supportedLocales.filter((l): l is Exclude<Locale, 'en'> => l !== 'en');

/**
 * Keys whose text may equal the English one (brand names, phone numbers, codes). Anything else that
 * equals English is an untranslated placeholder.
 */
const sameAsEnglishAllowed: ReadonlySet<string> = new Set([
  // "Student" is the word in Swedish, Norwegian and Danish too.
  'legacy.kyc.answer.student',
  // eID marks on the broker identification page.
  'oidc.DK.logo', // MitID
  'oidc.NO.logo', // BankID
  'oidc.FI.logo', // Bank ID (kept in nb-NO and da-DK; fi-FI and Swedish name the Finnish bank codes)
  // N/A hides the selling point (shared/shell.ts visibleUsps).
  'shell.usp.6',
  'shell.usp.7',
  'shell.usp.8',
  'shell.usp.9',
  // "Finland +358": the country's name is the same in Swedish, Norwegian and Danish.
  'contactInformation.prefix.FI',
  // The status page's "Send" button: the same word in Norwegian and Danish.
  'caseStatus.form.send',
]);

type ArgKind = 'argument' | 'number' | 'date' | 'time' | 'select' | 'plural' | 'selectordinal' | 'tag';

interface ArgUse {
  kind: ArgKind;
  /** select: the option keys; plural: the category and =N keys. */
  options?: string[];
}

/** Every argument a message uses, by name, walking into select/plural options and tags. */
function argumentsOf(ast: MessageFormatElement[], into = new Map<string, ArgUse[]>()): Map<string, ArgUse[]> {
  const add = (name: string, use: ArgUse) => into.set(name, [...(into.get(name) ?? []), use]);
  for (const el of ast) {
    switch (el.type) {
      case TYPE.literal:
      case TYPE.pound:
        break;
      case TYPE.argument:
        add(el.value, { kind: 'argument' });
        break;
      case TYPE.number:
        add(el.value, { kind: 'number' });
        break;
      case TYPE.date:
        add(el.value, { kind: 'date' });
        break;
      case TYPE.time:
        add(el.value, { kind: 'time' });
        break;
      case TYPE.tag:
        add(el.value, { kind: 'tag' });
        argumentsOf(el.children, into);
        break;
      case TYPE.select:
        add(el.value, { kind: 'select', options: Object.keys(el.options).sort() });
        for (const option of Object.values(el.options)) argumentsOf(option.value, into);
        break;
      case TYPE.plural:
        add(el.value, { kind: el.pluralType === 'ordinal' ? 'selectordinal' : 'plural', options: Object.keys(el.options).sort() });
        for (const option of Object.values(el.options)) argumentsOf(option.value, into);
        break;
    }
  }
  return into;
}

function astOf(message: string, locale: string): MessageFormatElement[] {
  return new IntlMessageFormat(message, locale).getAst();
}

/** Problems with a translation's arguments compared with the English message's; empty when they match. */
function argumentProblems(english: string, message: string, locale: string): string[] {
  const want = argumentsOf(astOf(english, 'en'));
  const got = argumentsOf(astOf(message, locale));
  const problems: string[] = [];
  const missing = [...want.keys()].filter((n) => !got.has(n));
  const extra = [...got.keys()].filter((n) => !want.has(n));
  if (missing.length) problems.push(`missing arguments ${missing.join(', ')}`);
  if (extra.length) problems.push(`unknown arguments ${extra.join(', ')}`);
  for (const [name, uses] of got) {
    const wantKinds = new Set((want.get(name) ?? []).map((u) => u.kind));
    if (!wantKinds.size) continue;
    for (const use of uses) {
      if (!wantKinds.has(use.kind)) {
        problems.push(`{${name}} is ${use.kind}, English has ${[...wantKinds].join('/')}`);
        continue;
      }
      if (use.kind === 'select') {
        for (const w of want.get(name)!.filter((u) => u.kind === 'select')) {
          if (w.options!.join('|') !== use.options!.join('|')) {
            problems.push(`{${name}, select} has options ${use.options!.join(' ')}, English has ${w.options!.join(' ')}`);
          }
        }
      }
      if (use.kind === 'plural' || use.kind === 'selectordinal') {
        const rules = new Intl.PluralRules(locale, { type: use.kind === 'plural' ? 'cardinal' : 'ordinal' });
        const categories = rules.resolvedOptions().pluralCategories as string[];
        const invalid = use.options!.filter((k) => !/^=\d+$/.test(k) && !categories.includes(k));
        const absent = categories.filter((c) => !use.options!.includes(c));
        if (invalid.length) problems.push(`{${name}, ${use.kind}} has categories ${invalid.join(' ')} that ${locale} does not use`);
        if (absent.length) problems.push(`{${name}, ${use.kind}} lacks the ${locale} categories ${absent.join(' ')}`);
      }
    }
  }
  return problems;
}

/** Sample value sets for a message: a base set, plus one set per select option / plural number to cover every branch. */
type SampleValue = string | number | Date | ((chunks: string[]) => string);

function sampleValues(english: string): Record<string, SampleValue>[] {
  const base: Record<string, SampleValue> = {};
  const variants: [string, (string | number)[]][] = [];
  for (const [name, uses] of argumentsOf(astOf(english, 'en'))) {
    const use = uses[0]!;
    switch (use.kind) {
      case 'argument':
        base[name] = `«${name}»`;
        break;
      case 'tag':
        base[name] = (chunks) => chunks.join('');
        break;
      case 'number':
        base[name] = 42;
        break;
      case 'date':
      case 'time':
        base[name] = new Date('2026-03-02T05:00:00Z');
        break;
      case 'select':
        base[name] = 'other';
        variants.push([name, [...use.options!, 'not-an-option']]);
        break;
      case 'plural':
      case 'selectordinal':
        base[name] = 2;
        variants.push([name, [0, 1, 2, 3, 5, 11, 21, 101, 1.5]]);
        break;
    }
  }
  return [base, ...variants.flatMap(([name, values]) => values.map((v) => ({ ...base, [name]: v })))];
}

describe('argument extraction', () => {
  it('finds arguments inside select and plural branches and records their options', () => {
    const args = argumentsOf(astOf('{n, plural, one {# file from {who}} other {# files}} {s, select, a {x} other {y}}', 'en'));
    expect(Object.fromEntries(args)).toEqual({
      n: [{ kind: 'plural', options: ['one', 'other'] }],
      who: [{ kind: 'argument' }],
      s: [{ kind: 'select', options: ['a', 'other'] }],
    });
  });

  it('flags a dropped argument, a changed select option and missing plural categories', () => {
    expect(argumentProblems('Call {phone}', 'Ring oss', 'sv-SE')).toEqual(['missing arguments phone']);
    expect(argumentProblems('{t, select, a {A} other {B}}', '{t, select, b {A} other {B}}', 'sv-SE')).toEqual([
      '{t, select} has options b other, English has a other',
    ]);
    expect(argumentProblems('{n, plural, one {# day} other {# days}}', '{n, plural, other {# päivää}}', 'fi-FI')).toEqual([
      '{n, plural} lacks the fi-FI categories one',
    ]);
  });
});

describe.each(translated)('locales/%s.json', (locale) => {
  const catalogue: Catalogue = catalogues[locale];

  it('has exactly the keys of en.json', () => {
    const missing = Object.keys(en).filter((k) => !(k in catalogue));
    const extra = Object.keys(catalogue).filter((k) => !(k in en));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it('lists the keys in the order of en.json', () => {
    const shared = Object.keys(en).filter((k) => k in catalogue);
    expect(Object.keys(catalogue).filter((k) => k in en)).toEqual(shared);
  });

  it('parses every message and uses the arguments of the English message', () => {
    const problems: string[] = [];
    for (const [key, message] of Object.entries(catalogue)) {
      const english = en[key];
      if (english === undefined) continue;
      try {
        problems.push(...argumentProblems(english, message, locale).map((p) => `${key}: ${p}`));
      } catch (err) {
        problems.push(`${key}: ${(err as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('translates every message that is not allow-listed as identical to English', () => {
    const untranslated = Object.keys(catalogue).filter((k) => catalogue[k] === en[k] && !sameAsEnglishAllowed.has(k));
    expect(untranslated).toEqual([]);
  });

  it('formats every message with sample values', () => {
    const problems: string[] = [];
    for (const [key, message] of Object.entries(catalogue)) {
      const english = en[key];
      if (english === undefined) continue;
      for (const values of sampleValues(english)) {
        try {
          const text = String(new IntlMessageFormat(message, locale).format(values));
          const dropped = Object.values(values).filter((v) => typeof v === 'string' && v.startsWith('«') && !text.includes(v));
          if (!text.trim()) problems.push(`${key}: formats to empty text with ${JSON.stringify(values)}`);
          if (dropped.length && !/\{\w+, (select|plural|selectordinal)/.test(message)) problems.push(`${key}: ${dropped.join(', ')} not in "${text}"`);
        } catch (err) {
          problems.push(`${key}: ${(err as Error).message} with ${JSON.stringify(values)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('allow-list of text identical to English', () => {
  it('names only keys of en.json', () => {
    expect([...sameAsEnglishAllowed].filter((k) => !(k in en))).toEqual([]);
  });
});
