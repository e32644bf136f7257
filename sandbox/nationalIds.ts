// Deterministic generators of Nordic national ids for the sandbox's personas and for tests (same inputs → same id).
// The server never generates ids, so they live here; shared/nationalIds.ts is the one definition of "valid" and
// every generated id passes it. Besides the ordinary numbers, the generators can make the unusual ones real people
// carry: Danish CPR numbers without modulus 11, Norwegian D- and H-numbers, Tenor synthetic test numbers and
// numbers under Skatteetaten's 2032 control-digit rule.
import type { IsoDate, NationalIdCountry } from '../shared/nationalIds.ts';

const digitsOf = (s: string): number[] => [...s].map((c) => c.charCodeAt(0) - 48);

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function mod(n: number, m: number): number {
  return ((Math.trunc(n) % m) + m) % m;
}

function parseIsoDate(birthDate: IsoDate): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate);
  if (!m) throw new RangeError(`Birth date must be YYYY-MM-DD, got ${JSON.stringify(birthDate)}`);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) throw new RangeError(`Not a calendar date: ${birthDate}`);
  return { year, month, day };
}

const weightedSum = (digits: number[], weights: readonly number[]): number => weights.reduce((acc, w, i) => acc + w * (digits[i] ?? 0), 0);

// --- Sweden -------------------------------------------------------------------------

/** Luhn check digit for a digit string (weights 2,1,2,1,... from the left, as in the Swedish personnummer). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  digitsOf(digits).forEach((d, i) => {
    const v = i % 2 === 0 ? d * 2 : d;
    sum += v > 9 ? v - 9 : v;
  });
  return (10 - (sum % 10)) % 10;
}

/** 12-digit personnummer for the birth date; serial picks the birth number NNN (000 is never issued: 001). */
export function generateSwedishPersonnummer(birthDate: IsoDate, serial: number): string {
  const { year, month, day } = parseIsoDate(birthDate);
  const body = `${pad(year, 4)}${pad(month, 2)}${pad(day, 2)}${pad(mod(serial, 1000) || 1, 3)}`;
  return body + String(luhnCheckDigit(body.slice(2)));
}

// --- Norway -------------------------------------------------------------------------

const NO_K1_WEIGHTS = [3, 7, 6, 1, 8, 9, 4, 5, 2] as const;
const NO_K2_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/**
 * Which number series: fødselsnummer; D-nummer (day + 40); H-nummer (month + 40, also NAV's synthetic numbers);
 * synthetic (month + 80, Skatteetaten's Tenor test register, whose people the broker's test environment uses).
 */
export type NorwegianSeries = 'fødselsnummer' | 'D-nummer' | 'H-nummer' | 'synthetic';

export interface NorwegianIdOptions {
  series?: NorwegianSeries;
  /**
   * 'current': the first control digit leaves remainder 0 (every number issued before 2032). '2032': it leaves
   * remainder 1, 2 or 3, valid only under Skatteetaten's rule for numbers issued from 2032.
   */
  controlDigitRule?: 'current' | '2032';
}

/** Individual-number ranges that encode a birth year's century (folkeregisterforskriften's allocation). */
function norwegianIndividualRange(year: number): [number, number] {
  if (year >= 1900 && year <= 1999) return [0, 499];
  if (year >= 2000 && year <= 2039) return [500, 999];
  if (year >= 1854 && year <= 1899) return [500, 749];
  throw new RangeError(`No Norwegian individual numbers for birth year ${year}`);
}

/** The two control digits for the first nine digits, or null when the number cannot be issued (a digit of 10). */
function norwegianControlDigits(first9: string, k1Remainder: number): string | null {
  const d = digitsOf(first9);
  // Skatteetaten: k1 = {11, 12, 13, 14} − (weighted sum mod 11), i.e. sum + k1 leaves the remainder; 10 is discarded.
  const k1 = mod(k1Remainder - weightedSum(d, NO_K1_WEIGHTS), 11);
  if (k1 === 10) return null;
  const k2 = mod(-weightedSum([...d, k1], NO_K2_WEIGHTS), 11);
  if (k2 === 10) return null;
  return `${k1}${k2}`;
}

/**
 * 11-digit Norwegian id. serial picks the starting individual number within the century's range; numbers whose
 * control digit would be 10 are not issued, so the next usable one is taken (deterministic).
 */
export function generateNorwegianId(birthDate: IsoDate, serial: number, options: NorwegianIdOptions = {}): string {
  const { year, month, day } = parseIsoDate(birthDate);
  const series = options.series ?? 'fødselsnummer';
  const remainders = options.controlDigitRule === '2032' ? [1, 2, 3] : [0];
  const [lo, hi] = norwegianIndividualRange(year);
  const size = hi - lo + 1;
  const dd = series === 'D-nummer' ? day + 40 : day;
  const mm = series === 'H-nummer' ? month + 40 : series === 'synthetic' ? month + 80 : month;
  const datePart = `${pad(dd, 2)}${pad(mm, 2)}${pad(year % 100, 2)}`;
  for (let i = 0; i < size; i++) {
    const first9 = datePart + pad(lo + mod(serial + i, size), 3);
    for (const remainder of remainders) {
      const controls = norwegianControlDigits(first9, remainder);
      if (controls !== null) return first9 + controls;
    }
  }
  throw new RangeError(`No Norwegian ${series} for ${birthDate}`);
}

/** An ordinary fødselsnummer under today's control-digit rule. */
export const generateNorwegianFodselsnummer = (birthDate: IsoDate, serial: number): string => generateNorwegianId(birthDate, serial);

// --- Denmark ------------------------------------------------------------------------

const DK_WEIGHTS = [4, 3, 2, 7, 6, 5, 4, 3, 2, 1] as const;

/** Ranges of the first three sequence digits (SSS of SSSS) that encode the birth year's century. */
function danishSequenceRanges(year: number): Array<[number, number]> {
  if (year >= 1900 && year <= 1999) return [[0, 399]];
  if (year >= 2000 && year <= 2036)
    return [
      [400, 499],
      [900, 999],
    ];
  if (year >= 2037 && year <= 2057) return [[500, 899]];
  if (year >= 1858 && year <= 1899) return [[500, 899]];
  throw new RangeError(`No Danish CPR sequence numbers for birth year ${year}`);
}

export interface DanishCprOptions {
  /**
   * true (default): the weighted sum is divisible by 11, as every CPR number issued before 2007. false: it is not,
   * as the numbers the CPR office has issued since 2007 for birth dates whose modulus-11 numbers ran out.
   */
  modulus11?: boolean;
}

/** 10-digit CPR number. serial picks the starting sequence number; the next one that fits the options is taken. */
export function generateDanishCpr(birthDate: IsoDate, serial: number, options: DanishCprOptions = {}): string {
  const { year, month, day } = parseIsoDate(birthDate);
  const wantModulus11 = options.modulus11 ?? true;
  const candidates = danishSequenceRanges(year).flatMap(([lo, hi]) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i));
  const datePart = `${pad(day, 2)}${pad(month, 2)}${pad(year % 100, 2)}`;
  for (let i = 0; i < candidates.length; i++) {
    const first9 = datePart + pad(candidates[mod(serial + i, candidates.length)] ?? 0, 3);
    const partial = weightedSum(digitsOf(first9), DK_WEIGHTS.slice(0, 9));
    // The last digit has weight 1: the one that makes the sum divisible by 11, or (without modulus 11) any other.
    const modulus11Digit = mod(-partial, 11);
    if (wantModulus11 && modulus11Digit <= 9) return first9 + String(modulus11Digit);
    if (!wantModulus11) return first9 + String(mod(serial, 10) === modulus11Digit ? mod(serial + 1, 10) : mod(serial, 10));
  }
  throw new RangeError(`No CPR number for ${birthDate}`);
}

// --- Finland ------------------------------------------------------------------------

const FI_CHECK_CHARS = '0123456789ABCDEFHJKLMNPRSTUVWXY';

/** 11-character henkilötunnus with the classic century sign (+, -, A); serial picks ZZZ in 002–899. */
export function generateFinnishHenkilotunnus(birthDate: IsoDate, serial: number): string {
  const { year, month, day } = parseIsoDate(birthDate);
  const sign = year >= 2000 && year <= 2099 ? 'A' : year >= 1900 ? '-' : year >= 1800 ? '+' : null;
  if (sign === null || year > 2099) throw new RangeError(`No Finnish century sign for birth year ${year}`);
  const datePart = `${pad(day, 2)}${pad(month, 2)}${pad(year % 100, 2)}`;
  const individual = pad(2 + mod(serial, 898), 3);
  return `${datePart}${sign}${individual}${FI_CHECK_CHARS[Number(datePart + individual) % 31] ?? ''}`;
}

// --- country dispatch ---------------------------------------------------------------

const generators: Record<NationalIdCountry, (birthDate: IsoDate, serial: number) => string> = {
  SE: generateSwedishPersonnummer,
  NO: generateNorwegianFodselsnummer,
  DK: generateDanishCpr,
  FI: generateFinnishHenkilotunnus,
};

/** Deterministic ordinary national id for the country, birth date and serial (same inputs → same id). */
export function generateNationalId(country: NationalIdCountry, birthDate: IsoDate, serial: number): string {
  return generators[country](birthDate, serial);
}
