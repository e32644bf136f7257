// A created customer arrives logged in on the bank's site (identification-routing-creation §4 "Customer creation"), in
// Chromium: a done persona of each market presses Continue on the done screen and ends on the bank site's stand-in logged
// in as themselves; the hand-off address replayed logs nobody in; in the app's webview Continue goes to the app's
// login-in-app route and no login is handed over; a login that fails is the error screen, whose Try again tries again.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { browser, marketUrl, PHONE, stack, useE2eStack, type Market } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { recordMainTexts } from '../support/journey.ts';
import { signInMarketOverHttp } from '../support/customerInformation.ts';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { routes } from '../../shared/routes.ts';
import en from '../../locales/en.json' with { type: 'json' };

useE2eStack({ env: { CREATION_POLL_MS: '50' } });

const HANDOFF = /\/sandbox\/bank-site\/login\/handoff\?/;

let context: BrowserContext;
beforeAll(async () => {
  context = await browser.newContext({ viewport: PHONE });
});
afterAll(async () => {
  await context?.close();
});

/** The signed person's creation page in the browser, on their market's host, once it shows `title`. */
async function creationPageOf(country: Market, signed: Awaited<ReturnType<typeof signInMarketOverHttp>>, title: string): Promise<Page> {
  const origin = country === 'SE' ? stack.webUrl : marketUrl(country);
  await context.clearCookies();
  await context.addCookies(signed.cookies.map((c) => ({ ...c, url: origin })));
  const page = await context.newPage();
  await page.goto(`${origin}${routes.customerCreation(signed.prospectId)}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 20_000 });
  return page;
}

/** The hand-off addresses the page's navigations went through. */
function handoffsOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (HANDOFF.test(r.url())) seen.push(r.url());
  });
  return seen;
}

const loginStatus = (page: Page) => page.locator('.login-status').textContent();
const masked = (nationalId: string) => `${nationalId.slice(0, -4)}****`;

/** The login calls that reached the brokerage (the sandbox's read-out of every post). */
async function loginCalls(): Promise<number> {
  const { calls } = (await request(stack.sandboxUrl).get('/sandbox/brokerage-calls').expect(200)).body as { calls: Array<{ path: string }> };
  return calls.filter((c) => c.path === brokeragePaths.nnxSessionLogin).length;
}

describe('a created customer arrives logged in on the bank site', () => {
  it.each(['SE', 'NO', 'DK', 'FI'] as const)(
    '%s: Continue on the done screen ends on the bank site, logged in as themselves; the hand-off replayed logs nobody in',
    async (country) => {
      const signed = await signInMarketOverHttp(stack.webUrl, stack.sandboxUrl, country);
      const page = await creationPageOf(country, signed, en['creation.done.title']);
      const errors = collectPageErrors(page);
      const handoffs = handoffsOf(page);
      // The done screen waits for the person: Continue (a post) and "Start using the app" side by side.
      expect(await page.getByRole('link', { name: en['creation.button.startUsingApp'] }).count()).toBe(1);
      await page.getByRole('button', { name: en['creation.button.continue'] }).click();
      await page.waitForURL(`${stack.sandboxUrl}/sandbox/overview`);
      expect(await loginStatus(page)).toBe(`Logged in as ${signed.persona.name} (${masked(signed.persona.nationalId)})`);
      expect(await page.content()).not.toContain(signed.persona.nationalId);
      // The code was in the address for one redirect: the page the person lands on carries none.
      expect(handoffs).toHaveLength(1);
      expect(page.url()).not.toContain('code=');
      expect(errors).toEqual([]);

      // The same address again, in this browser or another one: refused, nobody logged in by it.
      const replay = await page.goto(handoffs[0]!);
      expect(replay?.status()).toBe(400);
      expect(await page.locator('main').textContent()).toContain('The log-in link has already been used.');
      expect(await loginStatus(page)).toBe('Not logged in');
      const stranger = await browser.newContext();
      const other = await stranger.newPage();
      expect((await other.goto(handoffs[0]!))?.status()).toBe(400);
      await other.goto(`${stack.sandboxUrl}/sandbox/overview`);
      expect(await loginStatus(other)).toBe('Not logged in');
      await stranger.close();
      await page.close();
    },
    90_000,
  );
});

describe('the done screen waits for the person (WCAG 2.2.1: no time limit)', () => {
  it('with the page\'s clock run on by a minute it is still there, Continue and "Start using the app" side by side', async () => {
    const signed = await signInMarketOverHttp(stack.webUrl, stack.sandboxUrl, 'SE');
    await context.clearCookies();
    await context.addCookies(signed.cookies.map((c) => ({ ...c, url: stack.webUrl })));
    const page = await context.newPage();
    // The page's timers on a clock of the test's own: a move after a pause would come within this minute.
    await page.clock.install();
    const url = `${stack.webUrl}${routes.customerCreation(signed.prospectId)}`;
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: en['creation.done.title'] }).waitFor({ timeout: 20_000 });
    await page.clock.runFor(60_000);
    expect(page.url()).toBe(url);
    expect(await page.getByRole('button', { name: en['creation.button.continue'] }).count()).toBe(1);
    expect(await page.getByRole('link', { name: en['creation.button.startUsingApp'] }).count()).toBe(1);
    await page.close();
  }, 60_000);
});

describe('identification-routing-creation §4: no login in a webview, a failed login is the error screen', () => {
  it("in the app's webview Continue goes to the login-in-app route; no login is started or handed over", async () => {
    const signed = await signInMarketOverHttp(stack.webUrl, stack.sandboxUrl, 'SE', { entry: '/onboarding?webview=true' });
    const page = await creationPageOf('SE', signed, en['creation.done.title']);
    const handoffs = handoffsOf(page);
    expect(await page.getByRole('link', { name: en['creation.button.startUsingApp'] }).count()).toBe(0);
    await page.getByRole('button', { name: en['creation.button.continue'] }).click();
    await page.waitForURL(`${stack.webUrl}${routes.loginInApp}`);
    expect(handoffs).toEqual([]);
    const after = (await request(stack.sandboxUrl).get('/sandbox/after-creation').query({ prospectId: signed.prospectId }).expect(200)).body;
    expect(after).toEqual({ loginSessions: 0, leadNumbers: [] });
    await page.close();
  }, 60_000);

  it('loginSessionFails: the error screen; Try again polls again and tries the login again, which fails the same way', async () => {
    const before = await loginCalls();
    const signed = await signInMarketOverHttp(stack.webUrl, stack.sandboxUrl, 'SE', { scenario: 'loginSessionFails' });
    const page = await creationPageOf('SE', signed, en['creation.error.title']);
    expect(await loginCalls()).toBe(before + 1);
    expect(await page.locator('main').textContent()).toContain(en['creation.error.text']);
    const shown = await recordMainTexts(page);
    await page.getByRole('button', { name: en['creation.button.tryAgain'] }).click();
    await expect.poll(() => shown().some((t) => t.includes(en['creation.polling.title'])), { timeout: 10_000 }).toBe(true);
    await page.getByRole('heading', { level: 1, name: en['creation.error.title'] }).waitFor({ timeout: 20_000 });
    expect(await loginCalls()).toBe(before + 2);
    const after = (await request(stack.sandboxUrl).get('/sandbox/after-creation').query({ prospectId: signed.prospectId }).expect(200)).body;
    expect(after).toMatchObject({ loginSessions: 0 });
    await page.close();
  }, 60_000);
});
