// Contact information rules (customer-information.md §5 "Contact", §9 phone prefixes).
import { describe, expect, it } from 'vitest';
import {
  answeredPhone,
  checkContact,
  defaultPhonePrefix,
  formatPhone,
  splitPhone,
  validatePhone,
  type PhonePrefix,
  type PhoneResult,
} from '../../shared/contactInformation.ts';
import { isValidEmail, suggestEmail } from '../../shared/emailAddress.ts';

describe('validatePhone', () => {
  const ok = (e164: string): PhoneResult => ({ ok: true, e164 });
  const invalid: PhoneResult = { ok: false, error: 'invalid' };
  const missingPlus: PhoneResult = { ok: false, error: 'missingPlus' };
  const cases: [PhonePrefix, string, PhoneResult][] = [
    // Sweden: with and without the trunk 0, any spacing; international with + or 00.
    ['46', '070 123 45 67', ok('+46701234567')],
    ['46', '70-123 45 67', ok('+46701234567')],
    ['46', '+46 70 123 45 67', ok('+46701234567')],
    ['46', '0046701234567', ok('+46701234567')],
    ['46', '46701234567', missingPlus],
    ['46', '08 123 456 78', invalid], // a Stockholm landline is not a mobile number
    ['46', '070 123', invalid],
    ['46', 'seventy', invalid],
    ['46', '', invalid],
    // Norway: 8-digit mobiles starting with 4 or 9; one starting with the prefix digits stays national.
    ['47', '412 34 567', ok('+4741234567')],
    ['47', '47123456', ok('+4747123456')],
    ['47', '4741234567', missingPlus],
    ['47', '2212 3456', invalid], // Oslo landline
    // Denmark.
    ['45', '20 12 34 56', ok('+4520123456')],
    ['45', '4520123456', missingPlus],
    ['45', '2012345', invalid],
    // Finland.
    ['358', '040 123 4567', ok('+358401234567')],
    ['358', '358401234567', missingPlus],
    ['358', '09 1234 567', invalid], // Helsinki landline
    // A full international number wins over the selected prefix: any country's mobile is accepted.
    ['46', '+47 412 34 567', ok('+4741234567')],
    ['46', '+44 7400 123456', ok('+447400123456')],
    ['46', '4520123456', missingPlus],
    ['46', '+46 8 123 456 78', invalid],
  ];
  it.each(cases)('prefix %s, "%s"', (prefix, typed, expected) => {
    expect(validatePhone(prefix, typed)).toEqual(expected);
  });
});

describe('phone prefixes', () => {
  it.each([
    ['SE', '46'],
    ['NO', '47'],
    ['DK', '45'],
    ['FI', '358'],
  ] as const)('default for %s is %s', (country, prefix) => {
    expect(defaultPhonePrefix(country)).toBe(prefix);
  });

  it.each([
    ['+46701234567', '47', { prefix: '46', number: '070-123 45 67' }],
    ['+358401234567', '46', { prefix: '358', number: '040 1234567' }],
    ['+447400123456', '46', { prefix: '46', number: '+44 7400 123456' }],
  ] as const)('splits %s for the form', (e164, fallback, expected) => {
    expect(splitPhone(e164, fallback)).toEqual(expected);
    // The form's check reads what it shows back as the same number.
    expect(validatePhone(expected.prefix, expected.number)).toEqual({ ok: true, e164 });
  });
});

describe("formatPhone: the market's own number in its national format, any other international", () => {
  const cases: ['SE' | 'NO' | 'DK' | 'FI', string, string][] = [
    ['SE', '+46701234567', '070-123 45 67'],
    ['NO', '+4741234567', '41 23 45 67'],
    ['NO', '+4747123456', '47 12 34 56'], // a Norwegian number starting with the calling code's digits
    ['DK', '+4520123456', '20 12 34 56'],
    ['FI', '+358401234567', '040 1234567'],
    ['SE', '+358401234567', '+358 40 1234567'],
    ['FI', '+46701234567', '+46 70 123 45 67'],
    ['DK', '+4741234567', '+47 41 23 45 67'],
    ['SE', '+447400123456', '+44 7400 123456'],
    ['SE', 'not a number', 'not a number'],
  ];
  it.each(cases)('%s: %s → %s', (market, e164, shown) => {
    expect(formatPhone(e164, market)).toBe(shown);
  });
  // What the legacy form pre-fills, its check (the market's prefix, no select) reads back as the same number.
  it.each(cases.filter(([, e164]) => e164.startsWith('+')))('%s: %s reads back from its formatted form', (market, e164) => {
    expect(validatePhone(defaultPhonePrefix(market), formatPhone(e164, market))).toEqual({ ok: true, e164 });
  });
});

describe("answeredPhone: the contact answer's E.164 number", () => {
  it.each([
    [{ prefix: '46', phone: '070-123 45 67', mobilePhoneNumber: '+46701234567' }, '+46701234567'],
    // Typed and valid, not yet accepted: read as the check reads it.
    [{ prefix: '46', phone: '0046701234567' }, '+46701234567'],
    [{ prefix: '46', phone: '+358401234567' }, '+358401234567'],
    [{ prefix: '358', phone: '040 1234567' }, '+358401234567'],
    [{ prefix: '46', phone: '070 123' }, null],
  ] as const)('%o → %s', (answer, expected) => {
    expect(answeredPhone(answer)).toBe(expected);
  });
});

describe('isValidEmail', () => {
  it.each([
    ['test@example.com', true],
    [' test@example.com ', true],
    ['first.last+tag@sub.example.co.uk', true],
    ["o'brien@example.ie", true],
    ['test@example', false],
    ['test@example.c', false],
    ['test.example.com', false],
    ['test@@example.com', false],
    ['test @example.com', false],
    ['test@-example.com', false],
    ['', false],
    [`${'a'.repeat(250)}@example.com`, false],
  ])('"%s" → %s', (value, expected) => {
    expect(isValidEmail(value)).toBe(expected);
  });
});

describe('suggestEmail', () => {
  it.each([
    ['test@gmial.com', 'test@gmail.com'],
    ['test@hotmial.se', 'test@hotmail.se'],
    ['test@gmail.con', 'test@gmail.com'],
    ['test@outlok.com', 'test@outlook.com'],
    ['test@yaho.com', 'test@yahoo.com'],
    ['test@live.sw', 'test@live.se'],
    ['test@luuku.com', 'test@luukku.com'],
    ['test@kolumbs.fi', 'test@kolumbus.fi'],
    ['test@telia.con', 'test@telia.com'],
    // Correct or unrelated domains get nothing.
    ['test@gmail.com', null],
    ['test@example.com', null],
    ['test@elisanet.fi', null],
    // customer-information §5: only once the value contains a dot.
    ['test@gmial', null],
    ['test@', null],
  ])('"%s" → %s', (value, expected) => {
    expect(suggestEmail(value)).toBe(expected);
  });
});

describe('checkContact', () => {
  it('answers the values to send when both are valid', () => {
    expect(checkContact({ prefix: '46', phone: '070-123 45 67', email: ' test@example.com ' })).toEqual({
      ok: true,
      mobilePhoneNumber: '+46701234567',
      email: 'test@example.com',
    });
  });

  it.each([
    [{ prefix: '46', phone: '46701234567', email: 'test@example.com' }, { phone: 'phoneMissingPlus' }],
    [{ prefix: '46', phone: '123', email: 'test@example.com' }, { phone: 'phone' }],
    [{ prefix: '46', phone: '0701234567', email: 'test@' }, { email: 'email' }],
    [
      { prefix: '46', phone: '', email: '' },
      { phone: 'phone', email: 'email' },
    ],
  ] as const)('names each invalid field: %o', (input, errors) => {
    expect(checkContact(input)).toEqual({ ok: false, errors });
  });
});
