// The creation event stream's route ahead of Express (server/leanRoute.ts) matches its path as Express did.
import { describe, expect, it } from 'vitest';
import { leanSecurityHeaders, patternMatcher } from '../../server/leanRoute.ts';
import { routePatterns, routes } from '../../shared/routes.ts';

describe('patternMatcher', () => {
  const events = patternMatcher(routePatterns.customerCreationEvents);

  it("answers the parameter as sent (still encoded), as Express's pattern matches it", () => {
    expect(events(routes.customerCreationEvents('p-1'))).toBe('p-1');
    expect(events(routes.customerCreationEvents('p/1 x'))).toBe('p%2F1%20x');
    expect(events('/onboarding/customer-creation/p-1/events?lang=en')).toBe('p-1');
    expect(events('/onboarding/customer-creation/p-1/events/')).toBe('p-1');
    expect(events('/ONBOARDING/customer-creation/p-1/EVENTS')).toBe('p-1');
  });

  it('leaves every other path to Express', () => {
    for (const url of [
      '/onboarding/customer-creation/p-1',
      '/onboarding/customer-creation//events',
      '/onboarding/customer-creation/p-1/events/more',
      '/onboarding/customer-creation/a/b/events',
      '/x/onboarding/customer-creation/p-1/events',
      '/onboarding/customer-creation/p-1/eventsx',
    ])
      expect(events(url), url).toBeNull();
  });
});

describe('leanSecurityHeaders', () => {
  it('keeps other origins out and adds HSTS only over TLS', () => {
    const plain = new Map(leanSecurityHeaders(false));
    expect(plain.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(plain.get('x-content-type-options')).toBe('nosniff');
    expect(plain.has('strict-transport-security')).toBe(false);
    expect([...plain.keys()].some((name) => name.startsWith('access-control-'))).toBe(false);
    expect(new Map(leanSecurityHeaders(true)).get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });
});
