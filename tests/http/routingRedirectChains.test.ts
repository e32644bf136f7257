// No redirect chain after identification ever comes back to a URL it has been to, whatever the routing status
// (identification-routing-creation §4). With the task list failing, the status page once redirected to Onboarding,
// which routed the open case back to it until the browser gave up; the status page now says on itself that the list
// failed. Each person identifies (BankID in SE, the eID broker in DK), then the chain is followed by hand from where
// identification leaves the browser, and again from Onboarding: no chain may visit any URL twice.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { identifyAtBrokerOverHttp, identifyBeforeRouting } from '../support/journey.ts';
import { personas, scenarioBehaviours } from '../../sandbox/personas.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
let port: string;
beforeAll(async () => {
  stack = await startEmbeddedStack();
  port = new URL(stack.webUrl).port;
});
afterAll(async () => stack?.stop());

/** One persona's scenario per routing status (and routing information), and every case-status scenario. */
const routingScenarios = (() => {
  const seen = new Set<string>();
  const picked: string[] = [];
  for (const [scenario, behaviour] of Object.entries(scenarioBehaviours)) {
    const { customerRoutingStatus, routingInformation } = behaviour.routing;
    const key = `${customerRoutingStatus} ${routingInformation?.join() ?? ''}`;
    if (behaviour.caseStatus || !seen.has(key)) picked.push(scenario);
    seen.add(key);
  }
  return picked;
})();

const cases = (['SE', 'DK'] as const).flatMap((country) =>
  routingScenarios.filter((scenario) => personas.some((p) => p.country === country && p.scenario === scenario)).map((scenario) => [country, scenario] as const),
);

/** Follows the redirects from `path` by hand (on our own origin); answers every URL requested and the last answer. */
async function chainFrom(get: (path: string) => request.Test, path: string): Promise<{ visited: string[]; last: request.Response }> {
  const visited: string[] = [];
  let url = path;
  for (;;) {
    visited.push(url);
    const res = await get(url);
    const location = res.headers.location as string | undefined;
    if (res.status < 300 || res.status >= 400 || !location) return { visited, last: res };
    const next = new URL(location, 'http://onboarding.test');
    // A target elsewhere (the bank's site, the login page) ends the chain here.
    if (next.origin !== 'http://onboarding.test') return { visited, last: res };
    url = next.pathname + next.search;
    if (visited.length > 12) return { visited: [...visited, url], last: res };
  }
}

const repeated = (visited: readonly string[]) => visited.filter((url, i) => visited.indexOf(url) !== i);

/** Identified as the market's persona of `scenario`; answers the browser's getter and where identification leaves it. */
async function identified(country: 'SE' | 'DK', scenario: string): Promise<{ get: (path: string) => request.Test; from: string }> {
  const agent: Agent = request.agent(stack.webUrl);
  if (country === 'SE') {
    await identifyBeforeRouting(agent, stack.sandboxUrl, scenario);
    // The completed order's status answers routing as the next URL.
    return { get: (path) => agent.get(path), from: '/onboarding/routing' };
  }
  const host = `${country.toLowerCase()}.localhost:${port}`;
  const get = (path: string) => agent.get(path).set('host', host);
  const post = (path: string, body: string) => agent.post(path).set('host', host).set('sec-fetch-site', 'same-origin').type('form').send(body);
  await get('/onboarding').expect(200);
  await post('/onboarding/customer-type', 'customerType=private').expect(303);
  const start = await post('/onboarding/identification/oidc', '').expect(303);
  const persona = personas.find((p) => p.country === country && p.scenario === scenario)!;
  const back = await identifyAtBrokerOverHttp(stack.sandboxUrl, start.headers.location as string, persona.nationalId);
  return { get, from: back.pathname + back.search };
}

describe('redirect chains after identification', () => {
  it.each(cases)('%s %s: no chain visits a URL twice; an open case ends on the status page', async (country, scenario) => {
    const { get, from } = await identified(country, scenario);
    const openCase = scenarioBehaviours[scenario as keyof typeof scenarioBehaviours].routing.customerRoutingStatus === 'ONBOARDING_OPEN_CASE';
    const after = await chainFrom(get, from);
    expect(repeated(after.visited), after.visited.join(' → ')).toEqual([]);
    if (openCase) {
      expect(after.visited.at(-1), after.visited.join(' → ')).toBe('/onboarding/case-status');
      expect(after.last.text).toContain('Your application has been received');
    }
    // Onboarding again (where the spec's redirect of a failing status page pointed): routed once more in SE, the start page in DK.
    const again = await chainFrom(get, '/onboarding');
    expect(repeated(again.visited), again.visited.join(' → ')).toEqual([]);
  });
});
