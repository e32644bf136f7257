// Nightly downtime: access opens at 06:00 on the following banking day (identification-routing-creation §9). Banking days are
// weekdays that are not public holidays in the country (date-holidays keeps the calendars).
import Holidays from 'date-holidays';
import type { CountryCode } from './contracts/brokerageContract.ts';

const calendars = new Map<CountryCode, Holidays>();
function calendar(country: CountryCode): Holidays {
  let h = calendars.get(country);
  if (!h) {
    h = new Holidays(country);
    calendars.set(country, h);
  }
  return h;
}

export function isBankingDay(date: Date, country: CountryCode): boolean {
  const day = date.getUTCDay();
  if (day === 0 || day === 6) return false;
  const holidays = calendar(country).isHoliday(date);
  // Only public holidays close the banks; observances (e.g. Valentine's day) do not. Bank holidays
  // (Midsummer Eve, Christmas Eve, New Year's Eve in the Nordics) do.
  return !(holidays || []).some((h) => h.type === 'public' || h.type === 'bank');
}

/** The calendar date (YYYY-MM-DD) of the banking day after `now`. */
export function nextBankingDay(now: Date, country: CountryCode): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12));
  do d.setUTCDate(d.getUTCDate() + 1);
  while (!isBankingDay(d, country));
  return d.toISOString().slice(0, 10);
}
