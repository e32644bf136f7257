// E-mail address rules of the contact step (customer-information.md §5 "Contact"): validity and the 'Did you
// mean …?' suggestion. Pure, used by the server and the contactInformation island alike; apart from the phone
// rules (shared/contactInformation.ts) so that the island gets them without libphonenumber's metadata.
import { run as mailSpellCheck } from '@zootools/email-spell-checker';

// The HTML living standard's valid e-mail address (what <input type="email"> accepts), tightened: the
// domain needs at least one dot and a top-level name of 2+ letters, since mail to "a@localhost" never
// reaches a person. 254 characters is the SMTP path limit.
const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.[a-zA-Z]{2,63}$/;

export function isValidEmail(typed: string): boolean {
  const value = typed.trim();
  return value.length <= 254 && emailPattern.test(value);
}

// customer-information §5 suggestion: closeness (threshold 2 each) to common domains, second-level and top-level names.
// Common international providers plus the Nordic ones our customers use.
export const emailDomains = [
  'gmail.com',
  'googlemail.com',
  'hotmail.com',
  'hotmail.se',
  'hotmail.no',
  'hotmail.dk',
  'hotmail.fi',
  'outlook.com',
  'outlook.se',
  'outlook.dk',
  'live.com',
  'live.se',
  'live.no',
  'live.dk',
  'msn.com',
  'yahoo.com',
  'yahoo.se',
  'yahoo.no',
  'yahoo.dk',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'protonmail.com',
  'proton.me',
  'telia.com',
  'bredband.net',
  'spray.se',
  'comhem.se',
  'bahnhof.se',
  'online.no',
  'start.no',
  'getmail.no',
  'altibox.no',
  'broadpark.no',
  'jubii.dk',
  'mail.dk',
  'mail.tele.dk',
  'stofanet.dk',
  'youmail.dk',
  'kolumbus.fi',
  'luukku.com',
  'elisanet.fi',
  'suomi24.fi',
  'saunalahti.fi',
  'dnainternet.net',
];
export const emailSecondLevelDomains = [...new Set(emailDomains.map((d) => d.split('.')[0]!))];
export const emailTopLevelDomains = ['com', 'net', 'org', 'se', 'no', 'dk', 'fi', 'nu', 'eu', 'me', 'io', 'info', 'co.uk', 'de'];
export const EMAIL_SUGGESTION_THRESHOLD = 2;

/**
 * The corrected address to offer ('Did you mean …?'), or null. customer-information §5: only once the value contains a dot
 * (before that the domain is still being typed).
 */
export function suggestEmail(typed: string): string | null {
  const value = typed.trim();
  if (!value.includes('.') || !value.includes('@')) return null;
  const suggestion = mailSpellCheck({
    email: value,
    domains: emailDomains,
    secondLevelDomains: emailSecondLevelDomains,
    topLevelDomains: emailTopLevelDomains,
    domainThreshold: EMAIL_SUGGESTION_THRESHOLD,
    secondLevelThreshold: EMAIL_SUGGESTION_THRESHOLD,
    topLevelThreshold: EMAIL_SUGGESTION_THRESHOLD,
  });
  return suggestion && suggestion.full !== value ? suggestion.full : null;
}
