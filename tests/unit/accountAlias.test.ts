// Account alias rules (customer-information.md §5, §9).
import { describe, expect, it } from 'vitest';
import { aliasErrorKey, aliasToSend, validateAlias } from '../../shared/accountAlias.ts';

describe('validateAlias', () => {
  it.each([
    ['My savings', null],
    ['ab', null],
    ['a'.repeat(30), null],
    ['  ab  ', null],
    ['Åke & Ängel_1, ø.æ-é è ü à á', null],
    ['Holiday 🏖️', null],
    ['👨‍👩‍👧 family', null],
    ['🇸🇪🇸🇪', null],
    ['', null],
    ['a', 'NOT_LONG_ENOUGH'],
    [' a ', 'NOT_LONG_ENOUGH'],
    ['🏖', 'NOT_LONG_ENOUGH'],
    ['a'.repeat(31), 'NOT_SHORT_ENOUGH'],
    [' '.repeat(3), 'ONLY_SPACES'],
    [' ', 'ONLY_SPACES'],
    ['savings!', 'CHARACTER_INVALID'],
    ['50% fund', 'CHARACTER_INVALID'],
    ['tab\there', 'CHARACTER_INVALID'],
    ['ñandú', 'CHARACTER_INVALID'],
    ['<script>', 'CHARACTER_INVALID'],
  ] as const)('%j → %s', (value, expected) => expect(validateAlias(value)).toBe(expected));
});

describe('aliasToSend and messages', () => {
  it.each([
    ['  My savings ', 'My savings'],
    ['', 'Stock and Fund Account'],
  ])('%j is sent as %j', (value, sent) => expect(aliasToSend(value, 'Stock and Fund Account')).toBe(sent));

  it.each([
    ['NOT_LONG_ENOUGH', 'accountAlias.error.length'],
    ['NOT_SHORT_ENOUGH', 'accountAlias.error.length'],
    ['CHARACTER_INVALID', 'accountAlias.error.CHARACTER_INVALID'],
    ['ONLY_SPACES', 'accountAlias.error.ONLY_SPACES'],
  ] as const)('%s uses %s', (error, key) => expect(aliasErrorKey(error)).toBe(key));
});
