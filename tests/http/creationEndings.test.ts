// Where a journey ends after signing (identification-routing-creation §4 "Customer creation", §2 OnboardingLoginInApp
// and OnboardingCloseSignupInApp; customer-information §2 exit, §4.8 "I have signed"): Continue goes to the journey's
// market's success URL (SUCCESS_URL_<market>); in the native app's webview every ending (done, "I have signed",
// cancel, exit) is the app's route or deep link, never a web page of ours. Over HTTP against the embedded stack.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { identifyAtBrokerOverHttp, identifyOverHttp } from '../support/journey.ts';
import { answerStepsOverHttp, screenOf } from '../support/customerInformation.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';

/** One success URL per market, as an operator configures them; SUCCESS_URL stays the sandbox overview. */
const successUrls: Record<CountryCode, string> = {
  SE: 'https://se.bank.example/welcome',
  NO: 'https://no.bank.example/velkommen',
  DK: 'https://dk.bank.example/velkommen',
  FI: 'https://fi.bank.example/tervetuloa',
};

let stack: Stack;
let port: string;
beforeAll(async () => {
  stack = await startEmbeddedStack(Object.fromEntries(Object.entries(successUrls).map(([c, url]) => [`SUCCESS_URL_${c}`, url])));
  port = new URL(stack.webUrl).port;
});
afterAll(async () => stack?.stop());

const SIGN = 'step=MILESTONE_THREE_STEP&screen=milestone';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A person of the market's 'onboarding' persona on the market's own host, identified with its eID. */
async function identified(country: CountryCode, options: { webview?: boolean; scenario?: string } = {}) {
  const agent = request.agent(stack.webUrl);
  // SE on the default host (DEFAULT_COUNTRY), the others on their own host (COUNTRY_HOSTS).
  const host = country === 'SE' ? undefined : `${country.toLowerCase()}.localhost:${port}`;
  const get = (path: string) => (host ? agent.get(path).set('host', host) : agent.get(path));
  const post = (path: string, body: string) => {
    const req = agent.post(path).set('sec-fetch-site', 'same-origin').type('form');
    return (host ? req.set('host', host) : req).send(body);
  };
  await get(`/onboarding${options.webview ? '?webview=true' : ''}`).expect(200);
  let page: string;
  if (country === 'SE') {
    page = (await identifyOverHttp(agent, stack.sandboxUrl, options.scenario ?? 'onboarding')).page;
  } else {
    await post('/onboarding/customer-type', 'customerType=private').expect(303);
    const start = await post('/onboarding/identification/oidc', '').expect(303);
    const personas = (await request(stack.sandboxUrl).get('/sandbox/personas').expect(200)).body as { nationalId: string; country: string; scenario: string }[];
    const persona = personas.find((p) => p.country === country && p.scenario === 'onboarding')!;
    const back = await identifyAtBrokerOverHttp(stack.sandboxUrl, start.headers.location as string, persona.nationalId);
    await get((await get(back.pathname + back.search).expect(302)).headers.location as string).expect(303);
    page = (await get('/onboarding/routing').expect(303)).headers.location as string;
  }
  const prospectId = decodeURIComponent(page.split('/').pop()!);
  return { agent, get, post, page, prospectId };
}

type Person = Awaited<ReturnType<typeof identified>>;

/** The sandbox's read-out of the calls after polling (each new Idempotency-Key counts once). */
async function afterCreation(prospectId: string): Promise<{ loginSessions: number; leadNumbers: string[] }> {
  return (await request(stack.sandboxUrl).get('/sandbox/after-creation').query({ prospectId }).expect(200)).body as {
    loginSessions: number;
    leadNumbers: string[];
  };
}

/** Every step answered up to milestone three. */
async function atMilestoneThree(person: Person): Promise<void> {
  await answerStepsOverHttp(
    async () => (await person.get(person.page)).text,
    async (body) => void (await person.post(`${person.page}/step`, body).expect(303)),
  );
  expect(screenOf((await person.get(person.page).expect(200)).text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
}

/** Signs at the sandbox's signing page: answers where the signing service sends the browser back. */
async function sign(person: Person): Promise<string> {
  const signingUrl = new URL((await person.post(`${person.page}/step`, SIGN).expect(303)).headers.location as string);
  return (await request(stack.sandboxUrl).post(`${signingUrl.pathname}/sign`).expect(303)).headers.location as string;
}

/** The creation page until its run is done, then Continue: answers where Continue leads. */
async function continueAfterDone(person: Person): Promise<string> {
  const creation = `/onboarding/customer-creation/${encodeURIComponent(person.prospectId)}`;
  const until = Date.now() + 20_000;
  for (;;) {
    const shown = (await person.get(creation).expect(200)).text;
    if (shown.includes('Agreements signed')) break;
    if (shown.includes('Something went wrong')) throw new Error('creation ended with the error screen');
    if (Date.now() > until) throw new Error('creation not done within 20 s');
    await sleep(100);
  }
  return (await person.get(`${creation}/continue`).expect(303)).headers.location as string;
}

describe('Continue after creation goes to the market success URL', () => {
  it.each(['SE', 'NO', 'DK', 'FI'] as const)('%s', async (country) => {
    const person = await identified(country);
    await atMilestoneThree(person);
    await sign(person);
    expect(await continueAfterDone(person)).toBe(successUrls[country]);
    // Before the outcome showed, the worker had logged the person in and had the lead number made: one of each.
    expect(await afterCreation(person.prospectId)).toEqual({ loginSessions: 1, leadNumbers: [expect.stringMatching(/\S/)] });
  });
});

describe('when the calls after polling fail', () => {
  it('a login session that fails shows the error screen (Try again), with the lead number made', async () => {
    const person = await identified('SE', { scenario: 'loginSessionFails' });
    await atMilestoneThree(person);
    await sign(person);
    await expect(continueAfterDone(person)).rejects.toThrow('creation ended with the error screen');
    expect(await afterCreation(person.prospectId)).toMatchObject({ loginSessions: 0, leadNumbers: [expect.stringMatching(/\S/)] });
  });

  it('an affiliate conversion that fails does not fail the run: done, logged in, no lead number', async () => {
    const person = await identified('SE', { scenario: 'affiliateConversionFails' });
    await atMilestoneThree(person);
    await sign(person);
    expect(await continueAfterDone(person)).toBe(successUrls.SE);
    expect(await afterCreation(person.prospectId)).toEqual({ loginSessions: 1, leadNumbers: [] });
  });
});

describe("in the native app's webview every ending is the app's route or deep link", () => {
  it('done: the login-in-app route (the spinner page the app watches for)', async () => {
    const person = await identified('SE', { webview: true });
    await atMilestoneThree(person);
    // Signed: the signing service returns to the app's create deep link; the app opens creation in its webview.
    expect(await sign(person)).toBe(`nordicbank://onboarding/customer-creation/${person.prospectId}`);
    expect(await continueAfterDone(person)).toBe('/onboarding/login-in-app');
    // Neither a login session (the app logs in itself) nor an affiliate conversion in the webview.
    expect(await afterCreation(person.prospectId)).toEqual({ loginSessions: 0, leadNumbers: [] });
    const spinner = await person.get('/onboarding/login-in-app').expect(200);
    expect(spinner.text).toContain('class="spinner"');
  });

  it('"I have signed": the complete URL, the app\'s create deep link (as the signing service\'s return)', async () => {
    const person = await identified('SE', { webview: true });
    await atMilestoneThree(person);
    const signingUrl = new URL((await person.post(`${person.page}/step`, SIGN).expect(303)).headers.location as string);
    await request(stack.sandboxUrl).post(`${signingUrl.pathname}/sign`).expect(303);
    const signed = await person.post(`${person.page}/step`, `${SIGN}&intent=signed`).expect(303);
    expect(signed.headers.location).toBe(`nordicbank://onboarding/customer-creation/${person.prospectId}`);
    // The redirect after the post is to the app's host only: the CSP's form-action lets that one through, no whole scheme.
    const csp = String((await person.get(person.page).expect(200)).headers['content-security-policy']);
    expect(/form-action [^;]*nordicbank:\/\/onboarding(?:[ ;]|$)/.test(csp)).toBe(true);
  });

  it('"I have signed" on the web goes on to our creation page', async () => {
    const person = await identified('SE');
    await atMilestoneThree(person);
    await sign(person);
    const signed = await person.post(`${person.page}/step`, `${SIGN}&intent=signed`).expect(303);
    expect(signed.headers.location).toBe(`/onboarding/customer-creation/${person.prospectId}`);
  });

  it("cancel: the signing service returns to the app's cancel deep link; our cancel page in the webview hands over to the close route", async () => {
    const person = await identified('SE', { webview: true });
    await atMilestoneThree(person);
    const signingUrl = new URL((await person.post(`${person.page}/step`, SIGN).expect(303)).headers.location as string);
    // The deep link names the order (our signing return's path), so the app's webview ends it there.
    const deepLink = (await request(stack.sandboxUrl).post(`${signingUrl.pathname}/cancel`).expect(303)).headers.location as string;
    expect(deepLink).toMatch(new RegExp(`^nordicbank://onboarding${person.page.slice('/onboarding'.length)}/signing-cancelled\\?order=[^&]+$`));
    await person
      .get(`/onboarding${deepLink.slice('nordicbank://onboarding'.length)}`)
      .expect(303)
      .expect('location', '/onboarding/close-signup-in-app');
    await person.get('/onboarding/cancel').expect(303).expect('location', '/onboarding/close-signup-in-app');
    // A cancel return through our signing return (an order handed out on the web before) ends there too.
    await person.get(`${person.page}/signing-cancelled?order=any`).expect(303).expect('location', '/onboarding/close-signup-in-app');
    // On the web the cancel page itself.
    await request(stack.webUrl).get('/onboarding/cancel').expect(200);
  });

  it("exit (the abort modal's Yes, exit): the close-signup-in-app route", async () => {
    const person = await identified('SE', { webview: true });
    await person
      .post(`/onboarding/customer-information/${encodeURIComponent(person.prospectId)}/exit`, '')
      .expect(303)
      .expect('location', '/onboarding/close-signup-in-app');
    const spinner = await request(stack.webUrl).get('/onboarding/close-signup-in-app').expect(200);
    expect(spinner.text).toContain('class="spinner"');
  });

  it('exit from the application status page (Return to site): the close-signup-in-app route; on the web the bank’s home', async () => {
    const inApp = await identified('SE', { webview: true });
    await inApp.post('/onboarding/case-status/return', '').expect(303).expect('location', '/onboarding/close-signup-in-app');
    const web = await identified('SE');
    // HOME_URL's "/" is the bank site's (BANK_SITE_URL, the sandbox here), not ours.
    await web.post('/onboarding/case-status/return', '').expect(303).expect('location', `${stack.sandboxUrl}/`);
  });
});
