// Nightly downtime: access opens at 06:00 the next banking day (identification-routing-creation §2 "Nightly-downtime
// page", §8 nightly_downtime, §9), in the market's own time zone. Banking days are the weekdays on which the market's
// banks are open: not the public holidays date-holidays keeps, nor the bank closing days it misses (below). Pure.
import Holidays from 'date-holidays';
import type { CountryCode } from './contracts/brokerageContract.ts';
import { marketTimeZones, OPENING_HOUR, type PerMarket } from './markets.ts';
import { addDays, instantAt, wallClockIn, weekdayOf } from './zonedTime.ts';
import { cachedBy } from './cachedBy.ts';

/** A correction to date-holidays' calendar, in its own rule syntax ('MM-DD', 'easter N'). */
interface CalendarCorrection {
  rule: string;
  name: string;
  /** 'bank': the banks are closed; 'observance': they are open although date-holidays closes them. */
  type: 'bank' | 'observance';
}

/**
 * Where date-holidays (3.37, checked over 2026–2027) and the banks disagree. date-holidays already closes Sweden's
 * midsommarafton, julafton and nyårsafton, Finland's juhannusaatto and jouluaatto, and Norway's julaften and
 * nyttårsaften (type 'bank'; nyttårsaften from 14:00 there, here the whole date).
 */
const corrections: PerMarket<readonly CalendarCorrection[]> = {
  // Danmarks Nationalbank / Finans Danmark, "bankernes lukkedage": date-holidays has Grundlovsdag and juleaftensdag
  // as observances only, and neither nytårsaftensdag nor the Friday after Ascension (the banks' own closing day).
  DK: [
    { rule: '06-05', name: 'Grundlovsdag', type: 'bank' },
    { rule: '12-24', name: 'Juleaftensdag', type: 'bank' },
    { rule: '12-31', name: 'Nytårsaftensdag', type: 'bank' },
    { rule: 'easter 40', name: 'Fredag efter Kristi himmelfartsdag', type: 'bank' },
  ],
  // Suomen Pankki's bank holidays (pankkivapaapäivät) have juhannusaatto and jouluaatto but not uudenvuodenaatto,
  // when the banks are open (closing early); date-holidays marks it a bank holiday.
  FI: [{ rule: '12-31', name: 'Uudenvuodenaatto', type: 'observance' }],
  // Norges Bank / Finans Norge: the public holidays, julaften and nyttårsaften; all in date-holidays.
  NO: [],
  // Swedish bank days (bankdagar): not the public holidays, midsommarafton, julafton or nyårsafton; all in date-holidays.
  SE: [],
};

const calendars = new Map<CountryCode, Holidays>();
function calendarOf(country: CountryCode): Holidays {
  return cachedBy(calendars, country, () => {
    const calendar = new Holidays(country);
    for (const { rule, name, type } of corrections[country]) {
      if (!calendar.setHoliday(rule, { name, type })) throw new Error(`date-holidays refused the rule ${rule} (${country})`);
    }
    return calendar;
  });
}

const closingDaysByYear = new Map<string, ReadonlySet<string>>();
/** The market's weekday-independent bank closing dates of a year (YYYY-MM-DD, local). */
function closingDays(country: CountryCode, year: number): ReadonlySet<string> {
  // Only public holidays and bank holidays close the banks; observances and optional days do not. A holiday's
  // `date` is local ("2026-12-31 14:00:00"): the whole date counts, whenever in the day it starts.
  return cachedBy(
    closingDaysByYear,
    `${country}${year}`,
    () =>
      new Set(
        calendarOf(country)
          .getHolidays(year)
          .filter((h) => h.type === 'public' || h.type === 'bank')
          .map((h) => h.date.slice(0, 10)),
      ),
  );
}

/** A local calendar date (YYYY-MM-DD) on which the market's banks are open: a weekday that is no closing day. */
export function isBankingDay(date: string, country: CountryCode): boolean {
  const weekday = weekdayOf(date);
  if (weekday === 0 || weekday === 6) return false;
  return !closingDays(country, Number(date.slice(0, 4))).has(date);
}

export interface AccessOpening {
  /** The instant access opens. */
  at: Date;
  /** Its date in the market's time zone (YYYY-MM-DD). */
  localDate: string;
  timeZone: string;
}

/**
 * When access opens after `now`: 06:00 in the market's time zone on the next banking day there; before 06:00 on a
 * banking day, that same day's 06:00.
 */
export function accessOpening(now: Date, country: CountryCode): AccessOpening {
  const timeZone = marketTimeZones[country];
  const { date, minutes } = wallClockIn(now, timeZone);
  let localDate = minutes < OPENING_HOUR * 60 && isBankingDay(date, country) ? date : addDays(date, 1);
  while (!isBankingDay(localDate, country)) localDate = addDays(localDate, 1);
  return { at: instantAt(localDate, OPENING_HOUR, 0, timeZone), localDate, timeZone };
}
