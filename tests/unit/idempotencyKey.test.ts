// The Idempotency-Key header's value (shared/contracts/brokerageContract.ts; the IETF httpapi draft's sf-string): what is a key.
import { describe, expect, it } from 'vitest';
import { idempotencyKeyHeaderValue, parseIdempotencyKeyHeader } from '../../shared/contracts/brokerageContract.ts';

describe('Idempotency-Key header value', () => {
  it.each([
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    [' "abc_DEF-123" ', 'abc_DEF-123'],
    ['"a b"', 'a b'],
    ['8e03978e', null],
    ['""', null],
    ['"a"b"', null],
    ['"a\\\\b"', null],
    [`"${'x'.repeat(256)}"`, null],
    ['"tab\there"', null],
  ])('%j → %j', (header, key) => {
    expect(parseIdempotencyKeyHeader(header)).toBe(key);
  });

  it('a key sent is the key read', () => {
    expect(parseIdempotencyKeyHeader(idempotencyKeyHeaderValue('u4Ld-9_x'))).toBe('u4Ld-9_x');
    expect(() => idempotencyKeyHeaderValue('with "quotes"')).toThrow();
  });
});
