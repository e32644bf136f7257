// Exits that left the person signed in: the Close X and the nightly-downtime page's buttons were plain links to the
// bank's home, ending neither our session nor the brokerage's, so on a shared device the next person could route the
// previous one; in the app's webview the signing service's cancel deep link named no order. Now each leaves through
// routes.leave, which ends both sessions once and then goes to the bank's home, and the cancel deep link names the order
// it ends.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp, postStep } from '../support/journey.ts';
import { atMilestoneThreeOverHttp } from '../support/customerInformation.ts';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { routes } from '../../shared/routes.ts';
import { sessionTokensOf, workingTokens } from '../support/sandboxApi.ts';

type Agent = ReturnType<typeof request.agent>;

const HOME_URL = 'https://www.bank.example/';
let stack: Stack;

beforeAll(async () => {
  stack = await startEmbeddedStack({ HOME_URL });
});
afterAll(async () => {
  await stack?.stop();
});

/** A browser tab on our pages: its navigations are same-origin. */
const browser = (): Agent => request.agent(stack.webUrl).set('sec-fetch-site', 'same-origin');

/** The logout calls the sandbox's session service recorded with one of the tokens. */
async function logoutsWith(tokens: string[]): Promise<string[]> {
  const calls = (await request(stack.sandboxUrl).get('/sandbox/logouts').expect(200)).body as { path: string; bearer: string | null }[];
  return calls.filter((c) => c.bearer !== null && tokens.includes(c.bearer)).map((c) => c.path);
}

/** The href of the page's Close X. */
const closeHref = (html: string) => /<a class="site-header__close" href="([^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');

/** The buttons of the nightly-downtime page, label → href. */
const buttons = (html: string) => Object.fromEntries([...html.matchAll(/<a class="btn[^"]*" href="([^"]*)">([^<]*)<\/a>/g)].map((m) => [m[2], m[1]]));

/** After leaving: the brokerage session is over (both logouts recorded once), and this browser no longer routes the person. */
async function expectSignedOut(agent: Agent, tokens: string[]): Promise<void> {
  expect(await workingTokens(stack.sandboxUrl, tokens), "the person's tokens still working at the brokerage after leaving").toBe(0);
  expect((await logoutsWith(tokens)).sort(), 'logout calls with the person’s token').toEqual(
    [brokeragePaths.logoutCurrent, brokeragePaths.logoutLegacy].sort(),
  );
  // The next person on this device: routing does not know anyone.
  const routing = await agent.get(routes.routing).expect(303);
  expect(routing.headers.location).toBe(routes.start);
}

describe('every exit ends the session', () => {
  it('the Close X on the customer-information page ends ours and the brokerage’s, then goes to the bank’s home', async () => {
    const agent = browser();
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    const html = (await agent.get(page).expect(200)).text;
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    expect(await workingTokens(stack.sandboxUrl, tokens)).toBeGreaterThan(0);
    const href = closeHref(html);
    expect(href).toBe(routes.leave());
    const left = await agent.get(href!).expect(303);
    expect(left.headers.location).toBe(HOME_URL);
    await expectSignedOut(agent, tokens);
  });

  it.each(['Go to main page', 'Exit'])('the nightly-downtime page’s %s does the same', async (label) => {
    const agent = browser();
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'nightlyDowntimeRouting');
    expect(page).toMatch(/^\/onboarding\/nightly-downtime-status/);
    const html = (await agent.get(page).query({ lang: 'en' }).expect(200)).text;
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    const href = buttons(html)[label];
    expect(href, `${label} on ${JSON.stringify(buttons(html))}`).toBe(routes.leave());
    expect(closeHref(html)).toBe(routes.leave());
    const left = await agent.get(href!).expect(303);
    expect(left.headers.location).toBe(HOME_URL);
    await expectSignedOut(agent, tokens);
  });

  it('a double click reaches the brokerage once; a second browser’s leave ends nothing of the first', async () => {
    const agent = browser();
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    await agent.get(page).expect(200);
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    // Another person's browser leaving ends only its own (empty) session.
    await browser().get(routes.leave()).expect(303);
    expect(await workingTokens(stack.sandboxUrl, tokens)).toBeGreaterThan(0);
    const [first, second] = await Promise.all([agent.get(routes.leave()), agent.get(routes.leave())]);
    // The second waited for the first and found its session gone: home, or once more through leave (no session: home).
    for (const res of [first, second]) expect([HOME_URL, routes.leave()]).toContain(res.headers.location);
    await expectSignedOut(agent, tokens);
  });

  it('a leave another site started ends nothing (a stranger’s link must not sign the person out)', async () => {
    const agent = browser();
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    await agent.get(page).expect(200);
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    const left = await agent.get(routes.leave()).set('sec-fetch-site', 'cross-site').expect(303);
    expect(left.headers.location).toBe(HOME_URL);
    expect(await workingTokens(stack.sandboxUrl, tokens)).toBeGreaterThan(0);
    expect(await logoutsWith(tokens)).toEqual([]);
    await agent.get(page).expect(200);
    // The person's own click does end it (the persona's sessions are shared by the tests of this file).
    await agent.get(routes.leave()).expect(303);
    await expectSignedOut(agent, tokens);
  });

  it('in the app’s webview the Close X ends the session on the app’s close route', async () => {
    const agent = browser();
    await agent.get('/onboarding?webview=true').expect(200);
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    const href = closeHref((await agent.get(page).expect(200)).text);
    const left = await agent.get(href!).expect(303);
    expect(left.headers.location).toBe(routes.closeSignupInApp);
    expect(await workingTokens(stack.sandboxUrl, tokens)).toBe(0);
  });
});

describe('the app’s cancel deep link names the signing order', () => {
  it('after Cancel in the webview, Sign asks for a new signing order instead of re-opening the cancelled one', async () => {
    const agent = browser();
    await agent.get('/onboarding?webview=true').expect(200);
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'accounts');
    const SIGN = 'step=MILESTONE_THREE_STEP&screen=milestone';
    const first = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    const deepLink = (await request(first).post('/cancel').expect(303)).headers.location as string;
    // The app's deep link carries our path: the app opens it on our origin in its webview.
    const link = new URL(deepLink);
    expect(`${link.protocol}//${link.host}`).toBe('nordicbank://onboarding');
    expect(link.pathname).toMatch(/\/signing-cancelled$/);
    expect(link.searchParams.get('order')).toBeTruthy();
    const opened = await agent.get(`/onboarding${link.pathname}${link.search}`).expect(303);
    expect(opened.headers.location).toBe(routes.closeSignupInApp);
    const second = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    expect(second).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    expect(second).not.toBe(first);
  });
});
