// Validation of the four Nordic national identity numbers, pure (no I/O): the id's shape and a real birth date, plus
// only what the issuing authority itself requires, never a stricter checksum, which would lock real people out. The
// maintained validators do the checksum work where they exist; test ids are generated in sandbox/nationalIds.ts. Each
// market's canonical form and rule: docs/decisions.md "National identity numbers". Use normalizeNationalId first for
// user input.
import { idnr } from '@navikt/fnrvalidator';
import { FinnishSSN } from 'finnish-ssn';
import Personnummer from 'personnummer';

export type NationalIdCountry = 'SE' | 'NO' | 'DK' | 'FI';

/** A calendar date as ISO 'YYYY-MM-DD'. */
export type IsoDate = string;

// --- small helpers ------------------------------------------------------------------

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this month (UTC avoids DST surprises).
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

function isoIfReal(year: number, month: number, day: number): IsoDate | null {
  return isRealDate(year, month, day) ? `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` : null;
}

// --- Sweden -------------------------------------------------------------------------

function parseSwedish(id: string): IsoDate | null {
  if (!/^\d{12}$/.test(id)) return null;
  if (!Personnummer.valid(id, { allowCoordinationNumber: true, allowInterimNumber: false })) return null;
  const day = Number(id.slice(6, 8));
  return isoIfReal(Number(id.slice(0, 4)), Number(id.slice(4, 6)), day > 60 ? day - 60 : day);
}

// --- Norway -------------------------------------------------------------------------

/**
 * Century of a fødselsnummer from its individual number (folkeregisterforskriften's allocation). The combinations
 * not allocated today (500–899 with year 40–99, outside 1854–1899) are read as the 1900s, the only century where
 * such a number could belong to a living person: from 2032 the individual number no longer tells the century
 * (Skatteetaten, "Nytt fødselsnummer fra 2032"), so an unallocated combination is no reason to refuse an id.
 */
function norwegianCentury(individual: number, yy: number): number {
  if (individual <= 499) return 1900;
  if (individual <= 749 && yy >= 54) return 1800;
  if (yy <= 39) return 2000;
  return 1900;
}

function parseNorwegian(id: string): IsoDate | null {
  if (!/^\d{11}$/.test(id)) return null;
  // The library applies Skatteetaten's control digits (today's and the 2032 rule) and the D-, H- and
  // synthetic-number date offsets; it checks the day and month without the century, which we add below.
  if (idnr(id).status !== 'valid') return null;
  const dayDigits = Number(id.slice(0, 2));
  const day = dayDigits >= 40 ? dayDigits - 40 : dayDigits; // D-nummer
  const monthDigits = Number(id.slice(2, 4));
  const month = monthDigits >= 80 ? monthDigits - 80 : monthDigits >= 40 ? monthDigits - 40 : monthDigits; // synthetic, H-nummer
  const yy = Number(id.slice(4, 6));
  const century = norwegianCentury(Number(id.slice(6, 9)), yy);
  // 29 February of year 00 exists only in 2000; a number issued from 2032 may carry it with any individual number.
  return isoIfReal(century + yy, month, day) ?? isoIfReal(2000 + yy, month, day);
}

// --- Denmark ------------------------------------------------------------------------

/** Century of a CPR number from its 7th digit and two-digit year (the CPR office's table). */
function danishCentury(seventh: number, yy: number): number {
  if (seventh <= 3) return 1900;
  if (seventh === 4 || seventh === 9) return yy <= 36 ? 2000 : 1900;
  return yy <= 57 ? 2000 : 1800; // 5–8
}

function parseDanish(id: string): IsoDate | null {
  if (!/^\d{10}$/.test(id)) return null;
  const yy = Number(id.slice(4, 6));
  return isoIfReal(danishCentury(Number(id[6]), yy) + yy, Number(id.slice(2, 4)), Number(id.slice(0, 2)));
}

// --- Finland ------------------------------------------------------------------------

// Century signs; the extra 1900s and 2000s signs (U–Y, B–F) were introduced in 2023.
const FI_CENTURY: Readonly<Record<string, number>> = {
  '+': 1800,
  '-': 1900,
  U: 1900,
  V: 1900,
  W: 1900,
  X: 1900,
  Y: 1900,
  A: 2000,
  B: 2000,
  C: 2000,
  D: 2000,
  E: 2000,
  F: 2000,
};

function parseFinnish(id: string): IsoDate | null {
  const m = /^(\d{2})(\d{2})(\d{2})([-+A-FU-Y])(\d{3})([0-9A-Z])$/.exec(id);
  if (!m) return null;
  const [dd = '', mm = '', yy = '', sign = '', zzz = ''] = m.slice(1);
  const century = FI_CENTURY[sign];
  // DVV never issues individual numbers 000 and 001.
  if (century === undefined || Number(zzz) < 2) return null;
  const birthDate = isoIfReal(century + Number(yy), Number(mm), Number(dd));
  if (birthDate === null) return null;
  // finnish-ssn only knows '+' for 1850–1899 and A–F for 2000–2029, narrower than DVV's signs. The check
  // character depends on the digits alone and those years have the same leap days as 19YY, so outside its
  // range the library checks the same id with '-'.
  const libraryKnowsYear = sign === '+' ? Number(yy) >= 50 : century === 2000 ? Number(yy) <= 29 : true;
  const forLibrary = libraryKnowsYear ? id : `${id.slice(0, 6)}-${id.slice(7)}`;
  return FinnishSSN.validate(forLibrary) ? birthDate : null;
}

// --- country dispatch ---------------------------------------------------------------

const parsers: Record<NationalIdCountry, (id: string) => IsoDate | null> = {
  SE: parseSwedish,
  NO: parseNorwegian,
  DK: parseDanish,
  FI: parseFinnish,
};

/** True when id is a canonical national id of the country, as its issuing authority defines one. */
export function isValidNationalId(country: NationalIdCountry, id: string): boolean {
  return parsers[country](id) !== null;
}

/**
 * Birth date (YYYY-MM-DD) encoded in a valid national id, or null when the id is invalid. For Norwegian numbers
 * issued from 2032 the century is a best reading (see norwegianCentury); the register holds the true date.
 */
export function nationalIdBirthDate(country: NationalIdCountry, id: string): IsoDate | null {
  return parsers[country](id);
}

/**
 * Canonical form of typed input: trimmed, separators and spaces dropped (digits only) except in Finland, where the
 * century sign is part of the id and is kept (upper-cased). Does not validate.
 */
export function normalizeNationalId(country: NationalIdCountry, raw: string): string {
  const trimmed = raw.trim();
  return country === 'FI' ? trimmed.toUpperCase() : trimmed.replace(/\D/g, '');
}
