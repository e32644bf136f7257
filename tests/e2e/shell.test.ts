// The page shell and customer type selection in real Chromium (identification-routing-creation §2 "Onboarding page shell",
// "Customer type selection", account type lists; identification-routing-creation §4 FI lang switch; webview close target): mobile and
// desktop layouts, the four markets via *.localhost hosts, in-app browser hand-off, no-JavaScript use.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { browser, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { freePort, startEmbeddedStack } from '../support/stack.ts';
import { expectAccessible } from '../support/journey.ts';
import { marketLinkDefaults } from '../../server/config.ts';

const instagramIos =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 295.0.0.22.109 (iPhone14,5; iOS 16_6; en_US; en; scale=3.00; 1170x2532; 500118232)';
const TITLE = "Before we get started. Who's the account for?";

let port: string;

useE2eStack();

beforeAll(() => {
  port = new URL(stack.webUrl).port;
});

async function open(url: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

const h1 = (page: Page) => page.locator('h1').textContent();
const imageLoaded = (page: Page, selector: string) => page.locator(selector).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

describe('start page', () => {
  it('shows the shell and the three cards on a 360 px phone, accessible', async () => {
    const page = await open(`${stack.webUrl}/onboarding`, { viewport: PHONE });
    const errors = collectPageErrors(page);
    expect(await h1(page)).toBe(TITLE);
    expect(await page.title()).toBe('Onboarding');
    expect(await page.locator('link[rel=canonical]').getAttribute('href')).toBe(`${stack.webUrl}/onboarding`);

    for (const name of [/^Private/, /^Business/, /^Underage/]) {
      const box = (await page.getByRole('button', { name }).boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
    }
    expect(await page.getByRole('link', { name: 'Already a customer? Log in' }).getAttribute('href')).toBe(`${stack.sandboxUrl}/login-next`);
    expect(await page.locator('.risk-reminder').textContent()).toMatch(/all investments involve risk/);

    // Progress bar: 3 steps with the milestone texts, the first current.
    const steps = page.locator('.progress > li');
    expect(await steps.count()).toBe(3);
    expect(await page.locator('.progress__milestone').allTextContents()).toEqual([
      'Set up your account',
      'Answer questions about your savings',
      'Sign with BankID',
    ]);
    expect(await steps.first().getAttribute('aria-current')).toBe('step');

    // Unique-selling points: the N/A items of the catalogue are hidden.
    const usps = await page.locator('.usp-list > li').allTextContents();
    expect(usps.length).toBe(5);
    expect(usps).not.toContain('N/A');

    expect(await page.locator('.signup__image').getAttribute('src')).toBe('/images/signup_page2.svg');
    expect(await imageLoaded(page, '.signup__image')).toBe(true);
    // The background comes from the content service (the sandbox) and passes the CSP.
    expect(await page.locator('.page-background').getAttribute('src')).toBe(`${stack.sandboxUrl}/sandbox/content/onboarding-background.svg`);
    expect(await imageLoaded(page, '.page-background')).toBe(true);

    expect(await page.locator('.site-footer a[href^="tel:"]').getAttribute('href')).toBe('tel:+46800000000');
    expect(await page.locator('.site-footer').getByRole('link', { name: 'Frequently asked questions' }).getAttribute('href')).toBe(
      marketLinkDefaults.FAQ_URL.SE,
    );
    expect(await page.getByRole('link', { name: 'Close' }).getAttribute('href')).toBe('/onboarding/leave');

    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page, 'customer type (mobile)');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('puts the signup panel next to the content on a desktop, campaign image by query', async () => {
    const page = await open(`${stack.webUrl}/onboarding?campaign=level-up`, { viewport: { width: 1440, height: 900 } });
    expect(await page.locator('.signup__image').getAttribute('src')).toBe('/images/signup_level-up.svg');
    const content = (await page.locator('main').boundingBox())!;
    const panel = (await page.locator('.signup').boundingBox())!;
    expect(content.width).toBeLessThanOrEqual(520);
    expect(panel.x).toBeGreaterThan(content.x + content.width);
    // The header's column in the full-width top band and the content's column are the same 1280 px.
    expect(await page.locator('.page').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width))).toEqual([1280, 1280]);
    await expectAccessible(page, 'customer type (desktop)');
    // The campaign stays with the journey.
    await page.goto(`${stack.webUrl}/onboarding`);
    expect(await page.locator('.signup__image').getAttribute('src')).toBe('/images/signup_level-up.svg');
    await page.context().close();
  });

  it('is styled by its inline stylesheet alone, which the CSP allows, and prefetches the file for the next page', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    // The stylesheet file never arrives: what styles the page is the copy inside it.
    const fetched: string[] = [];
    await page.route('**/build/*.css', (route) => {
      fetched.push(route.request().url());
      return route.abort();
    });
    await page.goto(`${stack.webUrl}/onboarding`);
    await expect.poll(() => fetched.length).toBe(1);
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
    expect(
      await page
        .locator('.card')
        .first()
        .evaluate((el) => getComputedStyle(el).minHeight),
    ).toBe('44px');
    expect(
      await page
        .locator('.page')
        .first()
        .evaluate((el) => el.getBoundingClientRect().width),
    ).toBe(360);
    // The one request for the file was the prefetch; a CSP refusal of the inline copy would be a console error.
    expect(errors.filter((e) => !e.includes('net::ERR_FAILED'))).toEqual([]);
    await context.close();
  });
});

describe('business and minor account type lists', () => {
  const forms = (base: string, country: string, types: string[]) => types.map((t) => `https://forms.example.com/${base}/${country}/${t}`);
  const markets = [
    {
      country: 'se',
      business: [...forms('business', 'se', ['dep', 'kf', 'savings']), 'https://www.example.com/se/occupational-pension'],
      minor: forms('minor', 'se', ['dep', 'isk', 'kf']),
    },
    { country: 'no', business: forms('business', 'no', ['dep', 'savings']), minor: forms('minor', 'no', ['dep', 'ask']) },
    { country: 'dk', business: forms('business', 'dk', ['dep']), minor: forms('minor', 'dk', ['dep']) },
    { country: 'fi', business: forms('business', 'fi', ['dep']), minor: forms('minor', 'fi', ['dep', 'ost', 'sip']) },
  ];

  it.each(markets)('$country: Business and Underage lead to the market lists, Back resets', async ({ country, business, minor }) => {
    const base = `http://${country}.localhost:${port}`;
    const page = await open(`${base}/onboarding`);
    expect(await h1(page)).toBe(TITLE);

    await page.getByRole('button', { name: /^Business/ }).click();
    await expect.poll(() => h1(page)).toBe('Which account does your business need?');
    expect(await page.locator('main .card').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(business);
    expect(await page.getByRole('link', { name: 'Read about account types' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Read about the deposit guarantee' }).count()).toBe(1);
    if (country === 'se') await expectAccessible(page, 'business account types');

    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => h1(page)).toBe(TITLE);

    await page.getByRole('button', { name: /^Underage/ }).click();
    await expect.poll(() => h1(page)).toBe('Which account does the child need?');
    expect(await page.locator('main .card').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(minor);
    if (country === 'fi') {
      // Investment insurance needs the guardian's suitability assessment first.
      expect(await page.getByRole('link', { name: /Investment insurance/ }).textContent()).toContain('suitability assessment');
      await expectAccessible(page, 'minor account types');
    }
    // A reload keeps the list: the type lives in the journey.
    await page.reload();
    expect(await h1(page)).toBe('Which account does the child need?');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => h1(page)).toBe(TITLE);
    await page.context().close();
  });
});

describe('in-app browsers of social apps', () => {
  const tiktokAndroid =
    'Mozilla/5.0 (Linux; Android 12; SM-A525F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/110.0.5481.153 Mobile Safari/537.36 trill_290203 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/29.2.3 ByteLocale/en ByteFullLocale/en Region/GB Spark/1.2.7-alpha.8 AppVersion/29.2.3 BytedanceWebview/d8a21c6';

  it('Instagram on iOS: Private opens Safari with the query and the tracking ids', async () => {
    const context = await browser.newContext({ userAgent: instagramIos, viewport: { width: 390, height: 844 } });
    // at_gd only as a cookie: it must still travel to the external browser.
    await context.addCookies([{ name: 'at_gd', value: 'G456', url: stack.webUrl }]);
    const page = await context.newPage();
    await page.goto(`${stack.webUrl}/onboarding?campaign=ask&utm_source=instagram&tduid=T123`);
    const card = page.getByRole('link', { name: /^Private/ });
    expect(await card.getAttribute('href')).toBe(`x-safari-http://127.0.0.1:${port}/onboarding?campaign=ask&utm_source=instagram&tduid=T123&at_gd=G456`);
    // The other cards stay plain form posts.
    expect(await page.getByRole('button', { name: /^Business/ }).count()).toBe(1);
    await expectAccessible(page, 'customer type (in-app browser)');
    await context.close();
  });

  it('TikTok on Android: Private is an intent link to the default browser', async () => {
    const context = await browser.newContext({ userAgent: tiktokAndroid });
    await context.addCookies([{ name: 'tduid', value: 'COOKIE-T', url: `http://dk.localhost:${port}` }]);
    const page = await context.newPage();
    await page.goto(`http://dk.localhost:${port}/onboarding?at_gd=G1&campaign=level-up`);
    expect(await page.getByRole('link', { name: /^Private/ }).getAttribute('href')).toBe(
      `intent://dk.localhost:${port}/onboarding?at_gd=G1&campaign=level-up&tduid=COOKIE-T#Intent;scheme=http;action=android.intent.action.VIEW;end`,
    );
    await context.close();
  });

  it('a normal browser gets the plain Private button', async () => {
    const page = await open(`${stack.webUrl}/onboarding?tduid=T1`);
    expect(await page.getByRole('button', { name: /^Private/ }).count()).toBe(1);
    expect(await page.getByRole('link', { name: /^Private/ }).count()).toBe(0);
    await page.context().close();
  });
});

describe('webview and language', () => {
  it('in a webview the Close X ends on the close-signup-in-app route on every shell screen', async () => {
    const page = await open(`${stack.webUrl}/onboarding?webview=true`);
    const leaveInApp = '/onboarding/leave?webview=true';
    expect(await page.getByRole('link', { name: 'Close' }).getAttribute('href')).toBe(leaveInApp);
    await page.getByRole('button', { name: /^Business/ }).click();
    await expect.poll(() => h1(page)).toBe('Which account does your business need?');
    expect(await page.getByRole('link', { name: 'Close' }).getAttribute('href')).toBe(leaveInApp);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => h1(page)).toBe(TITLE);
    expect(await page.getByRole('link', { name: 'Close' }).getAttribute('href')).toBe(leaveInApp);
    await page.getByRole('link', { name: 'Close' }).click();
    await page.waitForURL(`${stack.webUrl}/onboarding/close-signup-in-app`);
    await page.context().close();
  });

  it('FI: lang fi or sv switches the locale cookie and reloads without lang', async () => {
    const base = `http://fi.localhost:${port}`;
    const page = await open(`${base}/onboarding?lang=fi&webview=true`);
    expect(page.url()).toBe(`${base}/onboarding?webview=true`);
    expect(await page.locator('html').getAttribute('lang')).toBe('fi-FI');
    const cookies = () => page.context().cookies(base);
    expect((await cookies()).find((c) => c.name === 'locale')?.value).toBe('fi-FI');

    await page.goto(`${base}/onboarding?lang=sv`);
    expect(page.url()).toBe(`${base}/onboarding`);
    expect(await page.locator('html').getAttribute('lang')).toBe('sv-FI');
    expect((await cookies()).find((c) => c.name === 'locale')?.value).toBe('sv-FI');
    await expectAccessible(page, 'customer type (sv-FI)');

    // The cookie alone keeps the language in a fresh session (the native app reopening the webview).
    await page.context().clearCookies({ name: 'onb.sid' });
    await page.goto(`${base}/onboarding`);
    expect(await page.locator('html').getAttribute('lang')).toBe('sv-FI');
    await page.context().close();
  });

  it('other markets use lang without a reload', async () => {
    const page = await open(`http://se.localhost:${port}/onboarding?lang=sv`);
    expect(page.url()).toBe(`http://se.localhost:${port}/onboarding?lang=sv`);
    expect(await page.locator('html').getAttribute('lang')).toBe('sv-SE');
    expect((await page.context().cookies()).find((c) => c.name === 'locale')).toBeUndefined();
    await page.context().close();
  });
});

describe('without JavaScript', () => {
  it('the customer type selection works as plain form posts', async () => {
    const page = await open(`${stack.webUrl}/onboarding`, { javaScriptEnabled: false });
    await page.getByRole('button', { name: /^Business/ }).click();
    await expect.poll(() => h1(page)).toBe('Which account does your business need?');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => h1(page)).toBe(TITLE);
    await page.getByRole('button', { name: /^Underage/ }).click();
    await expect.poll(() => h1(page)).toBe('Which account does the child need?');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => h1(page)).toBe(TITLE);
    await page.getByRole('button', { name: /^Private/ }).click();
    // Private continues to the market's identification (SE: BankID).
    await expect.poll(() => h1(page)).not.toBe(TITLE);
    expect(new URL(page.url()).pathname).toBe('/onboarding');
    await page.context().close();
  });
});

describe('a second stack: failing upstreams, hand-off flag off', () => {
  it('shows the static fallback background, logs nobody out on page views, and honours the flag', async () => {
    // A stand-in brokerage that records any logout call (401 for one path, 500 for the other).
    const calls: { method: string; path: string; authorization?: string; cookie?: string }[] = [];
    const recorder = createServer((req, res) => {
      if (req.method === 'DELETE') calls.push({ method: req.method, path: req.url!, authorization: req.headers.authorization, cookie: req.headers.cookie });
      res.writeHead(req.url === '/api/2/login' ? 500 : 401, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const brokerageUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
    const broken = await startEmbeddedStack({
      BROKERAGE_API_URL: brokerageUrl,
      CONTENT_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
      CONTENT_TIMEOUT_MS: '300',
      FLAG_IN_APP_BROWSER_HANDOFF: 'false',
    });
    try {
      const page = await open(`${broken.webUrl}/onboarding`);
      expect(await h1(page)).toBe(TITLE);
      expect(await page.locator('.page-background').getAttribute('src')).toBe('/images/background-fallback.svg');
      expect(await imageLoaded(page, '.page-background')).toBe(true);

      // Page views log nobody out: the logout runs once per identification, with that identification's
      // credentials (server/stages/identification/identified.ts).
      await page.reload();
      await page.getByRole('button', { name: /^Business/ }).click();
      await expect.poll(() => h1(page)).toBe('Which account does your business need?');
      expect(calls).toEqual([]);
      await page.context().close();

      // With the hand-off flag off, an in-app browser keeps the plain Private button.
      const inApp = await open(`${broken.webUrl}/onboarding`, { userAgent: instagramIos });
      expect(await inApp.getByRole('button', { name: /^Private/ }).count()).toBe(1);
      await inApp.context().close();
    } finally {
      await broken.stop();
      await new Promise((r) => recorder.close(r));
    }
  });
});
