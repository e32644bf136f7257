import { describe, expect, it } from 'vitest';
import {
  generateNationalId,
  isValidDanishCpr,
  isValidFinnishHenkilotunnus,
  isValidNationalId,
  isValidNorwegianFodselsnummer,
  isValidSwedishPersonnummer,
  luhnCheckDigit,
  nationalIdBirthDate,
  normalizeNationalId,
  type NationalIdCountry,
} from '../../shared/nationalIds.ts';

const countries: NationalIdCountry[] = ['SE', 'NO', 'DK', 'FI'];

describe('published valid examples', () => {
  it.each([
    ['SE', '198112189876', '1981-12-18'], // Skatteverket's example
    ['NO', '15076500565', '1965-07-15'],
    ['DK', '0707614285', '1961-07-07'],
    ['FI', '131052-308T', '1952-10-13'], // DVV's example
    ['FI', '010594Y9021', '1994-05-01'], // 2023 century sign for the 1900s
    ['FI', '010516B903X', '2016-05-01'], // 2023 century sign for the 2000s
  ] as const)('%s %s is valid and born %s', (country, id, birthDate) => {
    expect(isValidNationalId(country, id)).toBe(true);
    expect(nationalIdBirthDate(country, id)).toBe(birthDate);
  });
});

describe('country validators reject broken ids', () => {
  it.each([
    ['SE wrong check digit', isValidSwedishPersonnummer, '198112189875'],
    ['SE 10-digit form (not canonical)', isValidSwedishPersonnummer, '8112189876'],
    ['SE with separator', isValidSwedishPersonnummer, '19811218-9876'],
    ['SE month 13 with a correct Luhn digit', isValidSwedishPersonnummer, `19811318987${luhnCheckDigit('811318987')}`],
    ['NO wrong first check digit', isValidNorwegianFodselsnummer, '15076500575'],
    ['NO wrong second check digit', isValidNorwegianFodselsnummer, '15076500566'],
    ['NO 10 digits', isValidNorwegianFodselsnummer, '1507650056'],
    ['DK weighted sum not divisible by 11', isValidDanishCpr, '0707614286'],
    ['DK letters', isValidDanishCpr, '07076142AB'],
    ['FI wrong check character', isValidFinnishHenkilotunnus, '131052-308U'],
    ['FI unknown century sign', isValidFinnishHenkilotunnus, '131052G308T'],
    ['FI lower-case check character', isValidFinnishHenkilotunnus, '010516B903x'],
    ['FI individual number 001 is never issued', isValidFinnishHenkilotunnus, withFinnishCheck('131052-001')],
  ])('%s', (_label, validate, id) => {
    expect(validate(id)).toBe(false);
  });

  it('rejects a DK date that does not exist even when the mod-11 sum is right', () => {
    const id = withDanishCheck('310290'); // 31 February 1990
    expect(weightedDanishSum(id) % 11).toBe(0);
    expect(isValidDanishCpr(id)).toBe(false);
  });

  it('accepts a Swedish samordningsnummer (day + 60)', () => {
    const body = '19900161011'; // 1990-01-(01+60), birth number 011
    const id = body + String(luhnCheckDigit(body.slice(2)));
    expect(isValidSwedishPersonnummer(id)).toBe(true);
    expect(nationalIdBirthDate('SE', id)).toBe('1990-01-01');
  });

  it('uses the Norwegian individual number to tell the century', () => {
    // Individual number 000–499 is the 1900s, 500–999 with year 00–39 the 2000s.
    const old = generateNationalId('NO', '1905-03-01', 0);
    const young = generateNationalId('NO', '2005-03-01', 0);
    expect(Number(old.slice(6, 9))).toBeLessThan(500);
    expect(Number(young.slice(6, 9))).toBeGreaterThanOrEqual(500);
    expect(nationalIdBirthDate('NO', old)).toBe('1905-03-01');
    expect(nationalIdBirthDate('NO', young)).toBe('2005-03-01');
  });
});

describe('generators', () => {
  const birthDates = ['1958-02-20', '1988-04-12', '2000-02-29', '2012-03-08', '1899-12-31'];

  it.each(countries)('%s ids are valid, carry the birth date and are deterministic', (country) => {
    for (const birthDate of birthDates) {
      for (const serial of [0, 1, 17, 250, 999, 12345]) {
        const id = generateNationalId(country, birthDate, serial);
        expect(isValidNationalId(country, id), `${country} ${birthDate} #${serial} → ${id}`).toBe(true);
        expect(nationalIdBirthDate(country, id)).toBe(birthDate);
        expect(generateNationalId(country, birthDate, serial)).toBe(id);
      }
    }
  });

  it.each(countries)('%s ids for different serials differ', (country) => {
    const ids = new Set(Array.from({ length: 50 }, (_, serial) => generateNationalId(country, '1990-06-15', serial)));
    expect(ids.size).toBeGreaterThan(40); // a few serials fold onto the next usable number in NO/DK
  });

  it.each([
    ['SE', /^\d{12}$/],
    ['NO', /^\d{11}$/],
    ['DK', /^\d{10}$/],
    ['FI', /^\d{6}[-+A]\d{3}[0-9A-Y]$/],
  ] as const)('%s ids have the canonical shape', (country, shape) => {
    expect(generateNationalId(country, '1990-06-15', 3)).toMatch(shape);
  });

  it('rejects dates that do not exist', () => {
    expect(() => generateNationalId('SE', '1990-02-30', 1)).toThrow(RangeError);
    expect(() => generateNationalId('FI', '19900101', 1)).toThrow(RangeError);
  });
});

describe('normalizeNationalId', () => {
  it.each([
    ['SE', ' 19811218-9876 ', '198112189876'],
    ['NO', '150765 00565', '15076500565'],
    ['DK', '070761-4285', '0707614285'],
    ['FI', ' 131052-308t ', '131052-308T'],
  ] as const)('%s %j → %s', (country, raw, canonical) => {
    expect(normalizeNationalId(country, raw)).toBe(canonical);
    expect(isValidNationalId(country, normalizeNationalId(country, raw))).toBe(true);
  });
});

// --- independent helpers (re-derived from the public rules, not the implementation) ------

function weightedDanishSum(id: string): number {
  const weights = [4, 3, 2, 7, 6, 5, 4, 3, 2, 1];
  return [...id].reduce((sum, c, i) => sum + Number(c) * (weights[i] ?? 0), 0);
}

/** First CPR with the given DDMMYY whose weighted sum is divisible by 11. */
function withDanishCheck(ddmmyy: string): string {
  for (let seq = 0; seq < 4000; seq++) {
    const id = ddmmyy + String(seq).padStart(4, '0');
    if (weightedDanishSum(id) % 11 === 0) return id;
  }
  throw new Error('unreachable');
}

function withFinnishCheck(prefix: string): string {
  const number = Number(prefix.slice(0, 6) + prefix.slice(7, 10));
  return prefix + '0123456789ABCDEFHJKLMNPRSTUVWXY'[number % 31];
}
