import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { fillPattern, routePatterns, routePrefixes, routes, withQuery, type RouteName } from '../../shared/routes.ts';

// Prospect ids as the brokerage might hand them out, and ones that must not break out of their segment.
const ids = ['p-1', 'a/b', 'ä ö?#&=', '100%', 'x y+z'];

// The URLs the code built by hand before shared/routes.ts: every builder must give these bytes.
const expected: [string, string][] = [
  [routes.start, '/onboarding'],
  [routes.customerType, '/onboarding/customer-type'],
  [routes.oidcStart, '/onboarding/identification/oidc'],
  [routes.oidcCallback, '/onboarding/signicat'],
  [routes.bankidStatus, '/onboarding/identification/bankid/status'],
  [routes.bankidRetry, '/onboarding/identification/bankid/retry'],
  [routes.bankidCancel, '/onboarding/identification/bankid/cancel'],
  [routes.bankidMode, '/onboarding/identification/bankid/mode'],
  [routes.routing, '/onboarding/routing'],
  [routes.customerInformation('p-1'), '/onboarding/customer-information/p-1'],
  [routes.customerInformation('a/b', { legacyFlow: true }), '/onboarding/customer-information/a%2Fb?shouldUseLegacyFlow=true'],
  [routes.customerInformation('a/b', { legacyFlow: false }), '/onboarding/customer-information/a%2Fb'],
  [routes.customerInformationStep('a/b'), '/onboarding/customer-information/a%2Fb/step'],
  [routes.customerInformationBack('a/b'), '/onboarding/customer-information/a%2Fb/back'],
  [routes.customerInformationExit('a/b'), '/onboarding/customer-information/a%2Fb/exit'],
  [routes.customerCreation('ä ö?#&='), '/onboarding/customer-creation/%C3%A4%20%C3%B6%3F%23%26%3D'],
  [routes.customerCreationEvents('a/b'), '/onboarding/customer-creation/a%2Fb/events'],
  [routes.customerCreationRetry('a/b'), '/onboarding/customer-creation/a%2Fb/retry'],
  [routes.customerCreationContinue('100%'), '/onboarding/customer-creation/100%25/continue'],
  [routes.cancel, '/onboarding/cancel'],
  [routes.error, '/onboarding/error'],
  [routes.nightlyDowntimeStatus(), '/onboarding/nightly-downtime-status'],
  [routes.nightlyDowntimeStatus({ justCompletedSignup: true, webview: false }), '/onboarding/nightly-downtime-status?justCompletedSignup=true'],
  [
    routes.nightlyDowntimeStatus({ justCompletedSignup: true, webview: true }),
    '/onboarding/nightly-downtime-status?justCompletedSignup=true&embedded=true&webview=true',
  ],
  [routes.caseStatus, '/onboarding/case-status'],
  [routes.caseStatusReturn, '/onboarding/case-status/return'],
  [routes.caseStatusTask, '/onboarding/case-status/task'],
  [routes.triggerCase('p/1'), '/onboarding/trigger-case/p%2F1'],
  [routes.loginInApp, '/onboarding/login-in-app'],
  [routes.closeSignupInApp, '/onboarding/close-signup-in-app'],
  [withQuery(routes.start, 'error=invalid_response'), '/onboarding?error=invalid_response'],
  [withQuery(routes.start, ''), '/onboarding'],
];

const hasProspectId = (name: RouteName) => routePatterns[name].includes(':prospectId');

/** The URL of route `name` for prospect `id` (routes without the parameter ignore it), without options. */
function urlOf(name: RouteName, id: string): string {
  const route = routes[name] as unknown as string | ((prospectId?: string) => string);
  if (typeof route === 'string') return route;
  return hasProspectId(name) ? route(id) : route();
}

describe('journey routes (shared/routes.ts)', () => {
  it.each(expected)('%s is byte-identical to the URL built by hand before', (built, literal) => {
    expect(built).toBe(literal);
  });

  it('has one route per pattern; a fixed route, or a builder given no options, is its pattern', () => {
    expect(Object.keys(routes).sort()).toEqual(Object.keys(routePatterns).sort());
    for (const name of Object.keys(routePatterns) as RouteName[]) {
      if (hasProspectId(name)) expect(typeof routes[name], name).toBe('function');
      else expect(urlOf(name, 'unused'), name).toBe(routePatterns[name]);
    }
  });

  it('every path lives under the journey prefix; the BankID, customer-information and creation paths under theirs', () => {
    for (const [name, pattern] of Object.entries(routePatterns)) {
      expect(pattern === routePrefixes.journey || pattern.startsWith(`${routePrefixes.journey}/`), name).toBe(true);
      if (name.startsWith('bankid')) expect(pattern.startsWith(`${routePrefixes.bankid}/`), name).toBe(true);
      if (name.startsWith('customerInformation')) expect(pattern.startsWith(`${routePrefixes.customerInformation}/`), name).toBe(true);
      if (name.startsWith('customerCreation')) expect(pattern.startsWith(`${routePrefixes.customerCreation}/`), name).toBe(true);
    }
  });

  it.each(ids)('builders encode the prospect id %j as one path segment', (id) => {
    for (const name of Object.keys(routePatterns) as RouteName[]) {
      if (!hasProspectId(name)) continue;
      const url = urlOf(name, id);
      expect(url).toContain(`/${encodeURIComponent(id)}`);
      expect(url.split('?')[0]!.split('/')).toHaveLength(routePatterns[name].split('/').length);
    }
  });

  it('fillPattern fills every parameter of a pattern', () => {
    expect(fillPattern('/a/:one/b/:two', { one: '1/1', two: 'x y' })).toBe('/a/1%2F1/b/x%20y');
  });

  // Express (path-to-regexp) is the judge: each built URL reaches the handler of its own pattern and no
  // other, with the prospect id decoded back to what was given.
  it.each(ids)('each built URL matches exactly its own Express pattern, with the id %j as req.params', async (id) => {
    const app = express();
    const names = Object.keys(routePatterns) as RouteName[];
    for (const name of names) {
      app.all(routePatterns[name], (req, res, next) => {
        ((res.locals.matched ??= []) as unknown[]).push({ name, params: { ...req.params } });
        next();
      });
    }
    app.use((_req, res) => res.json(res.locals.matched ?? []));
    for (const name of names) {
      const res = await request(app).get(urlOf(name, id));
      const params = hasProspectId(name) ? { prospectId: id } : {};
      expect(res.body, name).toEqual([{ name, params }]);
    }
  });
});
