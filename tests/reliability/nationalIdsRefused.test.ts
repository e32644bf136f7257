// Some Danes (and Norwegians) could never identify: a national id in the
// broker's signed ID token was refused by a checksum stricter than the issuing authority's ("The ID token carries
// no valid national id"), so the person got the identification error after MitID / BankID. Each sandbox persona
// below carries one such id (sandbox/personas.ts); over HTTP, each identifies through the sandbox's OpenID
// provider and reaches routing and the customer-information page.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let port: string;

beforeAll(async () => {
  stack = await startEmbeddedStack();
  port = new URL(stack.webUrl).port;
});

afterAll(async () => {
  await stack?.stop();
});

type Agent = ReturnType<typeof request.agent>;

interface PublicPersona {
  nationalId: string;
  country: string;
  scenario: string;
}

/** A browser on the market's host; its POSTs say they come from our own page, as a browser's do. */
function browserOn(country: 'DK' | 'NO') {
  const agent = request.agent(stack.webUrl);
  const host = `${country.toLowerCase()}.localhost:${port}`;
  return {
    get: (path: string) => agent.get(path).set('host', host),
    post: (path: string, form: Record<string, string> = {}) => agent.post(path).set('host', host).set('sec-fetch-site', 'same-origin').type('form').send(form),
  };
}

/** The sandbox provider's login page, walked as a person would; answers the broker's redirect back to us. */
async function identifyAtBroker(authUrl: string, nationalId: string): Promise<URL> {
  const idp: Agent = request.agent(stack.sandboxUrl);
  const path = (u: string) => {
    const url = new URL(u, stack.sandboxUrl);
    return url.pathname + url.search;
  };
  let res = await idp.get(path(authUrl)).expect(303);
  const interaction = res.headers.location as string;
  const loginPage = await idp.get(path(interaction)).expect(200);
  expect(loginPage.text).toContain(`value="${nationalId}"`);
  res = await idp
    .post(`${path(interaction)}/login`)
    .type('form')
    .send({ nationalId })
    .expect(303);
  res = await idp.get(path(res.headers.location as string)).expect(303);
  return new URL(res.headers.location as string);
}

describe("Some Danes can never identify: national ids refused by a checksum stricter than the issuing authority's", () => {
  it.each([
    ['DK', 'cprWithoutModulus11', 'a CPR number failing modulus 11 (issued since 2007)'],
    ['NO', 'controlDigits2032', "a number under Skatteetaten's 2032 control-digit rule"],
    ['NO', 'syntheticTestNumber', 'a Tenor synthetic test number (month + 80)'],
    ['NO', 'hNumber', 'an H-number (month + 40)'],
  ] as Array<['DK' | 'NO', string, string]>)('%s persona %s (%s) identifies through the broker and reaches routing', async (country, scenario) => {
    const personas = (await request(stack.sandboxUrl).get('/sandbox/personas').expect(200)).body as PublicPersona[];
    const persona = personas.find((p) => p.country === country && p.scenario === scenario);
    expect(persona, `sandbox persona ${country}:${scenario}`).toBeDefined();

    const b = browserOn(country);
    await b.get('/onboarding').expect(200);
    await b.post('/onboarding/customer-type', { customerType: 'private' }).expect(303);
    const start = await b.post('/onboarding/identification/oidc').expect(303);
    const back = await identifyAtBroker(start.headers.location as string, persona!.nationalId);
    expect(back.pathname).toBe('/onboarding/signicat');
    const ret = await b.get(back.pathname + back.search).expect(302);
    const withCode = ret.headers.location as string;
    expect(withCode).toMatch(/^\/onboarding\?code=/);

    // Before the fix the exchange refused the id here and sent the person back to /onboarding with the
    // identification error ("Something went wrong").
    const exchanged = await b.get(withCode).expect(303);
    expect(exchanged.headers.location, 'where the signed national id leads after the code exchange').toBe('/onboarding/routing');

    let next = exchanged.headers.location as string;
    for (let hops = 0; hops < 5 && !next.includes('/customer-information/'); hops++) {
      const res = await b.get(next);
      expect([302, 303], `${next} answered ${res.status}`).toContain(res.status);
      next = res.headers.location as string;
    }
    expect(next).toContain('/onboarding/customer-information/');
    const page = await b.get(next).expect(200);
    expect(page.text).not.toContain('Something went wrong');
  });
});
