// What differs by market: the support number and the FAQ side panel's items. Pure; the server
// picks the market's values from configuration (SUPPORT_PHONE_SE … _FI) and renders the items this returns.
import type { CountryCode } from './contracts/brokerageContract.ts';
import { accountCode, defaultAccounts } from './accountPicker.ts';

/** One value per market, e.g. the support numbers. */
export type PerMarket<T> = Readonly<Record<CountryCode, T>>;

/** The market's own value: a Danish page shows the Danish support number, never another market's. */
export function forMarket<T>(values: PerMarket<T>, country: CountryCode): T {
  return values[country];
}

/** The market's own time zone (IANA): its local dates and times (a start date's "today", the nightly downtime's 06:00). */
/** Access opens at 06:00 in the market's time zone after nightly downtime (identification-routing-creation §9). */
export const OPENING_HOUR = 6;

export const marketTimeZones: PerMarket<string> = {
  SE: 'Europe/Stockholm',
  NO: 'Europe/Oslo',
  DK: 'Europe/Copenhagen',
  FI: 'Europe/Helsinki',
};

export type FaqItemKey = 'DEP' | 'ISK' | 'ASK' | 'DSK' | 'ESA' | 'EPK' | 'TAX' | 'PEP';

/** The item's anchor on the FAQ site (its `Read more` link). */
export const faqAnchors: Readonly<Record<FaqItemKey, string>> = {
  DEP: 'depot',
  ISK: 'investment-savings-account',
  ASK: 'equity-savings-account',
  DSK: 'equity-savings-account',
  ESA: 'equity-savings-account',
  EPK: 'epk-pension-account',
  TAX: 'us-or-foreign-tax',
  PEP: 'politically-exposed-person',
};

/**
 * customer-information §2.3 FAQ side panel: depot, the savings account, the EPK pension account, US or foreign
 * tax, PEP — each account item only where the market offers that account (customer-information §3: SE DEP and
 * ISK; NO EPK, DEP and ASK; DK DEP and DSK; FI DEP and ESA), so EPK appears in Norway alone and each market's
 * savings-account item is its own account.
 */
export function faqItemsFor(country: CountryCode): FaqItemKey[] {
  const offered = new Set(defaultAccounts(country).map((a) => accountCode(a.accountTypeWithCountry)));
  const accountItems = (['DEP', 'ISK', 'ASK', 'DSK', 'ESA', 'EPK'] as const).filter((k) => offered.has(k));
  return [...accountItems, 'TAX', 'PEP'];
}

/**
 * The mobile number the phone hint shows as an example, written internationally: the market's own, so the hint
 * in English (or Swedish in Finland) never shows another country's code. Our choice of example
 * numbers: each country's usual mobile range, as its people write it.
 */
export const phoneExamples: PerMarket<string> = {
  SE: '+46 70 123 45 67',
  NO: '+47 412 34 567',
  DK: '+45 20 12 34 56',
  FI: '+358 40 123 4567',
};
