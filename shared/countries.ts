// Country options of the citizenship (and tax, residency) country lists (customer-information.md §3
// "Country option"): ISO 3166-1 alpha-2 codes plus Kosovo (XK, user-assigned but used by authorities),
// labelled in the page's language with Intl.DisplayNames, so no country name lives in a catalogue.
import type { Locale } from './i18n.ts';

// prettier-ignore
export const countryCodes = [
  'AD','AE','AF','AG','AI','AL','AM','AO','AQ','AR','AS','AT','AU','AW','AX','AZ','BA','BB','BD','BE','BF','BG','BH','BI','BJ','BL',
  'BM','BN','BO','BQ','BR','BS','BT','BV','BW','BY','BZ','CA','CC','CD','CF','CG','CH','CI','CK','CL','CM','CN','CO','CR','CU','CV',
  'CW','CX','CY','CZ','DE','DJ','DK','DM','DO','DZ','EC','EE','EG','EH','ER','ES','ET','FI','FJ','FK','FM','FO','FR','GA','GB','GD',
  'GE','GF','GG','GH','GI','GL','GM','GN','GP','GQ','GR','GS','GT','GU','GW','GY','HK','HM','HN','HR','HT','HU','ID','IE','IL','IM',
  'IN','IO','IQ','IR','IS','IT','JE','JM','JO','JP','KE','KG','KH','KI','KM','KN','KP','KR','KW','KY','KZ','LA','LB','LC','LI','LK',
  'LR','LS','LT','LU','LV','LY','MA','MC','MD','ME','MF','MG','MH','MK','ML','MM','MN','MO','MP','MQ','MR','MS','MT','MU','MV','MW',
  'MX','MY','MZ','NA','NC','NE','NF','NG','NI','NL','NO','NP','NR','NU','NZ','OM','PA','PE','PF','PG','PH','PK','PL','PM','PN','PR',
  'PS','PT','PW','PY','QA','RE','RO','RS','RU','RW','SA','SB','SC','SD','SE','SG','SH','SI','SJ','SK','SL','SM','SN','SO','SR','SS',
  'ST','SV','SX','SY','SZ','TC','TD','TF','TG','TH','TJ','TK','TL','TM','TN','TO','TR','TT','TV','TW','TZ','UA','UG','UM','US','UY',
  'UZ','VA','VC','VE','VG','VI','VN','VU','WF','WS','XK','YE','YT','ZA','ZM','ZW',
] as const;
export type IsoCountryCode = (typeof countryCodes)[number];

const known: ReadonlySet<string> = new Set(countryCodes);
export const isCountryCode = (value: string): value is IsoCountryCode => known.has(value);
export const isIsoCountryCode = isCountryCode;

export interface CountryOption {
  value: IsoCountryCode;
  label: string;
}

const cache = new Map<Locale, CountryOption[]>();

/** Every country, labelled in `locale` and sorted the way that language sorts. */
export function countryOptions(locale: Locale): CountryOption[] {
  let options = cache.get(locale);
  if (!options) {
    const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    const collator = new Intl.Collator(locale);
    options = countryCodes.map((value) => ({ value, label: names.of(value) ?? value })).sort((a, b) => collator.compare(a.label, b.label));
    cache.set(locale, options);
  }
  return options;
}

/** One country's name in `locale`. */
export function countryName(code: string, locale: Locale): string {
  return countryOptions(locale).find((o) => o.value === code)?.label ?? code;
}

/** customer-information §2.3: the search matches the start of the label, ignoring case (å, ä, ö stay letters of their own). */
export function matchesCountrySearch(label: string, query: string, locale?: Locale): boolean {
  return label.toLocaleLowerCase(locale).startsWith(query.trim().toLocaleLowerCase(locale));
}

export function searchCountries<T extends { label: string }>(options: readonly T[], query: string, locale?: Locale): T[] {
  return options.filter((o) => matchesCountrySearch(o.label, query, locale));
}
