// Numbers, ranges, clock times and dates as a locale writes them, all through Intl (CLDR), one form per locale
// wherever they are shown: the legacy form's bands, the brokerage stand-in's bands, the creation screen's and the
// downtime page's opening time. Pure; each format made once per locale (making one loads the locale's data).
import { cachedBy } from './cachedBy.ts';

const numberFormats = new Map<string, Intl.NumberFormat>();
const numberFormatOf = (locale: string, currency: string | null): Intl.NumberFormat =>
  cachedBy(
    numberFormats,
    `${locale} ${currency ?? ''}`,
    () => new Intl.NumberFormat(locale, currency ? { style: 'currency', currency, maximumFractionDigits: 0 } : { maximumFractionDigits: 0 }),
  );

/** A whole number, or an amount in `currency` (ISO 4217) without decimals. */
export const formatAmount = (locale: string, value: number, currency: string | null = null): string => numberFormatOf(locale, currency).format(value);

const ranges = new Map<string, string>();
/**
 * A range of whole numbers or amounts, Intl's range with its sign an en dash in every locale: Danish CLDR writes a
 * hyphen ("0-15.000 kr."), where Danish typography, like the other languages', sets ranges with an en dash.
 */
export function formatRange(locale: string, from: number, to: number, currency: string | null = null): string {
  // Formatting a range costs a page of the legacy form a fifth of its time; the bands are few.
  return cachedBy(ranges, `${locale} ${currency ?? ''} ${from} ${to}`, () =>
    numberFormatOf(locale, currency)
      .formatRangeToParts(from, to)
      .map((part) => (part.source === 'shared' && part.type === 'literal' ? part.value.replace('-', '–') : part.value))
      .join(''),
  );
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormatOf = (locale: string, timeZone: string, kind: 'time' | 'date'): Intl.DateTimeFormat =>
  cachedBy(
    dateFormats,
    `${locale} ${timeZone} ${kind}`,
    () => new Intl.DateTimeFormat(locale, kind === 'time' ? { timeStyle: 'short', timeZone } : { weekday: 'long', day: 'numeric', month: 'long', timeZone }),
  );

/** The clock time of `at` in `timeZone` ("06:00", "06.00", "6:00 AM"). */
export const formatTime = (locale: string, at: Date, timeZone: string): string => dateFormatOf(locale, timeZone, 'time').format(at);

/** A clock time of day without a date ("06:00" for hour 6), as formatTime writes it. */
export const formatClockTime = (locale: string, hour: number, minute = 0): string => formatTime(locale, new Date(Date.UTC(2000, 0, 1, hour, minute)), 'UTC');

/** The weekday and date of `at` in `timeZone` ("måndag 7 december"). */
export const formatDate = (locale: string, at: Date, timeZone: string): string => dateFormatOf(locale, timeZone, 'date').format(at);
