// shared/countries.ts and shared/citizenship.ts: localized country options, search by label start, and the
// citizenship rules (customer-information.md §2.3, §4.3).
import { describe, expect, it } from 'vitest';
import { countryName, countryOptions, searchCountries, countryCodes } from '../../shared/countries.ts';
import { countriesNeedingProof, isCitizenInTld, preselectedChoice, proofComplete, emptyCitizenship } from '../../shared/citizenship.ts';

describe('countryOptions', () => {
  it.each([
    ['en', 'XK', 'Kosovo'],
    ['en', 'NO', 'Norway'],
    ['sv-SE', 'NO', 'Norge'],
    ['nb-NO', 'SE', 'Sverige'],
    ['da-DK', 'DE', 'Tyskland'],
    ['fi-FI', 'SE', 'Ruotsi'],
  ] as const)('%s names %s %s', (locale, code, name) => {
    expect(countryName(code, locale)).toBe(name);
  });

  it('lists every code once, sorted by label in the language', () => {
    const options = countryOptions('sv-SE');
    expect(options).toHaveLength(countryCodes.length);
    expect(new Set(options.map((o) => o.value)).size).toBe(countryCodes.length);
    const labels = options.map((o) => o.label);
    expect(labels.indexOf('Österrike')).toBeGreaterThan(labels.indexOf('Zambia'));
  });
});

describe('searchCountries', () => {
  const options = countryOptions('en');
  it.each([
    ['nor', ['Norfolk Island', 'North Korea', 'North Macedonia', 'Northern Mariana Islands', 'Norway']],
    ['NORW', ['Norway']],
    ['  swe', ['Sweden']],
    ['way', []],
    ['xyz', []],
  ])('%j', (query, labels) => {
    expect(searchCountries(options, query).map((o) => o.label)).toEqual(labels);
  });

  it('matches the start only, in the language of the labels', () => {
    expect(searchCountries(countryOptions('sv-SE'), 'ö').map((o) => o.value)).toEqual(['AT', 'TL']);
    expect(searchCountries(countryOptions('sv-SE'), 'o').map((o) => o.value)).toEqual(['OM']);
    expect(searchCountries(options, '').length).toBe(options.length);
  });
});

describe('citizenship rules', () => {
  const answers = (countries: string[], attachments: Record<string, number> = {}) => ({
    ...emptyCitizenship(),
    countries: countries as never,
    attachments: Object.fromEntries(
      Object.entries(attachments).map(([c, n]) => [c, Array.from({ length: n }, (_, i) => ({ attachmentId: `${c}${i}`, name: 'x.pdf' }))]),
    ),
  });

  it.each([
    [undefined, undefined],
    [[], undefined],
    [['SE'], 'inOfficeCitizenship'],
    [['NO'], 'otherCitizenships'],
    [['SE', 'NO'], 'otherCitizenships'],
  ] as const)('preselects from %j: %s', (countries, choice) => {
    expect(preselectedChoice(countries ? answers([...countries]) : undefined, 'SE')).toBe(choice);
  });

  it.each([
    [['SE', 'NO', 'DK'], 'SE', ['NO', 'DK'], true],
    [['NO'], 'SE', ['NO'], false],
    [['NO'], 'NO', [], true],
  ] as const)('%j in %s: proof for %j, citizen in market %s', (countries, market, proof, inTld) => {
    expect(countriesNeedingProof([...countries], market)).toEqual(proof);
    expect(isCitizenInTld([...countries], market)).toBe(inTld);
  });

  it.each([
    [['NO', 'DK'], { NO: 1, DK: 2 }, true],
    [['NO', 'DK'], { NO: 1 }, false],
    [['NO', 'DK'], { NO: 1, DK: 0 }, false],
    [['SE', 'NO'], { NO: 1 }, true],
    [['SE'], {}, false],
  ] as const)('%j with %j → complete %s', (countries, files, complete) => {
    expect(proofComplete(answers([...countries], files), 'SE')).toBe(complete);
  });
});

// customer-information §3 "Country option": Kosovo everywhere and the Nordic entries (Åland, the Faroe Islands,
// Greenland, Svalbard and Jan Mayen) under the names each language gives them.
describe('the Nordic entries and Kosovo in every locale', () => {
  it.each([
    ['en', ['Åland Islands', 'Faroe Islands', 'Greenland', 'Svalbard & Jan Mayen', 'Kosovo']],
    ['sv-SE', ['Åland', 'Färöarna', 'Grönland', 'Svalbard och Jan Mayen', 'Kosovo']],
    ['sv-FI', ['Åland', 'Färöarna', 'Grönland', 'Svalbard och Jan Mayen', 'Kosovo']],
    ['nb-NO', ['Åland', 'Færøyene', 'Grønland', 'Svalbard og Jan Mayen', 'Kosovo']],
    ['da-DK', ['Åland', 'Færøerne', 'Grønland', 'Svalbard og Jan Mayen', 'Kosovo']],
    ['fi-FI', ['Ahvenanmaa', 'Färsaaret', 'Grönlanti', 'Huippuvuoret ja Jan Mayen', 'Kosovo']],
  ] as const)('%s lists %j', (locale, names) => {
    const options = countryOptions(locale);
    expect(['AX', 'FO', 'GL', 'SJ', 'XK'].map((code) => options.find((o) => o.value === code)?.label)).toEqual(names);
  });
});
