import { describe, expect, it } from 'vitest';
import { isValidNationalId, nationalIdBirthDate, normalizeNationalId, type NationalIdCountry } from '../../shared/nationalIds.ts';
import { generateDanishCpr, generateNationalId, generateNorwegianId, type NorwegianSeries } from '../../sandbox/nationalIds.ts';

const countries: NationalIdCountry[] = ['SE', 'NO', 'DK', 'FI'];

// Ids the issuing authorities issue (or publish as examples), with the birth date they carry.
const accepted: Array<[string, NationalIdCountry, string, string]> = [
  ['SE personnummer (Skatteverket example)', 'SE', '198112189876', '1981-12-18'],
  ['SE samordningsnummer (day + 60)', 'SE', withLuhn('19900161011'), '1990-01-01'],
  ['NO fødselsnummer', 'NO', '15076500565', '1965-07-15'],
  ['NO fødselsnummer, Skatteetaten 2032 example, first control digit remainder 0', 'NO', '30108299920', '1982-10-30'],
  ['NO D-nummer (day + 40)', 'NO', withNorwegianControls('410185124', 0), '1985-01-01'],
  ['NO D-nummer and H-nummer (day + 40, month + 40)', 'NO', '68467038838', '1970-06-28'],
  ['NO D-nummer in the Tenor test register (day + 40, month + 80)', 'NO', '45840375084', '2003-04-05'],
  ['NO born 29 February 2000', 'NO', withNorwegianControls('290200513', 0), '2000-02-29'],
  // From 2032 the individual number no longer tells the century (Skatteetaten): 29 February 00 can only be 2000.
  ['NO 29 February 00 with an individual number of the 1900s', 'NO', withNorwegianControls('290200123', 1), '2000-02-29'],
  ['DK CPR with modulus 11', 'DK', '0707614285', '1961-07-07'],
  ['DK 7th digit 4, year 00–36: 2000s', 'DK', '2902004000', '2000-02-29'],
  ['DK 7th digit 5, year 58–99: 1800s', 'DK', '0101585000', '1858-01-01'],
  ['DK 7th digit 9, year 37–99: 1900s', 'DK', '3112999000', '1999-12-31'],
  ['FI classic sign - (DVV example)', 'FI', '131052-308T', '1952-10-13'],
  ['FI 2023 sign Y for the 1900s (DVV example)', 'FI', '010594Y9021', '1994-05-01'],
  ['FI 2023 sign B for the 2000s (DVV example)', 'FI', '010516B903X', '2016-05-01'],
  ['FI sign A, born 29 February 2000', 'FI', withFinnishCheck('290200A002'), '2000-02-29'],
  ['FI sign + before 1850 (finnish-ssn knows only 1850–1899)', 'FI', withFinnishCheck('010145+123'), '1845-01-01'],
  ['FI 2023 sign E after 2029 (finnish-ssn knows only 2000–2029)', 'FI', withFinnishCheck('150230E123'), '2030-02-15'],
];

// Every case a checksum stricter than the issuing authority's refused.
const formerlyRefused: Array<[string, NationalIdCountry, string, string]> = [
  ['DK CPR failing modulus 11 (issued since 2007)', 'DK', '0101653877', '1965-01-01'],
  ['DK CPR failing modulus 11, born in the 2000s', 'DK', '0101054011', '2005-01-01'],
  ['NO under the 2032 rule, Skatteetaten example (first control digit remainder 1)', 'NO', '30108299939', '1982-10-30'],
  ['NO under the 2032 rule, first control digit remainder 3', 'NO', withNorwegianControls('150765006', 3), '1965-07-15'],
  ['NO Tenor synthetic (month + 80), 2000s', 'NO', '17912099997', '2020-11-17'],
  ['NO Tenor synthetic (month + 80), 29 February 2020', 'NO', '29822099635', '2020-02-29'],
  ['NO Tenor synthetic (month + 80), 1900s', 'NO', '12829499914', '1994-02-12'],
  ['NO Tenor synthetic (month + 80), 1800s', 'NO', '21929774873', '1897-12-21'],
  ['NO H-nummer (month + 40)', 'NO', '13527248013', '1972-12-13'],
  ["NO NAV's synthetic number (month + 40)", 'NO', '15507600333', '1976-10-15'],
  ['NO D-nummer and H-nummer, NAV synthetic', 'NO', '55507608360', '1976-10-15'],
];

const refused: Array<[string, NationalIdCountry, string]> = [
  ['SE wrong check digit', 'SE', '198112189875'],
  ['SE 10-digit form (not canonical)', 'SE', '8112189876'],
  ['SE with separator', 'SE', '19811218-9876'],
  ['SE month 13 with a correct Luhn digit', 'SE', withLuhn('19811318987')],
  ['SE 30 February with a correct Luhn digit', 'SE', withLuhn('19900230123')],
  ['SE birth number 000', 'SE', withLuhn('19811218000')],
  ['SE letters', 'SE', '1981121898A6'],
  ['NO wrong second control digit', 'NO', '15076500566'],
  ['NO first control digit leaving remainder 4 (neither rule)', 'NO', withNorwegianControls('150765006', 4)],
  ['NO first control digit leaving remainder 10 (neither rule)', 'NO', withNorwegianControls('150765006', 10)],
  ['NO 30 February with correct control digits', 'NO', withNorwegianControls('300299123', 0)],
  ['NO month 13 with correct control digits', 'NO', withNorwegianControls('011399123', 0)],
  ['NO H-nummer of month 13 (53)', 'NO', withNorwegianControls('015399123', 0)],
  ['NO Tenor number of month 13 (93)', 'NO', withNorwegianControls('019399123', 0)],
  ['NO D-nummer of day 32 (72)', 'NO', withNorwegianControls('720199123', 0)],
  ['NO 10 digits', 'NO', '1507650056'],
  ['NO letters', 'NO', '1507650056A'],
  ['DK 30 February', 'DK', '3002991234'],
  ['DK 29 February 1900 (7th digit 0–3: 1900s)', 'DK', '2902003000'],
  ['DK month 13', 'DK', '0113991234'],
  ['DK day 00', 'DK', '0001991234'],
  ['DK with separator', 'DK', '070761-4285'],
  ['DK letters', 'DK', '07076142AB'],
  ['DK 9 digits', 'DK', '070761428'],
  ['FI wrong check character', 'FI', '131052-308U'],
  ['FI unknown century sign', 'FI', '131052G308T'],
  ['FI lower-case check character', 'FI', '010516B903x'],
  ['FI individual number 001 is never issued', 'FI', withFinnishCheck('131052-001')],
  ['FI 30 February with a correct check character', 'FI', withFinnishCheck('300299-123')],
  ['FI 29 February 1900 (sign -) with a correct check character', 'FI', withFinnishCheck('290200-002')],
  ['FI letters in the date', 'FI', 'A31052-308T'],
  ['FI without century sign', 'FI', '1310523080T'],
];

describe('national ids the issuing authorities issue are accepted, with their birth date', () => {
  it.each([...accepted, ...formerlyRefused])('%s: %s %s', (_label, country, id, birthDate) => {
    expect(isValidNationalId(country, id)).toBe(true);
    expect(nationalIdBirthDate(country, id)).toBe(birthDate);
  });

  it('the formerly refused cases are exactly the ones a stricter checksum refuses', () => {
    for (const [label, country, id] of formerlyRefused) {
      if (country === 'DK') expect(weightedDanishSum(id) % 11, label).not.toBe(0);
      // Before 2032 the first control digit always leaves remainder 0, and months stay 01–12.
      if (country === 'NO') expect(remainderOfFirstControlDigit(id) !== 0 || Number(id.slice(2, 4)) > 12, label).toBe(true);
    }
  });
});

describe('ids without the shape or a real birth date are refused', () => {
  it.each(refused)('%s: %s %s', (_label, country, id) => {
    expect(isValidNationalId(country, id)).toBe(false);
    expect(nationalIdBirthDate(country, id)).toBeNull();
  });
});

describe('generators (sandbox)', () => {
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

  it('ordinary DK and NO ids satisfy the pre-2007 and pre-2032 checksums', () => {
    for (const serial of [0, 5, 77]) {
      expect(weightedDanishSum(generateNationalId('DK', '1985-06-05', serial)) % 11).toBe(0);
      expect(remainderOfFirstControlDigit(generateNationalId('NO', '1985-06-05', serial))).toBe(0);
    }
  });

  it('DK CPR numbers without modulus 11 are valid and fail modulus 11', () => {
    for (const birthDate of birthDates) {
      for (const serial of [0, 1, 9, 10, 250]) {
        const id = generateDanishCpr(birthDate, serial, { modulus11: false });
        expect(weightedDanishSum(id) % 11, id).not.toBe(0);
        expect(nationalIdBirthDate('DK', id)).toBe(birthDate);
      }
    }
  });

  it.each([
    ['fødselsnummer', (id: string) => Number(id.slice(0, 2)) <= 31 && Number(id.slice(2, 4)) <= 12],
    ['D-nummer', (id: string) => Number(id.slice(0, 2)) > 40],
    ['H-nummer', (id: string) => Number(id.slice(2, 4)) > 40 && Number(id.slice(2, 4)) <= 52],
    ['synthetic', (id: string) => Number(id.slice(2, 4)) > 80],
  ] as Array<[NorwegianSeries, (id: string) => boolean]>)('NO %s: valid under either control-digit rule, with the series marker', (series, marked) => {
    for (const birthDate of birthDates) {
      for (const serial of [0, 3, 400]) {
        const current = generateNorwegianId(birthDate, serial, { series });
        const rule2032 = generateNorwegianId(birthDate, serial, { series, controlDigitRule: '2032' });
        for (const id of [current, rule2032]) {
          expect(marked(id), id).toBe(true);
          expect(nationalIdBirthDate('NO', id), id).toBe(birthDate);
        }
        expect(remainderOfFirstControlDigit(current)).toBe(0);
        expect([1, 2, 3]).toContain(remainderOfFirstControlDigit(rule2032));
      }
    }
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

// --- independent helpers (re-derived from the authorities' published rules, not the implementation) ------

function withLuhn(body: string): string {
  const sum = [...body.slice(2)].reduce((acc, c, i) => {
    const v = Number(c) * (i % 2 === 0 ? 2 : 1);
    return acc + (v > 9 ? v - 9 : v);
  }, 0);
  return body + String((10 - (sum % 10)) % 10);
}

// Function declarations (hoisted): the tables above use them while the module loads.
function weighted(digits: string, weights: number[]): number {
  return weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
}

/**
 * Skatteetaten: k1 = (11 + remainder) − (weighted sum mod 11), minus 11 when above 10; k2 = 11 − (sum mod 11), 11
 * being 0. Remainder 0 is today's rule, 1–3 the 2032 rule; any other makes an id neither rule accepts.
 */
function withNorwegianControls(first9: string, remainder: number): string {
  let k1 = 11 + remainder - (weighted(first9, [3, 7, 6, 1, 8, 9, 4, 5, 2]) % 11);
  while (k1 > 10) k1 -= 11;
  const k2 = (11 - (weighted(first9 + String(k1), [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 11;
  if (k1 === 10 || k2 === 10) throw new Error(`${first9} has no control digits for remainder ${remainder}`);
  return `${first9}${k1}${k2}`;
}

/** The remainder the first control digit leaves: 0 before 2032, 0–3 under the 2032 rule. */
function remainderOfFirstControlDigit(id: string): number {
  return weighted(id.slice(0, 10), [3, 7, 6, 1, 8, 9, 4, 5, 2, 1]) % 11;
}

function weightedDanishSum(id: string): number {
  return weighted(id, [4, 3, 2, 7, 6, 5, 4, 3, 2, 1]);
}

function withFinnishCheck(prefix: string): string {
  const number = Number(prefix.slice(0, 6) + prefix.slice(7, 10));
  return prefix + '0123456789ABCDEFHJKLMNPRSTUVWXY'[number % 31];
}
