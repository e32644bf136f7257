// Where a journey ends after signing (identification-routing-creation §2, §4; customer-information §2, §4.8): Continue
// goes to the market's success URL by way of the bank site's login hand-off; a failed login is the error screen whose Try
// again tries it again; at night no login is tried; in the native app's webview every ending (done, "I have signed",
// cancel, exit) is the app's route or deep link, and no login is handed over. Over HTTP against the embedded stack.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { identifyAtBrokerOverHttp, identifyOverHttp, personaFor } from '../support/journey.ts';
import { answerStepsOverHttp, screenOf } from '../support/customerInformation.ts';
import { brokeragePaths, loginHandoffRedeemResponse, type CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { SANDBOX_BANK_SITE_TOKEN } from '../../sandbox/afterCreation.ts';
import en from '../../locales/en.json' with { type: 'json' };

/** The bank's site (one origin, BANK_SITE_URL) and each market's success URL on it, as an operator configures them. */
const BANK_SITE_URL = 'https://www.bank.example';
const successUrls: Record<CountryCode, string> = {
  SE: `${BANK_SITE_URL}/se/welcome`,
  NO: `${BANK_SITE_URL}/no/velkommen`,
  DK: `${BANK_SITE_URL}/dk/velkommen`,
  FI: `${BANK_SITE_URL}/fi/tervetuloa`,
};

let stack: Stack;
let port: string;
beforeAll(async () => {
  stack = await startEmbeddedStack({
    BANK_SITE_URL,
    BANK_SITE_HANDOFF_PATH: '/login/handoff',
    ...Object.fromEntries(Object.entries(successUrls).map(([c, url]) => [`SUCCESS_URL_${c}`, url])),
  });
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

/** The sandbox's read-out of the calls after creation (each new Idempotency-Key counts once). */
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

/** The creation page until it shows `title` (the error screen fails it unless that is what is awaited). */
async function until(person: Person, title: string): Promise<void> {
  const creation = `/onboarding/customer-creation/${encodeURIComponent(person.prospectId)}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const shown = (await person.get(creation).expect(200)).text;
    if (shown.includes(title)) return;
    if (shown.includes(en['creation.error.title'])) throw new Error('creation ended with the error screen');
    if (Date.now() > deadline) throw new Error(`creation did not show "${title}" within 20 s`);
    await sleep(100);
  }
}

/** Continue, the post of the person's click: answers where it leads. */
async function continueNow(person: Person): Promise<string> {
  const creation = `/onboarding/customer-creation/${encodeURIComponent(person.prospectId)}`;
  return (await person.post(`${creation}/continue`, '').expect(303)).headers.location as string;
}

/** The creation page until its run is done, then Continue: answers where Continue leads. */
async function continueAfterDone(person: Person): Promise<string> {
  await until(person, en['creation.done.title']);
  return continueNow(person);
}

/** The bank site's hand-off address Continue led to: its code and return path. */
function handoffIn(location: string): { code: string; returnTo: string } {
  const url = new URL(location);
  expect(`${url.origin}${url.pathname}`).toBe(`${BANK_SITE_URL}/login/handoff`);
  return { code: url.searchParams.get('code')!, returnTo: url.searchParams.get('returnTo')! };
}

/** The bank's site redeems the code with the brokerage (the sandbox), as it would server to server. */
const redeem = (code: string) =>
  request(stack.sandboxUrl).post(brokeragePaths.loginHandoffRedeem).set('authorization', `Bearer ${SANDBOX_BANK_SITE_TOKEN}`).send({ code });

describe('Continue after creation hands the login to the bank site, going on to the market success URL', () => {
  it.each(['SE', 'NO', 'DK', 'FI'] as const)('%s', async (country) => {
    const person = await identified(country);
    await atMilestoneThree(person);
    await sign(person);
    const { code, returnTo } = handoffIn(await continueAfterDone(person));
    expect(returnTo).toBe(new URL(successUrls[country]).pathname);
    // Before the outcome showed, the worker had logged the person in and had the lead number made: one of each.
    expect(await afterCreation(person.prospectId)).toEqual({ loginSessions: 1, leadNumbers: [expect.stringMatching(/\S/)] });
    // A second click hands over the same code (one login session per run); the code logs in this person, once.
    expect(handoffIn(await continueNow(person)).code).toBe(code);
    const persona = await personaFor(stack.sandboxUrl, 'onboarding', country);
    expect(loginHandoffRedeemResponse.parse((await redeem(code).expect(200)).body).customer.nationalId).toBe(persona.nationalId);
    await redeem(code).expect(400);
    // The code is in no page of ours: not in the creation page, not in its events' latest state.
    const creation = `/onboarding/customer-creation/${encodeURIComponent(person.prospectId)}`;
    const page = await person.get(creation).expect(200);
    expect(page.text).not.toContain(code);
    // Chrome checks the redirect after a post against form-action: the bank site's origin is listed.
    const formAction = /form-action ([^;]*)/.exec(String(page.headers['content-security-policy']))![1]!.split(' ');
    expect(formAction).toContain(BANK_SITE_URL);
  });

  it('a GET of the continue address changes nothing: it shows the creation page, whose Continue posts', async () => {
    const person = await identified('SE');
    await person
      .get(`/onboarding/customer-creation/${encodeURIComponent(person.prospectId)}/continue`)
      .expect(303)
      .expect('location', `/onboarding/customer-creation/${encodeURIComponent(person.prospectId)}`);
  });
});

describe('outcomes without log-in (identification-routing-creation §4)', () => {
  it('nightly downtime with a login that would be refused: no login is tried, and Continue ends on "See you tomorrow!"', async () => {
    await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'POST', path: brokeragePaths.nnxSessionLogin, status: 500, count: 100 }).expect(204);
    try {
      const person = await identified('SE', { scenario: 'creationNightlyDowntime' });
      await atMilestoneThree(person);
      await sign(person);
      await until(person, en['creation.nightly_downtime.title']);
      const downtime = await continueNow(person);
      expect(downtime).toBe('/onboarding/nightly-downtime-status?justCompletedSignup=true');
      expect((await person.get(downtime).expect(200)).text).toContain(en['nightly.titleAfterSignup'].replace("'", '&#x27;'));
      expect(await afterCreation(person.prospectId)).toMatchObject({ loginSessions: 0 });
    } finally {
      await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'POST', path: brokeragePaths.nnxSessionLogin, count: 0 }).expect(204);
    }
  });
});

describe('when the calls after creation fail', () => {
  it('a login session that fails shows the error screen, whose Try again tries the login again; the lead number made once', async () => {
    const logins = async () =>
      ((await request(stack.sandboxUrl).get('/sandbox/brokerage-calls').expect(200)).body as { calls: Array<{ path: string }> }).calls.filter(
        (c) => c.path === brokeragePaths.nnxSessionLogin,
      ).length;
    const person = await identified('SE', { scenario: 'loginSessionFails' });
    await atMilestoneThree(person);
    await sign(person);
    const before = await logins();
    await until(person, en['creation.error.title']);
    expect(await logins()).toBe(before + 1);
    const lead = await afterCreation(person.prospectId);
    expect(lead).toMatchObject({ loginSessions: 0, leadNumbers: [expect.stringMatching(/\S/)] });
    // Try again (the run it retries): a new run polls to done and tries the login again, which fails the same way.
    const creation = `/onboarding/customer-creation/${encodeURIComponent(person.prospectId)}`;
    await person.post(`${creation}/retry?run=1`, '').expect(303);
    await expect.poll(logins, { timeout: 20_000 }).toBe(before + 2);
    await until(person, en['creation.error.title']);
    expect(await afterCreation(person.prospectId)).toEqual(lead);
    // Continue from the error screen is no login: the bank's home (Try again is the screen's button).
    expect(await continueNow(person)).toBe(`${BANK_SITE_URL}/`);
  });

  it('an affiliate conversion that fails does not fail the run: done, logged in, no lead number', async () => {
    const person = await identified('SE', { scenario: 'affiliateConversionFails' });
    await atMilestoneThree(person);
    await sign(person);
    expect(handoffIn(await continueAfterDone(person)).returnTo).toBe('/se/welcome');
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
    // Spinner-only to the eye, with the page's heading for screen readers (axe: page-has-heading-one).
    expect(spinner.text).toContain(`<h1 class="visually-hidden">${en['inApp.title.loginInApp']}</h1>`);
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
    expect(spinner.text).toContain(`<h1 class="visually-hidden">${en['inApp.title.closeSignupInApp']}</h1>`);
  });

  it('exit from the application status page (Return to site): the close-signup-in-app route; on the web the bank’s home', async () => {
    const inApp = await identified('SE', { webview: true });
    await inApp.post('/onboarding/case-status/return', '').expect(303).expect('location', '/onboarding/close-signup-in-app');
    const web = await identified('SE');
    // HOME_URL's "/" is the bank site's (BANK_SITE_URL), not ours.
    await web.post('/onboarding/case-status/return', '').expect(303).expect('location', `${BANK_SITE_URL}/`);
  });
});
