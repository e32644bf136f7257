// Contact information rules (customer-information.md §2.3, §5 "Contact", §9 phone prefixes). Pure: used by
// the server on every submit and by the contactInformation island on blur, so both judge alike. No zod
// here: the island bundle stays small. The island loads this module (libphonenumber's metadata) only after
// its first render; the e-mail rules it needs at once are in shared/emailAddress.ts.
import { parsePhoneNumberFromString, type CountryCode as PhoneCountry } from 'libphonenumber-js/mobile';
import { isValidEmail } from './emailAddress.ts';

type Country = 'SE' | 'NO' | 'DK' | 'FI';

/** customer-information §9: calling code per country (46 SE, 47 NO, 45 DK, 358 FI), in the order the select lists them. */
export const phonePrefixes = [
  { prefix: '46', country: 'SE' },
  { prefix: '47', country: 'NO' },
  { prefix: '45', country: 'DK' },
  { prefix: '358', country: 'FI' },
] as const satisfies readonly { prefix: string; country: Country }[];
export type PhonePrefix = (typeof phonePrefixes)[number]['prefix'];

export function isPhonePrefix(value: unknown): value is PhonePrefix {
  return phonePrefixes.some((p) => p.prefix === value);
}

/** customer-information §5: the default prefix comes from the active country. */
export function defaultPhonePrefix(country: Country): PhonePrefix {
  return phonePrefixes.find((p) => p.country === country)!.prefix;
}

export type PhoneResult = { ok: true; e164: string } | { ok: false; error: 'invalid' | 'missingPlus' };

/**
 * Validates the phone field as a mobile number of any country (libphonenumber-js "mobile" metadata). Starting with +
 * or 00: international, the prefix select ignored; else within the selected prefix's country, with or without its
 * trunk 0. A number valid only with a + put in front (46701234567) gives 'missingPlus', so the message can say what to
 * fix; a national number starting with the prefix digits (Norwegian 47 12 34 56) stays national.
 */
export function validatePhone(prefix: PhonePrefix, typed: string): PhoneResult {
  const value = typed.trim();
  // People type spaces, dashes, dots, slashes and brackets; anything else (letters) makes it invalid.
  if (!/^\+?[\d\s\-./()]{4,30}$/.test(value)) return { ok: false, error: 'invalid' };
  const country: PhoneCountry = phonePrefixes.find((p) => p.prefix === prefix)!.country;
  const international = value.startsWith('+') || value.startsWith('00');
  const asTyped = parsePhoneNumberFromString(value, country);
  // libphonenumber quietly reads 46701234567 as +46 70 123 45 67 by stripping the calling code. We ask
  // for the plus instead (customer-information §5), so a number typed internationally is always typed the same way.
  const strippedCallingCode = !international && asTyped?.nationalNumber === value.replace(/\D/g, '').slice(prefix.length);
  if (asTyped?.isValid() && !strippedCallingCode) return { ok: true, e164: asTyped.number };
  if (!international && !value.startsWith('0')) {
    const withPlus = parsePhoneNumberFromString(`+${value}`);
    if (withPlus?.isValid()) return { ok: false, error: 'missingPlus' };
  }
  return { ok: false, error: 'invalid' };
}

/**
 * An E.164 number as the person reads it (customer-information §5 "Contact"; the spec is silent on the format,
 * our choice): a number of the market's own country in that country's national format (070-123 45 67 in
 * Sweden, 040 1234567 in Finland), any other in the international format (+358 40 1234567), so it never
 * looks like a local number. Either form reads back as the same number (validatePhone with the market's
 * prefix), so a form can be pre-filled with it. A value that does not parse is shown as it is.
 */
export function formatPhone(e164: string, market: Country): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.country === market ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * An E.164 number as the contact form shows it: the prefix select at its calling code and the national number
 * formatted (070-123 45 67) when the prefix is one of ours, else the fallback prefix and the international format
 * (a number typed with + ignores the select).
 */
export function splitPhone(e164: string, fallback: PhonePrefix): { prefix: PhonePrefix; number: string } {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return { prefix: fallback, number: e164 };
  if (isPhonePrefix(parsed.countryCallingCode)) return { prefix: parsed.countryCallingCode, number: parsed.formatNational() };
  return { prefix: fallback, number: parsed.formatInternational() };
}

/**
 * The contact step's answer as the session keeps it (server/journey.ts StepAnswers): the fields as last typed,
 * and once the brokerage accepted them, `mobilePhoneNumber` — the number in E.164, stored once, that every later
 * screen reads (milestone three's summary, the legacy form's pre-fill) and shows with formatPhone.
 */
export interface ContactAnswer {
  prefix: PhonePrefix;
  phone: string;
  email: string;
  suggestionShownFor?: string;
  mobilePhoneNumber?: string;
}

/** The E.164 number of a contact answer: as accepted, else as typed when it is valid, else null. */
export function answeredPhone(answer: Pick<ContactAnswer, 'prefix' | 'phone' | 'mobilePhoneNumber'>): string | null {
  if (answer.mobilePhoneNumber) return answer.mobilePhoneNumber;
  const typed = validatePhone(answer.prefix, answer.phone);
  return typed.ok ? typed.e164 : null;
}

/** customer-information §2.3: where the registered address comes from, and where to correct it, per country. */
export const populationRegisterAuthorities: Record<Country, { name: string; url: string }> = {
  SE: { name: 'Skatteverket', url: 'https://www.skatteverket.se/privat/folkbokforing' },
  NO: { name: 'Folkeregisteret (Skatteetaten)', url: 'https://www.skatteetaten.no/person/folkeregister/' },
  DK: { name: 'CPR (borger.dk)', url: 'https://www.borger.dk/flytning-og-adresse' },
  FI: { name: 'DVV', url: 'https://dvv.fi/en/individuals' },
};

/** What the contact form posts and shows; each field as typed, so a re-render keeps the input. */
export interface ContactInput {
  prefix: PhonePrefix;
  phone: string;
  email: string;
}

export type ContactField = 'email' | 'phone';
/** The message key of each field's error (locales: contactInformation.error.*). */
export type ContactError = 'email' | 'phone' | 'phoneMissingPlus' | 'emailApi' | 'phoneApi';

/** customer-information §5: both fields checked; on success the values the submit call sends. */
export function checkContact(
  input: ContactInput,
): { ok: true; mobilePhoneNumber: string; email: string } | { ok: false; errors: Partial<Record<ContactField, ContactError>> } {
  const phone = validatePhone(input.prefix, input.phone);
  const emailOk = isValidEmail(input.email);
  if (phone.ok && emailOk) return { ok: true, mobilePhoneNumber: phone.e164, email: input.email.trim() };
  const errors: Partial<Record<ContactField, ContactError>> = {};
  if (!phone.ok) errors.phone = phone.error === 'missingPlus' ? 'phoneMissingPlus' : 'phone';
  if (!emailOk) errors.email = 'email';
  return { ok: false, errors };
}
