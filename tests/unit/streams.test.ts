// The event streams answered ahead of Express (server/pageKit/streams.ts) match their path as Express does, and carry
// helmet's headers for an answer that is no document.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamMatcher } from '../../server/pageKit/streams.ts';
import { streamSecurityHeaders } from '../../server/security.ts';
import { routePatterns, routes } from '../../shared/routes.ts';

describe('streamMatcher', () => {
  const events = streamMatcher(routePatterns.customerCreationEvents);

  it("answers the parameter decoded, as Express's router matches it", () => {
    expect(events(routes.customerCreationEvents('p-1'))).toEqual({ prospectId: 'p-1' });
    expect(events(routes.customerCreationEvents('p/1 x'))).toEqual({ prospectId: 'p/1 x' });
    expect(events('/onboarding/customer-creation/p-1/events?lang=en')).toEqual({ prospectId: 'p-1' });
    expect(events('/onboarding/customer-creation/p-1/events/')).toEqual({ prospectId: 'p-1' });
    expect(events('/ONBOARDING/customer-creation/p-1/EVENTS')).toEqual({ prospectId: 'p-1' });
  });

  it('refuses a malformed escape as the caller’s error', () => {
    expect(() => events('/onboarding/customer-creation/%E0%A4%A/events')).toThrow(expect.objectContaining({ status: 400 }));
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

describe('streamSecurityHeaders', () => {
  let plain: Server;
  let tls: Server;
  const serve = (httpsOnly: boolean) => {
    const headers = streamSecurityHeaders(httpsOnly);
    return createServer((req, res) => headers(req as never, res as never, () => res.end()));
  };
  const headersOf = async (server: Server) => {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return res.headers;
  };
  beforeAll(async () => {
    plain = serve(false).listen(0, '127.0.0.1');
    tls = serve(true).listen(0, '127.0.0.1');
    await Promise.all([plain, tls].map((s) => new Promise((r) => s.once('listening', r))));
  });
  afterAll(() => Promise.all([plain, tls].map((s) => new Promise((r) => s.close(r)))));

  it('keeps other origins out and adds HSTS only over TLS', async () => {
    const headers = await headersOf(plain);
    expect(headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(headers.has('strict-transport-security')).toBe(false);
    expect([...headers.keys()].some((name) => name.startsWith('access-control-'))).toBe(false);
    expect((await headersOf(tls)).get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });
});
