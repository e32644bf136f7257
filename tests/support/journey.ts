// Walks the Swedish BankID journey in a real browser, step by step, checking each screen with axe.
import request from 'supertest';
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, describeViolations, evaluateSettled } from './browser.ts';
import { routes, withQuery } from '../../shared/routes.ts';

export interface Persona {
  nationalId: string;
  country: string;
  name: string;
  scenario: string;
}

export async function personaFor(sandboxUrl: string, scenario: string, country = 'SE'): Promise<Persona> {
  const personas = (await (await fetch(`${sandboxUrl}/sandbox/personas`)).json()) as Persona[];
  const persona = personas.find((p) => p.scenario === scenario && p.country === country);
  if (!persona) throw new Error(`no ${country} persona for ${scenario}`);
  return persona;
}

export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Colours and overlaps are judged on the settled page, not mid-way through a step's entrance animation.
  // (Endless ones, such as a spinner, are left running; so are those in content not shown, such as a closed
  // <details>: Chromium does not advance them, and their `finished` would never come.)
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .filter((a) => {
          const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
          return !(target instanceof Element) || target.checkVisibility({ contentVisibilityAuto: true });
        })
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const violations = await axeViolations(page);
  expect(describeViolations(violations).map((line) => `${screen}: ${line}`)).toEqual([]);
}

/**
 * Records every text the page's `main` shows, from now on and across its navigations, so that a screen which
 * moves on by itself after a pause (the creation outcome, views/components/CreationStatus.tsx) is seen
 * however long the test's own checks took meanwhile on a loaded machine. Answers the texts shown so far.
 */
export async function recordMainTexts(page: Page): Promise<() => string[]> {
  const shown: string[] = [];
  await page.exposeFunction('__recordMainText', (text: string) => void shown.push(text));
  const observe = () => {
    const record = () => {
      const text = document.querySelector('main')?.textContent;
      if (text) (window as unknown as { __recordMainText(t: string): void }).__recordMainText(text);
    };
    const start = () => {
      record();
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
    };
    if (document.body) start();
    else document.addEventListener('DOMContentLoaded', start);
  };
  await page.addInitScript(observe);
  await page.evaluate(observe);
  return () => shown;
}

/** The tester's phone: opens the test BankID app and identifies the newest waiting order as the persona. */
export async function identifyOnPhone(
  browser: Browser,
  sandboxUrl: string,
  persona: Persona,
  options: { viewport?: { width: number; height: number }; onScreen?: (phone: Page) => Promise<void> } = {},
): Promise<void> {
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  const phone = await context.newPage();
  await phone.goto(`${sandboxUrl}/sandbox/bankid/app`);
  const order = phone.locator('section[data-order-ref]').last();
  await order.waitFor();
  await options.onScreen?.(phone);
  await order.getByLabel('Identify as').selectOption(persona.nationalId);
  await order.getByRole('button', { name: 'Identify' }).click();
  await phone.waitForLoadState();
  await context.close();
}

/** From the start page (entered with the query `entry`, if any) to the BankID QR screen. */
export async function startPrivateIdentification(page: Page, webUrl: string, options: { axe: boolean; entry?: string }): Promise<void> {
  await page.goto(`${webUrl}${withQuery(routes.start, options.entry ?? '')}`);
  await expect.poll(() => page.locator('h1').textContent()).toBe("Before we get started. Who's the account for?");
  if (options.axe) await expectAccessible(page, 'customer type');
  await page.getByRole('button', { name: /Private/ }).click();
  await page.waitForURL(`${webUrl}/onboarding`);
  await expect.poll(() => page.locator('h1').textContent()).toBe('Open account with BankID');
}

/**
 * axe on a page of a JavaScript-free browser. axe itself needs JavaScript, so the same HTML (as the
 * no-JS browser received it, at the same URL) is loaded into `withJs` with every script request
 * refused: no island hydrates and the DOM is exactly what a no-JS visitor gets.
 */
export async function expectAccessibleWithoutJs(page: Page, withJs: Page, screen: string): Promise<void> {
  await showWithoutJs(page, withJs);
  await expectAccessible(withJs, `${screen} (no JavaScript)`);
}

/**
 * Shows in `withJs` (a scripted tab) the screen of the JavaScript-free `page`, at its URL, with every script
 * request refused, for checks that need JavaScript themselves (axe, HTML_CodeSniffer). `shown`: the screen to
 * show (its URL and markup), if not the page's as it is now.
 */
export async function showWithoutJs(page: Page, withJs: Page, shown?: { url: string; html: string }): Promise<void> {
  const { url, html } = shown ?? { url: page.url(), html: await page.content() };
  await withJs.unrouteAll();
  await withJs.route('**/*', (route) => {
    const request = route.request();
    if (request.url() === url && request.resourceType() === 'document')
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    if (request.resourceType() === 'script') return route.abort();
    return route.continue();
  });
  await withJs.goto(url);
}

/**
 * axe on a copy of the page as shown now (its DOM, scripts held back), in a new tab of the same context: for a
 * screen that moves on by itself (the creation page after its outcome), which would navigate under the check.
 */
export async function expectSnapshotAccessible(page: Page, screen: string): Promise<void> {
  const html = await evaluateSettled(page, () => `<!DOCTYPE html>${document.documentElement.outerHTML}`);
  const shown = { url: page.url(), html };
  const copy = await page.context().newPage();
  await showWithoutJs(page, copy, shown);
  await expectAccessible(copy, screen);
  await copy.close();
}

/**
 * axe needs JavaScript: a screen of the no-JS `context` is checked in a scripted tab of the same session
 * (same server markup), after making sure that tab shows the screen titled `title`.
 */
export async function expectScreenAccessible(browser: Browser, context: BrowserContext, url: string, screen: string, title: string): Promise<void> {
  const scripted = await browser.newContext({ storageState: await context.storageState() });
  const page = await scripted.newPage();
  await page.goto(url);
  expect(await page.locator('h1').first().textContent()).toBe(title);
  await expectAccessible(page, screen);
  await scripted.close();
}

/**
 * Swedish BankID over plain HTTP (a supertest agent keeps the cookie) as the persona of `scenario`:
 * choosing Private starts the QR order, the sandbox's phone identifies, the status poll completes, and routing
 * answers the person's customer-information page.
 */
export async function identifyOverHttp(
  agent: ReturnType<typeof request.agent>,
  sandboxUrl: string,
  scenario: string,
): Promise<{ page: string; prospectId: string; persona: Persona }> {
  const persona = await identifyBeforeRouting(agent, sandboxUrl, scenario);
  const page = (await agent.get('/onboarding/routing').expect(303)).headers.location as string;
  return { page, prospectId: decodeURIComponent(page.split('/').pop()!), persona };
}

/** identifyOverHttp up to the identified person's routing, which is left to the caller. */
export async function identifyBeforeRouting(agent: ReturnType<typeof request.agent>, sandboxUrl: string, scenario: string): Promise<Persona> {
  const persona = await personaFor(sandboxUrl, scenario);
  const orders = async () => ((await request(sandboxUrl).get('/sandbox/bankid/orders')).body as Array<{ orderRef: string }>).map((o) => o.orderRef);
  const before = new Set(await orders());
  // Choosing Private is the click that starts the QR order (a desktop agent); the page shows it.
  await agent.post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'private' }).expect(303);
  await agent.get('/onboarding').expect(200);
  const orderRef = (await orders()).find((o) => !before.has(o))!;
  await request(sandboxUrl).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: persona.nationalId }).expect(200);
  await agent.get('/onboarding/identification/bankid/status').expect(200);
  return persona;
}

type Agent = ReturnType<typeof request.agent>;

/** A form post to the customer-information page's step route, as the browser sends it (same origin). */
export const postStep = (agent: Agent, page: string, body: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body);

/** Continue on the creation page: a post of the person's click (it may hand the login over to the bank's site). */
export const postContinue = (agent: Agent, prospectId: string) =>
  agent
    .post(`/onboarding/customer-creation/${encodeURIComponent(prospectId)}/continue`)
    .set('sec-fetch-site', 'same-origin')
    .type('form')
    .send('');

/**
 * The sandbox broker's login page walked over HTTP as a person would; answers the browser's way back to us.
 * `onLoginPage` sees the login page (its URL and HTML) before the login is posted.
 */
export async function identifyAtBrokerOverHttp(
  sandboxUrl: string,
  authUrl: string,
  nationalId: string,
  onLoginPage?: (url: string, html: string) => Promise<void>,
): Promise<URL> {
  const idp = request.agent(sandboxUrl);
  const path = (u: string) => {
    const url = new URL(u, sandboxUrl);
    return url.pathname + url.search;
  };
  const interaction = (await idp.get(path(authUrl)).expect(303)).headers.location as string;
  const loginPage = await idp.get(path(interaction)).expect(200);
  await onLoginPage?.(new URL(path(interaction), sandboxUrl).href, loginPage.text);
  const login = await idp
    .post(`${path(interaction)}/login`)
    .type('form')
    .send({ nationalId })
    .expect(303);
  return new URL((await idp.get(path(login.headers.location as string)).expect(303)).headers.location as string);
}

/** The accounts an account picker's HTML shows ticked. */
export const tickedAccounts = (html: string) => [...html.matchAll(/<input(?=[^>]*name="accounts")(?=[^>]*checked)[^>]*value="([A-Z_]+)"/g)].map((m) => m[1]);

/** An agent identified in a market, and its requests on that market's host (SE: the default host). */
export interface MarketAgent {
  persona: Persona;
  agent: Agent;
  /** The Host header of the market's requests (undefined: the default host, SE's). */
  host: string | undefined;
  get: (path: string) => request.Test;
  /** Where routing sent the person. */
  routed: string;
}

/**
 * The market's `scenario` persona after an entry with `entry` (the start page's query, without `?`), routed: SE
 * identifies with BankID, NO, DK and FI at the OIDC broker on their own host. `agent`: one holding cookies already.
 */
export async function identifyInMarketOverHttp(
  stack: { webUrl: string; sandboxUrl: string },
  country: string,
  scenario: string,
  entry: string,
  agent: Agent = request.agent(stack.webUrl),
): Promise<MarketAgent> {
  if (country === 'SE') {
    await agent.get(withQuery(routes.start, entry));
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, scenario);
    return { persona, agent, host: undefined, get: (path) => agent.get(path), routed: page };
  }
  const host = `${country.toLowerCase()}.localhost:${new URL(stack.webUrl).port}`;
  const get = (path: string) => agent.get(path).set('host', host);
  const post = (path: string, form: Record<string, string>) => agent.post(path).set('host', host).set('sec-fetch-site', 'same-origin').type('form').send(form);
  await get(withQuery(routes.start, entry));
  await post('/onboarding/customer-type', { customerType: 'private' }).expect(303);
  const start = await post('/onboarding/identification/oidc', {}).expect(303);
  const persona = await personaFor(stack.sandboxUrl, scenario, country);
  const back = await identifyAtBrokerOverHttp(stack.sandboxUrl, start.headers.location as string, persona.nationalId);
  const onboarding = (await get(back.pathname + back.search).expect(302)).headers.location as string;
  await get(onboarding).expect(303);
  const routed = (await get('/onboarding/routing').expect(303)).headers.location as string;
  return { persona, agent, host, get, routed };
}

/**
 * The market's 'accounts' persona (its steps begin with the account picker) after an entry with `entry`
 * (identifyInMarketOverHttp). Answers the customer-information page's HTML.
 */
export async function accountPickerOverHttp(stack: { webUrl: string; sandboxUrl: string }, country: string, entry: string): Promise<string> {
  const { get, routed } = await identifyInMarketOverHttp(stack, country, 'accounts', entry);
  return (await get(routed).expect(200)).text;
}
