// Pure checksum validators and deterministic generators for the four Nordic national identity numbers.
// Shared by server/ (input validation) and sandbox/ (persona generation), so both agree on what "valid" means.
//
// Canonical forms (what the validators accept; use normalizeNationalId first for user input):
//   SE personnummer     YYYYMMDDNNNC   12 digits, Luhn check digit over the last 10 digits
//                                       (day + 60 = samordningsnummer is accepted)
//   NO fødselsnummer    DDMMYYIIIKK    11 digits, two mod-11 check digits; century from the individual number
//                                       (day + 40 = D-nummer is accepted)
//   DK CPR-nummer       DDMMYYSSSS     10 digits, weighted sum (4,3,2,7,6,5,4,3,2,1) divisible by 11;
//                                       century from the 7th digit
//   FI henkilötunnus    DDMMYYCZZZQ    century sign C, individual number ZZZ, check character Q (mod 31)

export type NationalIdCountry = 'SE' | 'NO' | 'DK' | 'FI';

/** A calendar date as ISO 'YYYY-MM-DD'. */
export type IsoDate = string;

// --- small helpers ------------------------------------------------------------------

const digitsOf = (s: string): number[] => [...s].map((c) => c.charCodeAt(0) - 48);

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this month (UTC avoids DST surprises).
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

function toIso(year: number, month: number, day: number): IsoDate {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

function parseIsoDate(birthDate: IsoDate): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate);
  if (!m) throw new RangeError(`Birth date must be YYYY-MM-DD, got ${JSON.stringify(birthDate)}`);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isRealDate(year, month, day)) throw new RangeError(`Not a calendar date: ${birthDate}`);
  return { year, month, day };
}

/** Luhn check digit for a digit string (weights 2,1,2,1,... from the left, as in the Swedish personnummer). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  digitsOf(digits).forEach((d, i) => {
    const v = i % 2 === 0 ? d * 2 : d;
    sum += v > 9 ? v - 9 : v;
  });
  return (10 - (sum % 10)) % 10;
}

/** Mod-11 check digit with the given weights; null when the remainder makes the number unusable (check 10). */
function mod11CheckDigit(digits: number[], weights: readonly number[]): number | null {
  const sum = weights.reduce((acc, w, i) => acc + w * (digits[i] ?? 0), 0);
  const check = 11 - (sum % 11);
  if (check === 11) return 0;
  return check === 10 ? null : check;
}

// --- Sweden -------------------------------------------------------------------------

function parseSwedish(id: string): IsoDate | null {
  if (!/^\d{12}$/.test(id)) return null;
  const year = Number(id.slice(0, 4));
  const month = Number(id.slice(4, 6));
  let day = Number(id.slice(6, 8));
  if (day > 60) day -= 60; // samordningsnummer (coordination number)
  if (!isRealDate(year, month, day)) return null;
  if (luhnCheckDigit(id.slice(2, 11)) !== Number(id[11])) return null;
  return toIso(year, month, day);
}

export const isValidSwedishPersonnummer = (id: string): boolean => parseSwedish(id) !== null;

/** 12-digit personnummer for the birth date; serial (0–999) becomes the birth number NNN. Always valid. */
export function generateSwedishPersonnummer(birthDate: IsoDate, serial: number): string {
  const { year, month, day } = parseIsoDate(birthDate);
  const body = `${pad(year, 4)}${pad(month, 2)}${pad(day, 2)}${pad(mod(serial, 1000), 3)}`;
  return body + String(luhnCheckDigit(body.slice(2)));
}

// --- Norway -------------------------------------------------------------------------

const NO_K1_WEIGHTS = [3, 7, 6, 1, 8, 9, 4, 5, 2] as const;
const NO_K2_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/** Century of a fødselsnummer from its individual number (Skatteetaten's allocation table). */
function norwegianCentury(individual: number, yy: number): number | null {
  if (individual <= 499) return 1900;
  if (individual <= 749 && yy >= 54) return 1800;
  if (yy <= 39) return 2000; // 500–999
  if (individual >= 900) return 1900; // 900–999 with yy 40–99
  return null;
}

function norwegianCheckDigits(first9: string): string | null {
  const d = digitsOf(first9);
  const k1 = mod11CheckDigit(d, NO_K1_WEIGHTS);
  if (k1 === null) return null;
  const k2 = mod11CheckDigit([...d, k1], NO_K2_WEIGHTS);
  if (k2 === null) return null;
  return `${k1}${k2}`;
}

function parseNorwegian(id: string): IsoDate | null {
  if (!/^\d{11}$/.test(id)) return null;
  let day = Number(id.slice(0, 2));
  if (day > 40) day -= 40; // D-nummer
  const month = Number(id.slice(2, 4));
  const yy = Number(id.slice(4, 6));
  const century = norwegianCentury(Number(id.slice(6, 9)), yy);
  if (century === null || !isRealDate(century + yy, month, day)) return null;
  if (norwegianCheckDigits(id.slice(0, 9)) !== id.slice(9)) return null;
  return toIso(century + yy, month, day);
}

export const isValidNorwegianFodselsnummer = (id: string): boolean => parseNorwegian(id) !== null;

/** Individual-number ranges that encode a birth year's century (the inverse of norwegianCentury). */
function norwegianIndividualRange(year: number): [number, number] {
  if (year >= 1900 && year <= 1999) return [0, 499];
  if (year >= 2000 && year <= 2039) return [500, 999];
  if (year >= 1854 && year <= 1899) return [500, 749];
  throw new RangeError(`No Norwegian individual numbers for birth year ${year}`);
}

/**
 * 11-digit fødselsnummer. serial picks the starting individual number within the century's range; numbers whose
 * mod-11 check would be 10 are not issued, so the next usable one is taken (deterministic).
 */
export function generateNorwegianFodselsnummer(birthDate: IsoDate, serial: number): string {
  const { year, month, day } = parseIsoDate(birthDate);
  const [lo, hi] = norwegianIndividualRange(year);
  const size = hi - lo + 1;
  const datePart = `${pad(day, 2)}${pad(month, 2)}${pad(year % 100, 2)}`;
  for (let i = 0; i < size; i++) {
    const first9 = datePart + pad(lo + mod(serial + i, size), 3);
    const checks = norwegianCheckDigits(first9);
    if (checks !== null) return first9 + checks;
  }
  throw new RangeError(`No valid fødselsnummer for ${birthDate}`);
}

// --- Denmark ------------------------------------------------------------------------

const DK_WEIGHTS = [4, 3, 2, 7, 6, 5, 4, 3, 2, 1] as const;

/** Century of a CPR number from its 7th digit and two-digit year (CPR-kontoret's table). */
function danishCentury(seventh: number, yy: number): number {
  if (seventh <= 3) return 1900;
  if (seventh === 4 || seventh === 9) return yy <= 36 ? 2000 : 1900;
  return yy <= 57 ? 2000 : 1800; // 5–8
}

function parseDanish(id: string): IsoDate | null {
  if (!/^\d{10}$/.test(id)) return null;
  const d = digitsOf(id);
  const day = Number(id.slice(0, 2));
  const month = Number(id.slice(2, 4));
  const yy = Number(id.slice(4, 6));
  const year = danishCentury(d[6] ?? 0, yy) + yy;
  if (!isRealDate(year, month, day)) return null;
  const sum = DK_WEIGHTS.reduce((acc, w, i) => acc + w * (d[i] ?? 0), 0);
  if (sum % 11 !== 0) return null;
  return toIso(year, month, day);
}

export const isValidDanishCpr = (id: string): boolean => parseDanish(id) !== null;

/** First-three-sequence-digit ranges (SSS of SSSS) that encode the birth year's century. */
function danishSequenceRanges(year: number): Array<[number, number]> {
  const yy = year % 100;
  if (year >= 1900 && year <= 1999) return [[0, 399]];
  if (year >= 2000 && year <= 2036) return [[400, 499], [900, 999]];
  if (year >= 2037 && year <= 2057) return [[500, 899]];
  if (year >= 1858 && year <= 1899 && yy >= 58) return [[500, 899]];
  throw new RangeError(`No Danish CPR sequence numbers for birth year ${year}`);
}

/**
 * 10-digit CPR number valid under the mod-11 rule. serial picks the starting sequence number; sequences whose check
 * digit would be 10 cannot satisfy mod 11, so the next one is taken (deterministic).
 */
export function generateDanishCpr(birthDate: IsoDate, serial: number): string {
  const { year, month, day } = parseIsoDate(birthDate);
  const candidates = danishSequenceRanges(year).flatMap(([lo, hi]) =>
    Array.from({ length: hi - lo + 1 }, (_, i) => lo + i),
  );
  const datePart = `${pad(day, 2)}${pad(month, 2)}${pad(year % 100, 2)}`;
  for (let i = 0; i < candidates.length; i++) {
    const first9 = datePart + pad(candidates[mod(serial + i, candidates.length)] ?? 0, 3);
    const d = digitsOf(first9);
    const sum = DK_WEIGHTS.slice(0, 9).reduce((acc, w, j) => acc + w * (d[j] ?? 0), 0);
    const check = (11 - (sum % 11)) % 11; // weight of the last digit is 1
    if (check <= 9) return first9 + String(check);
  }
  throw new RangeError(`No valid CPR number for ${birthDate}`);
}

// --- Finland ------------------------------------------------------------------------

const FI_CHECK_CHARS = '0123456789ABCDEFHJKLMNPRSTUVWXY';
// Century signs; the extra 1900/2000 signs were introduced in 2023.
const FI_CENTURY: Record<string, number> = {
  '+': 1800,
  '-': 1900, Y: 1900, X: 1900, W: 1900, V: 1900, U: 1900,
  A: 2000, B: 2000, C: 2000, D: 2000, E: 2000, F: 2000,
};

const finnishCheckChar = (dateDigits: string, individual: string): string =>
  FI_CHECK_CHARS[Number(dateDigits + individual) % 31] ?? '';

function parseFinnish(id: string): IsoDate | null {
  const m = /^(\d{2})(\d{2})(\d{2})([-+A-FU-Y])(\d{3})([0-9A-Y])$/.exec(id);
  if (!m) return null;
  const [dd = '', mm = '', yy = '', sign = '', zzz = '', check = ''] = m.slice(1);
  const century = FI_CENTURY[sign];
  const individual = Number(zzz);
  if (century === undefined || individual < 2) return null; // 000 and 001 are never issued
  const year = century + Number(yy);
  if (!isRealDate(year, Number(mm), Number(dd))) return null;
  if (finnishCheckChar(dd + mm + yy, zzz) !== check) return null;
  return toIso(year, Number(mm), Number(dd));
}

export const isValidFinnishHenkilotunnus = (id: string): boolean => parseFinnish(id) !== null;

/** 11-character henkilötunnus with the classic century sign (+, -, A); serial picks ZZZ in 002–899. */
export function generateFinnishHenkilotunnus(birthDate: IsoDate, serial: number): string {
  const { year, month, day } = parseIsoDate(birthDate);
  const sign = year >= 2000 && year <= 2099 ? 'A' : year >= 1900 ? '-' : year >= 1800 ? '+' : null;
  if (sign === null || year > 2099) throw new RangeError(`No Finnish century sign for birth year ${year}`);
  const datePart = `${pad(day, 2)}${pad(month, 2)}${pad(year % 100, 2)}`;
  const individual = pad(2 + mod(serial, 898), 3);
  return `${datePart}${sign}${individual}${finnishCheckChar(datePart, individual)}`;
}

// --- country dispatch ---------------------------------------------------------------

const parsers: Record<NationalIdCountry, (id: string) => IsoDate | null> = {
  SE: parseSwedish,
  NO: parseNorwegian,
  DK: parseDanish,
  FI: parseFinnish,
};

const generators: Record<NationalIdCountry, (birthDate: IsoDate, serial: number) => string> = {
  SE: generateSwedishPersonnummer,
  NO: generateNorwegianFodselsnummer,
  DK: generateDanishCpr,
  FI: generateFinnishHenkilotunnus,
};

/** True when id is a canonical, checksum-valid national id of the country. */
export function isValidNationalId(country: NationalIdCountry, id: string): boolean {
  return parsers[country](id) !== null;
}

/** Birth date (YYYY-MM-DD) encoded in a valid national id, or null when the id is invalid. */
export function nationalIdBirthDate(country: NationalIdCountry, id: string): IsoDate | null {
  return parsers[country](id);
}

/** Deterministic valid national id for the country, birth date and serial (same inputs → same id). */
export function generateNationalId(country: NationalIdCountry, birthDate: IsoDate, serial: number): string {
  return generators[country](birthDate, serial);
}

/**
 * Canonical form of typed input: trimmed, separators and spaces dropped (digits only) except in Finland, where the
 * century sign is part of the id and is kept (upper-cased). Does not validate.
 */
export function normalizeNationalId(country: NationalIdCountry, raw: string): string {
  const trimmed = raw.trim();
  return country === 'FI' ? trimmed.toUpperCase() : trimmed.replace(/\D/g, '');
}

function mod(n: number, m: number): number {
  return ((Math.trunc(n) % m) + m) % m;
}
