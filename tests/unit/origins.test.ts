// Our own origins come from configuration only (server/origins.ts): a request's host picks one by exact
// match, anything else gets PUBLIC_URL's origin and the default market.
import { describe, expect, it } from 'vitest';
import type { Request } from 'express';
import { ownOriginOf, ownOrigins } from '../../server/origins.ts';

const config = {
  publicUrl: 'https://onboarding.example.se',
  countryByHost: new Map([
    ['onboarding.example.se', 'SE'],
    ['onboarding.example.dk', 'DK'],
  ] as const),
};
const req = (host: string | undefined) => ({ host }) as unknown as Request;

describe('ownOrigins', () => {
  it('PUBLIC_URL first, then each market host with its scheme and port', () => {
    expect(ownOrigins(config)).toEqual([
      { origin: 'https://onboarding.example.se', host: 'onboarding.example.se', country: 'SE' },
      { origin: 'https://onboarding.example.dk', host: 'onboarding.example.dk', country: 'DK' },
    ]);
    expect(ownOrigins({ publicUrl: 'http://127.0.0.1:3000', countryByHost: new Map([['dk.localhost', 'DK']]) }).map((o) => o.origin)).toEqual([
      'http://127.0.0.1:3000',
      'http://dk.localhost:3000',
    ]);
  });
});

describe('ownOriginOf', () => {
  it.each([
    ['onboarding.example.dk', 'https://onboarding.example.dk', 'DK'],
    ['ONBOARDING.EXAMPLE.DK', 'https://onboarding.example.dk', 'DK'],
    ['onboarding.example.se', 'https://onboarding.example.se', 'SE'],
    // Only an exact match counts: user info, another port, a suffix or an unknown host get PUBLIC_URL.
    ['onboarding.example.dk@evil.example', 'https://onboarding.example.se', 'SE'],
    ['onboarding.example.dk:443@evil.example', 'https://onboarding.example.se', 'SE'],
    ['onboarding.example.dk:8443', 'https://onboarding.example.se', 'SE'],
    ['onboarding.example.dk.evil.example', 'https://onboarding.example.se', 'SE'],
    ['evil.example', 'https://onboarding.example.se', 'SE'],
    ['', 'https://onboarding.example.se', 'SE'],
    [undefined, 'https://onboarding.example.se', 'SE'],
  ])('host %j → %s (%s)', (host, origin, country) => {
    const own = ownOriginOf(req(host), config);
    expect(own.origin).toBe(origin);
    expect(own.country).toBe(country);
  });
});
