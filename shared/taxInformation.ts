// Tax information rules (customer-information.md §2.3 "Tax information", §4.5, §4.7, §5 "Tax identification
// numbers"). Pure: the step module (server/stages/customerInformation/steps/taxInformationStep.tsx) feeds in the
// answers, the country's validation rules from the server and today's date.

/** Tax liability (CRS) answer (customer-information §3): only the home country, the USA, or other countries. */
export const taxLiabilities = ['inOffice', 'usa', 'other'] as const;
export type TaxLiability = (typeof taxLiabilities)[number];

/** What a liability choice leads to (customer-information §4.5). */
export type LiabilityDecision = 'submitHomeOnly' | 'fatcaDialog' | 'chooseCountries';

/**
 * Home only with the address in the home country submits at once; USA, or home only with a foreign
 * address, opens the FATCA compliance dialog; other goes on to the country selection.
 */
export function decideLiability(answer: TaxLiability, home: string, addressCountry: string): LiabilityDecision {
  if (answer === 'usa') return 'fatcaDialog';
  if (answer === 'other') return 'chooseCountries';
  return addressCountry === home ? 'submitHomeOnly' : 'fatcaDialog';
}

/** What the chosen tax countries lead to (customer-information §4.5): only home → submit taxable-in-home; USA → FATCA dialog. */
export type CountriesDecision = 'chooseAtLeastOne' | 'submitHomeOnly' | 'fatcaDialog' | 'enterNumbers';

export function decideCountries(chosen: readonly string[], home: string): CountriesDecision {
  if (chosen.length === 0) return 'chooseAtLeastOne';
  // A US tax liability is FATCA whichever way it was declared.
  if (chosen.includes('US')) return 'fatcaDialog';
  if (chosen.every((c) => c === home)) return 'submitHomeOnly';
  return 'enterNumbers';
}

/** The countries that need a tax identification number: every chosen one but home. */
export function foreignTaxCountries(chosen: readonly string[], home: string): string[] {
  return [...new Set(chosen)].filter((c) => c !== home);
}

/** Per-country rules from GET tax auto-validation rules (customer-information §3): every regex must match. */
export interface TinRule {
  validationRegex: readonly string[];
  patternPlaceholder: string;
}

/** Swedish numbers: non-digits stripped, 12 digits shortened to 10 (century dropped); others trimmed. */
export function normaliseTin(country: string, value: string): string {
  if (country === 'SE') {
    const digits = value.replace(/\D/g, '');
    return digits.length === 12 ? digits.slice(2) : digits;
  }
  return value.trim();
}

export type TinError = { kind: 'required' } | { kind: 'format'; placeholder: string };

/** Checks a normalised number: present, and matching every regex rule of its country (fail if any fails). */
export function tinError(value: string, rule: TinRule | undefined): TinError | null {
  if (value === '') return { kind: 'required' };
  if (!rule) return null;
  const fails = rule.validationRegex.some((pattern) => !new RegExp(pattern).test(value));
  return fails ? { kind: 'format', placeholder: rule.patternPlaceholder } : null;
}

/** A calendar date yyyy-mm-dd that exists (no 2023-02-30). */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && y >= 1900;
}

/** Start date of a foreign tax liability: required, a real date, and not in the future (`today` yyyy-mm-dd). */
export function startDateValid(value: string, today: string): boolean {
  return isIsoDate(value) && value <= today;
}

/** With the tax-residence flag on, a tax residence country is required when home differs from the address country. */
export function taxResidenceRequired(flagOn: boolean, home: string, addressCountry: string): boolean {
  return flagOn && home !== addressCountry;
}

/** The screens of the tax step's own forms (server/stages/customerInformation/steps/taxInformationStep.tsx). */
export type TaxFormScreen = 'liability' | 'countries' | 'numbers' | 'residenceProof';

/**
 * Whether an attest post (the FATCA dialog's primary action, posted with the screen's own form) really
 * answers a FATCA decision: the liability chosen on the `liability` screen, or the countries chosen on
 * `countries`. Only then may it reset the answer to home only and submit that (customer-information §4.7).
 */
export function attestsFatca(
  post: { screen: TaxFormScreen; liability?: TaxLiability | undefined; countries?: readonly string[] | undefined },
  home: string,
  addressCountry: string,
): boolean {
  if (post.screen === 'liability') return post.liability !== undefined && decideLiability(post.liability, home, addressCountry) === 'fatcaDialog';
  if (post.screen === 'countries') return decideCountries(post.countries ?? [], home) === 'fatcaDialog';
  return false;
}

/** The proof of tax residence (customer-information §2.3): for the tax residence country chosen with the numbers when it was asked, otherwise home. */
export function taxResidenceCountryOf(asked: boolean, chosen: string | undefined, home: string): string {
  return asked && chosen ? chosen : home;
}

/**
 * The TAX_RESIDENCE case of the proof upload on entering its screen: the one already made for the same
 * country is reused; for another country it is updated (POST create case with its taskId, its files
 * forgotten: they prove another residence); without one a case is created.
 */
export function taxResidenceCasePlan(existing: { countryCode: string; taskId: string } | undefined, countryCode: string): 'reuse' | 'update' | 'create' {
  if (!existing) return 'create';
  return existing.countryCode === countryCode ? 'reuse' : 'update';
}

export interface TaxInformationListItem {
  countryCode: string;
  taxIdentificationNumber: string;
  startDate: string;
}

/** The body of POST submit tax info step (v3). */
export interface TaxInfoSubmission {
  taxableInTld: boolean;
  taxInformationListOutsideOfTld: TaxInformationListItem[];
}

export const homeOnlySubmission = (): TaxInfoSubmission => ({ taxableInTld: true, taxInformationListOutsideOfTld: [] });

/** taxableInTld is true when the home country is among the chosen; the list holds the other countries. */
export function taxInfoSubmission(
  chosen: readonly string[],
  home: string,
  numbers: Readonly<Record<string, { tin: string; startDate: string }>>,
): TaxInfoSubmission {
  return {
    taxableInTld: chosen.includes(home),
    taxInformationListOutsideOfTld: foreignTaxCountries(chosen, home).map((countryCode) => ({
      countryCode,
      taxIdentificationNumber: normaliseTin(countryCode, numbers[countryCode]?.tin ?? ''),
      startDate: numbers[countryCode]?.startDate ?? '',
    })),
  };
}

/** A server invalid-field name, e.g. taxInformationListOutsideOfTld[0].startDate, read back as country + field. */
export function invalidFieldOf(
  name: string,
  list: readonly TaxInformationListItem[],
): { countryCode: string | null; field: 'taxIdentificationNumber' | 'startDate' | 'countryCode' | 'other' } {
  const m = /^taxInformationListOutsideOfTld\[(\d+)\]\.(taxIdentificationNumber|startDate|countryCode)$/.exec(name);
  if (!m) return { countryCode: null, field: 'other' };
  return { countryCode: list[Number(m[1])]?.countryCode ?? null, field: m[2] as 'taxIdentificationNumber' | 'startDate' | 'countryCode' };
}
