// When access opens after the nightly downtime (identification-routing-creation §9: 06:00 the next banking day), per
// market over 2026 and 2027, in the market's own time: the hours between midnight and 06:00, both daylight-saving
// changes (last Sunday of March and of October), and each market's bank closing days, including those date-holidays
// misses (shared/bankingDays.ts). Times are written with the market's UTC offset of that moment, so the expected
// instant is read without the code under test.
import { describe, expect, it } from 'vitest';
import { accessOpening, isBankingDay } from '../../shared/bankingDays.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';

type Case = [now: string, opens: string, why: string];

// Europe/Stockholm, Europe/Oslo, Europe/Copenhagen: +01:00, +02:00 from 29 March 2026 (28 March 2027) until
// 25 October 2026 (31 October 2027). Europe/Helsinki one hour more.
const commonCet = (extra: Case[]): Case[] => [
  ['2026-11-24T02:30+01:00', '2026-11-24T06:00+01:00', 'Tuesday 02:30: the same morning (the UTC date rule named Wednesday)'],
  ['2026-11-24T00:30+01:00', '2026-11-24T06:00+01:00', 'Tuesday 00:30 (still Monday in UTC)'],
  ['2026-11-24T05:59+01:00', '2026-11-24T06:00+01:00', 'a minute before opening'],
  ['2026-11-24T06:00+01:00', '2026-11-25T06:00+01:00', 'open already: the next banking day'],
  ['2026-11-27T23:30+01:00', '2026-11-30T06:00+01:00', 'Friday night: Monday'],
  ['2026-11-28T03:00+01:00', '2026-11-30T06:00+01:00', 'Saturday small hours: Monday'],
  ['2026-03-27T23:00+01:00', '2026-03-30T06:00+02:00', 'Friday before summer time: Monday on summer time'],
  ['2026-03-29T01:59+01:00', '2026-03-30T06:00+02:00', 'Sunday, a minute before the clock goes forward'],
  ['2026-03-29T03:00+02:00', '2026-03-30T06:00+02:00', 'Sunday, the moment after it went forward'],
  ['2026-03-30T05:30+02:00', '2026-03-30T06:00+02:00', 'the first Monday on summer time'],
  ['2027-03-28T04:00+02:00', '2027-03-30T06:00+02:00', '2027: summer time begins on Easter Sunday; Easter Monday is closed'],
  ['2026-10-25T02:30+02:00', '2026-10-26T06:00+01:00', 'Sunday 02:30, first time (summer time)'],
  ['2026-10-25T02:30+01:00', '2026-10-26T06:00+01:00', 'Sunday 02:30, second time (winter time)'],
  ['2026-10-26T05:30+01:00', '2026-10-26T06:00+01:00', 'the first Monday on winter time'],
  ['2026-10-23T23:00+02:00', '2026-10-26T06:00+01:00', 'Friday before winter time: Monday on winter time'],
  ['2027-10-29T22:00+02:00', '2027-11-01T06:00+01:00', '2027: Friday before the clock goes back on 31 October'],
  ['2027-10-31T02:30+01:00', '2027-11-01T06:00+01:00', '2027: Sunday 02:30 the second time'],
  ['2026-12-23T22:00+01:00', '2026-12-28T06:00+01:00', 'Christmas: 24 and 25 December closed, then the weekend'],
  ['2027-12-23T22:00+01:00', '2027-12-27T06:00+01:00', 'Christmas 2027: Christmas Eve a Friday'],
  ['2026-04-02T23:00+02:00', '2026-04-07T06:00+02:00', 'Easter 2026: Good Friday and Easter Monday closed'],
  ...extra,
];

const cases: Record<CountryCode, Case[]> = {
  SE: commonCet([
    ['2026-01-05T21:00+01:00', '2026-01-07T06:00+01:00', 'trettondedag jul'],
    ['2027-01-06T05:00+01:00', '2027-01-07T06:00+01:00', 'trettondedag jul 2027, before 06:00'],
    ['2026-04-30T03:00+02:00', '2026-04-30T06:00+02:00', 'valborgsmässoafton is a banking day'],
    ['2026-04-30T22:00+02:00', '2026-05-04T06:00+02:00', 'första maj a Friday'],
    ['2026-06-05T22:00+02:00', '2026-06-08T06:00+02:00', 'nationaldagen on a Saturday changes nothing'],
    ['2027-05-05T22:00+02:00', '2027-05-07T06:00+02:00', 'Kristi himmelsfärdsdag; the Friday after is open'],
    ['2026-06-18T22:00+02:00', '2026-06-22T06:00+02:00', 'midsommarafton closed'],
    ['2027-06-24T23:00+02:00', '2027-06-28T06:00+02:00', 'midsommarafton 2027'],
    ['2026-12-30T23:00+01:00', '2027-01-04T06:00+01:00', 'nyårsafton and nyårsdagen closed'],
    ['2027-12-30T23:00+01:00', '2028-01-03T06:00+01:00', 'nyårsafton 2027 a Friday'],
  ]),
  NO: commonCet([
    ['2026-04-01T22:00+02:00', '2026-04-07T06:00+02:00', 'skjærtorsdag, langfredag and andre påskedag closed'],
    ['2026-05-16T10:00+02:00', '2026-05-18T06:00+02:00', 'Grunnlovsdagen on a Sunday changes nothing'],
    ['2026-05-22T23:00+02:00', '2026-05-26T06:00+02:00', 'andre pinsedag'],
    ['2027-05-05T22:00+02:00', '2027-05-07T06:00+02:00', 'Kristi himmelfartsdag; the Friday after is open'],
    ['2027-05-14T23:00+02:00', '2027-05-18T06:00+02:00', 'Grunnlovsdagen and andre pinsedag the same Monday'],
    ['2026-12-30T23:00+01:00', '2027-01-04T06:00+01:00', 'nyttårsaften closed all day (the holiday starts at 14:00)'],
    ['2026-12-31T02:00+01:00', '2027-01-04T06:00+01:00', 'nyttårsaften small hours'],
    ['2027-12-31T05:00+01:00', '2028-01-03T06:00+01:00', 'nyttårsaften 2027 a Friday'],
  ]),
  DK: commonCet([
    ['2026-04-01T22:00+02:00', '2026-04-07T06:00+02:00', 'skærtorsdag, langfredag and anden påskedag closed'],
    ['2026-05-01T02:00+02:00', '2026-05-01T06:00+02:00', '1. maj is a banking day'],
    ['2026-05-13T20:00+02:00', '2026-05-18T06:00+02:00', 'Kristi himmelfartsdag and the Friday after (banklukkedag)'],
    ['2026-05-15T03:00+02:00', '2026-05-18T06:00+02:00', 'the Friday after Ascension, small hours'],
    ['2027-05-06T10:00+02:00', '2027-05-10T06:00+02:00', 'the Friday after Ascension 2027'],
    ['2026-06-04T22:00+02:00', '2026-06-08T06:00+02:00', 'Grundlovsdag closed'],
    ['2026-06-05T04:00+02:00', '2026-06-08T06:00+02:00', 'Grundlovsdag small hours'],
    ['2026-12-30T23:00+01:00', '2027-01-04T06:00+01:00', 'nytårsaftensdag closed'],
    ['2027-12-30T20:00+01:00', '2028-01-03T06:00+01:00', 'nytårsaftensdag 2027 a Friday'],
  ]),
  FI: [
    ['2026-11-24T02:30+02:00', '2026-11-24T06:00+02:00', 'Tuesday 02:30: the same morning'],
    ['2026-11-24T01:30+02:00', '2026-11-24T06:00+02:00', 'Tuesday 01:30 (still Monday in UTC)'],
    ['2026-11-24T05:59+02:00', '2026-11-24T06:00+02:00', 'a minute before opening'],
    ['2026-11-24T06:00+02:00', '2026-11-25T06:00+02:00', 'open already: the next banking day'],
    ['2026-11-27T23:30+02:00', '2026-11-30T06:00+02:00', 'Friday night: Monday'],
    ['2026-03-27T23:00+02:00', '2026-03-30T06:00+03:00', 'Friday before summer time: Monday on summer time'],
    ['2026-03-29T02:59+02:00', '2026-03-30T06:00+03:00', 'Sunday, a minute before the clock goes forward (03:00)'],
    ['2026-03-29T04:00+03:00', '2026-03-30T06:00+03:00', 'Sunday, the moment after'],
    ['2026-03-30T05:30+03:00', '2026-03-30T06:00+03:00', 'the first Monday on summer time'],
    ['2027-03-28T05:00+03:00', '2027-03-30T06:00+03:00', '2027: summer time on Easter Sunday; Easter Monday closed'],
    ['2026-10-25T03:30+03:00', '2026-10-26T06:00+02:00', 'Sunday 03:30, first time'],
    ['2026-10-25T03:30+02:00', '2026-10-26T06:00+02:00', 'Sunday 03:30, second time'],
    ['2026-10-26T05:30+02:00', '2026-10-26T06:00+02:00', 'the first Monday on winter time'],
    ['2027-10-29T22:00+03:00', '2027-11-01T06:00+02:00', '2027: Friday before the clock goes back'],
    ['2026-01-05T21:00+02:00', '2026-01-07T06:00+02:00', 'loppiainen'],
    ['2026-04-02T23:00+03:00', '2026-04-07T06:00+03:00', 'pitkäperjantai and toinen pääsiäispäivä (kiirastorstai is open)'],
    ['2026-04-30T22:00+03:00', '2026-05-04T06:00+03:00', 'vappu a Friday'],
    ['2027-05-05T22:00+03:00', '2027-05-07T06:00+03:00', 'helatorstai 2027'],
    ['2026-06-18T22:00+03:00', '2026-06-22T06:00+03:00', 'juhannusaatto closed'],
    ['2027-06-24T23:00+03:00', '2027-06-28T06:00+03:00', 'juhannusaatto 2027'],
    ['2027-12-05T23:00+02:00', '2027-12-07T06:00+02:00', 'itsenäisyyspäivä on a Monday'],
    ['2026-12-23T22:00+02:00', '2026-12-28T06:00+02:00', 'jouluaatto and joulupäivä closed'],
    ['2026-12-30T23:00+02:00', '2026-12-31T06:00+02:00', 'uudenvuodenaatto is a banking day'],
    ['2026-12-31T07:00+02:00', '2027-01-04T06:00+02:00', 'uudenvuodenpäivä closed'],
  ],
};

describe('access opens at 06:00 local time on the next banking day', () => {
  for (const [country, table] of Object.entries(cases) as Array<[CountryCode, Case[]]>) {
    it.each(table)(`${country} %s → %s (%s)`, (now, opens) => {
      const opening = accessOpening(new Date(now), country);
      expect({ at: opening.at.toISOString(), localDate: opening.localDate }).toEqual({
        at: new Date(opens).toISOString(),
        localDate: opens.slice(0, 10),
      });
    });
  }
});

// Every weekday of the year on which the market's banks are closed: any other weekday is a banking day.
const closedWeekdays: Record<CountryCode, Record<2026 | 2027, string[]>> = {
  SE: {
    2026: ['01-01', '01-06', '04-03', '04-06', '05-01', '05-14', '06-19', '12-24', '12-25', '12-31'],
    2027: ['01-01', '01-06', '03-26', '03-29', '05-06', '06-25', '12-24', '12-31'],
  },
  NO: {
    2026: ['01-01', '04-02', '04-03', '04-06', '05-01', '05-14', '05-25', '12-24', '12-25', '12-31'],
    2027: ['01-01', '03-25', '03-26', '03-29', '05-06', '05-17', '12-24', '12-31'],
  },
  DK: {
    2026: ['01-01', '04-02', '04-03', '04-06', '05-14', '05-15', '05-25', '06-05', '12-24', '12-25', '12-31'],
    2027: ['01-01', '03-25', '03-26', '03-29', '05-06', '05-07', '05-17', '12-24', '12-31'],
  },
  FI: {
    2026: ['01-01', '01-06', '04-03', '04-06', '05-01', '05-14', '06-19', '12-24', '12-25'],
    2027: ['01-01', '01-06', '03-26', '03-29', '05-06', '06-25', '12-06', '12-24'],
  },
};

describe('the bank closing weekdays of each market', () => {
  for (const [country, years] of Object.entries(closedWeekdays) as Array<[CountryCode, Record<2026 | 2027, string[]>]>) {
    for (const year of [2026, 2027] as const) {
      it(`${country} ${year}`, () => {
        const closed: string[] = [];
        for (let d = new Date(Date.UTC(year, 0, 1)); d.getUTCFullYear() === year; d.setUTCDate(d.getUTCDate() + 1)) {
          const date = d.toISOString().slice(0, 10);
          const weekday = d.getUTCDay();
          if (weekday !== 0 && weekday !== 6 && !isBankingDay(date, country)) closed.push(date.slice(5));
        }
        expect(closed).toEqual(years[year]);
      });
    }
  }

  it('no weekend day is a banking day', () => {
    expect(['2026-11-28', '2026-11-29', '2027-01-02', '2027-01-03'].filter((d) => isBankingDay(d, 'SE'))).toEqual([]);
  });
});
