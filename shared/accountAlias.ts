// Account alias rules (customer-information.md §5 "Account alias", §9 alias length 2–30): which letters and emoji
// an alias may hold, its length in user-perceived characters. Pure. Choices where the spec is open:
// docs/decisions.md "Account alias".
import type { AccountTypeWithCountry } from './contracts/brokerageContract.ts';

export const ALIAS_MIN_LENGTH = 2;
export const ALIAS_MAX_LENGTH = 30;

export type AliasError = 'NOT_LONG_ENOUGH' | 'NOT_SHORT_ENOUGH' | 'CHARACTER_INVALID' | 'ONLY_SPACES';

const allowedCharacter =
  /^(?:[A-Za-z0-9åäöøæéèüàáÅÄÖØÆÉÈÜÀÁ\-&_,. ]|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200D|\uFE0F|\u20E3)$/u;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

function length(value: string): number {
  let n = 0;
  for (const _ of segmenter.segment(value)) n++;
  return n;
}

/**
 * Checks one alias as typed. An empty value is not an error: it restores the default name (see
 * aliasToSend). Only spaces → ONLY_SPACES; then characters; then the length after trimming (so one
 * character between spaces is too short).
 */
export function validateAlias(value: string): AliasError | null {
  if (value === '') return null;
  const trimmed = value.trim();
  if (trimmed === '' && /^ +$/.test(value)) return 'ONLY_SPACES';
  if (![...value].every((ch) => allowedCharacter.test(ch))) return 'CHARACTER_INVALID';
  const n = length(trimmed);
  if (n < ALIAS_MIN_LENGTH) return 'NOT_LONG_ENOUGH';
  if (n > ALIAS_MAX_LENGTH) return 'NOT_SHORT_ENOUGH';
  return null;
}

/** What is sent for a valid alias: trimmed, or the default name when the input was cleared. */
export function aliasToSend(value: string, defaultName: string): string {
  const trimmed = value.trim();
  return trimmed === '' ? defaultName : trimmed;
}

/** The message key of an error: both length errors share one text (customer-information §5). */
export function aliasErrorKey(error: AliasError): string {
  return error === 'NOT_LONG_ENOUGH' || error === 'NOT_SHORT_ENOUGH' ? 'accountAlias.error.length' : `accountAlias.error.${error}`;
}

/** The locale key of an account's default name (customer-information §5: 'Stock and Fund Account', …). */
export function defaultNameKey(account: AccountTypeWithCountry): string {
  return `account.${account.split('_')[0]}`;
}
