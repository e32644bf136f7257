// The carried entry query's one rule (shared/carriedQuery.ts): what the start page keeps is
// exactly what the legacy signature request can carry (shared/contracts/legacyContract.ts), so a value accepted at entry
// can always be sent; what could not be is dropped at entry, and said so.
import { describe, expect, it } from 'vitest';
import { CARRIED_NAME_MAX, CARRIED_PARAMS_MAX, CARRIED_VALUE_MAX, carryQuery, type DroppedParam } from '../../shared/carriedQuery.ts';
import { legacySignatureRequest } from '../../shared/contracts/legacyContract.ts';

const x = (n: number) => 'x'.repeat(n);
const many = (n: number, prefix = 'p') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'v']));
/** The legacy signature request with these query params, the rest valid. */
const signatureWith = (queryParams: Record<string, string>) =>
  legacySignatureRequest.safeParse({
    cancel_url: 'https://example.test/cancel',
    complete_url: 'https://example.test/complete',
    postpone_url: 'https://example.test/postpone',
    lang: 'sv',
    nextUrl: 'https://example.test/complete',
    queryParams,
    epk: false,
  });

const cases: { why: string; query: Record<string, unknown>; already?: Record<string, string>; kept: Record<string, string>; dropped: DroppedParam[] }[] = [
  {
    why: 'plain values are carried',
    query: { utm_source: 'newsletter', clientId: 'partner-1' },
    kept: { utm_source: 'newsletter', clientId: 'partner-1' },
    dropped: [],
  },
  {
    why: 'the provider’s one-time values are not carried, silently',
    query: { code: 'c', state: 's', error: 'e', error_description: 'd', lang: 'sv' },
    kept: {},
    dropped: [],
  },
  { why: `a value of ${CARRIED_VALUE_MAX} characters is carried`, query: { utm_campaign: x(500) }, kept: { utm_campaign: x(500) }, dropped: [] },
  {
    why: 'a value of 501 characters is dropped',
    query: { utm_campaign: x(501), a: 'b' },
    kept: { a: 'b' },
    dropped: [{ param: 'utm_campaign', length: 501, reason: 'valueTooLong' }],
  },
  {
    why: 'a value of 512 characters is dropped',
    query: { utm_campaign: x(512) },
    kept: {},
    dropped: [{ param: 'utm_campaign', length: 512, reason: 'valueTooLong' }],
  },
  { why: 'an empty value is carried', query: { flag: '' }, kept: { flag: '' }, dropped: [] },
  { why: `a name of ${CARRIED_NAME_MAX} characters is carried`, query: { [x(64)]: 'v' }, kept: { [x(64)]: 'v' }, dropped: [] },
  { why: 'a longer name is dropped (named cut to the limit)', query: { [x(65)]: 'v' }, kept: {}, dropped: [{ param: x(64), length: 1, reason: 'badName' }] },
  { why: 'an empty name is dropped', query: { '': 'v' }, kept: {}, dropped: [{ param: '', length: 1, reason: 'badName' }] },
  { why: 'a repeated parameter (a list) is dropped', query: { tag: ['a', 'b'] }, kept: {}, dropped: [{ param: 'tag', length: 0, reason: 'notText' }] },
  {
    why: 'a later entry updates a carried value',
    query: { utm_source: 'ad' },
    already: { utm_source: 'newsletter', a: 'b' },
    kept: { utm_source: 'ad', a: 'b' },
    dropped: [],
  },
  {
    why: 'a later too-long value leaves the carried one',
    query: { utm_source: x(501) },
    already: { utm_source: 'newsletter' },
    kept: { utm_source: 'newsletter' },
    dropped: [{ param: 'utm_source', length: 501, reason: 'valueTooLong' }],
  },
  { why: `${CARRIED_PARAMS_MAX} parameters are carried`, query: many(20), kept: many(20), dropped: [] },
  { why: 'the 21st is dropped', query: many(21), kept: many(20), dropped: [{ param: 'p20', length: 1, reason: 'tooMany' }] },
  {
    why: 'the count holds over entries; a carried name is still updated',
    query: { p0: 'w', q: 'v' },
    already: many(20),
    kept: { ...many(20), p0: 'w' },
    dropped: [{ param: 'q', length: 1, reason: 'tooMany' }],
  },
  // identification-routing-creation §2 Onboarding query: clientId a short token, epk true or false (shared/carriedQuery.ts).
  {
    why: 'a clientId of letters, digits, dot, dash and underscore, and epk=true, are carried',
    query: { clientId: 'App_1.ios-2', epk: 'true' },
    kept: { clientId: 'App_1.ios-2', epk: 'true' },
    dropped: [],
  },
  {
    why: 'a clientId or epk in another shape is dropped, the carried one kept',
    query: { clientId: 'a b<script>', epk: 'yes' },
    already: { clientId: 'partner-1' },
    kept: { clientId: 'partner-1' },
    dropped: [
      { param: 'clientId', length: 11, reason: 'badValue' },
      { param: 'epk', length: 3, reason: 'badValue' },
    ],
  },
  { why: 'a clientId over 64 characters is dropped', query: { clientId: x(65) }, kept: {}, dropped: [{ param: 'clientId', length: 65, reason: 'badValue' }] },
  {
    why: 'clientUrl is carried as given (checked where it redirects, shared/redirectTarget.ts)',
    query: { clientUrl: '//evil.example' },
    kept: { clientUrl: '//evil.example' },
    dropped: [],
  },
  {
    why: 'a parameter named __proto__ stays a plain value',
    query: JSON.parse('{"__proto__":"v"}') as Record<string, unknown>,
    kept: JSON.parse('{"__proto__":"v"}') as Record<string, string>,
    dropped: [],
  },
];

describe('carryQuery: what the start page carries, what it drops', () => {
  it.each(cases)('$why', ({ query, already, kept, dropped }) => {
    const carried = carryQuery(query, already);
    expect(carried).toEqual({ kept, dropped });
    expect(Object.getPrototypeOf(carried.kept)).toBe(Object.prototype);
  });
});

describe('every value accepted at entry can be sent with the legacy signature request', () => {
  it.each(cases)('$why', ({ query, already }) => {
    const { kept } = carryQuery(query, already);
    expect(signatureWith(kept).success).toBe(true);
  });

  it('and what entry drops, the request would refuse (the limits are the same)', () => {
    expect(signatureWith({ utm_campaign: x(CARRIED_VALUE_MAX + 1) }).success).toBe(false);
    expect(signatureWith({ [x(CARRIED_NAME_MAX + 1)]: 'v' }).success).toBe(false);
    expect(signatureWith(many(CARRIED_PARAMS_MAX + 1)).success).toBe(false);
  });

  it('whatever the entries, in any number and length', () => {
    // Deterministic pseudo-random entries around every limit.
    let seed = 17;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    let carried: Record<string, string> = {};
    for (let entry = 0; entry < 200; entry++) {
      const query: Record<string, unknown> = {};
      for (let i = next(6); i > 0; i--) query[x(1 + next(70)).slice(0, 1 + next(70)) + String(next(40))] = x(next(3) === 0 ? 490 + next(30) : next(20));
      carried = carryQuery(query, carried).kept;
      expect(signatureWith(carried).success).toBe(true);
    }
  });
});
