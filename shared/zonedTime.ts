// Wall-clock arithmetic in a named time zone (IANA, e.g. Europe/Oslo) with Intl alone: the local date and time an
// instant shows there, and the instant at which the clock there shows a given local time. Local dates are plain
// 'YYYY-MM-DD' strings, so adding a day never passes through a daylight-saving change. Pure: no I/O.
import { cachedBy } from './cachedBy.ts';

/** What the clock in a time zone shows at an instant. */
export interface WallClock {
  /** The local calendar date, YYYY-MM-DD. */
  date: string;
  /** Minutes since local midnight (0–1439). */
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  return cachedBy(
    formatters,
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }),
  );
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function fieldsAt(instant: Date, timeZone: string): Fields {
  const parts = Object.fromEntries(
    partsFormatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const n = (type: string) => Number(parts[type]);
  return { year: n('year'), month: n('month'), day: n('day'), hour: n('hour'), minute: n('minute'), second: n('second') };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function wallClockIn(instant: Date, timeZone: string): WallClock {
  const f = fieldsAt(instant, timeZone);
  return { date: `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`, minutes: f.hour * 60 + f.minute };
}

/** How far the zone's clock is ahead of UTC at `instant`, in milliseconds (3 600 000 for CET, 7 200 000 for CEST). */
function offsetAt(instant: number, timeZone: string): number {
  const f = fieldsAt(new Date(instant), timeZone);
  const wholeSeconds = instant - (((instant % 1000) + 1000) % 1000);
  return Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second) - wholeSeconds;
}

/**
 * The instant at which the clock in `timeZone` shows `date` at `hour`:`minute`. The offset is taken at a first
 * guess and again at the instant it gives, so a date on which the clock changes gets the offset that holds at
 * that hour. (A time the clock skips or shows twice would get one of its readings; 06:00 is neither in the
 * Nordic zones, which change at 01:00 UTC.)
 */
export function instantAt(date: string, hour: number, minute: number, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const first = asUtc - offsetAt(asUtc, timeZone);
  return new Date(asUtc - offsetAt(first, timeZone));
}

/** The calendar date `days` after `date` (both YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday, of a calendar date (YYYY-MM-DD). */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}
