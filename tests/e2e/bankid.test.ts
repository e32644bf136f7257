// Swedish BankID views and routing outcomes in real Chromium (embedded mode): the mobile choice screen
// and same-device launch, the QR view's switch to this device, Back cancelling the order, QR order
// re-creation, a cancel in the app, and every routing status persona landing on its screen.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { browser, stack, useE2eStack } from '../support/e2e.ts';
import { expectAccessible, personaFor } from '../support/journey.ts';
import { userAgents } from '../support/userAgents.ts';

// Where the BankID app returns to inside our native app (a webview journey).
const NATIVE_APP_RETURN_URL = 'nordicbank://onboarding/bankid-return';

const MANUAL_SUPPORT_URL = 'https://forms.example.com/additional-information';

useE2eStack({ env: { MANUAL_SUPPORT_URL, LOGIN_URL: '/login-next', NATIVE_APP_RETURN_URL } });

interface SandboxOrder {
  orderRef: string;
  status: 'pending' | 'failed' | 'complete';
  hintCode: string;
  autoStartToken: string;
}

async function allOrders(): Promise<SandboxOrder[]> {
  return (await (await fetch(`${stack.sandboxUrl}/sandbox/bankid/all-orders`)).json()) as SandboxOrder[];
}

/** Waits for an order that is not in `seen` and answers it. */
async function nextOrder(seen: Set<string>): Promise<SandboxOrder> {
  let found: SandboxOrder | undefined;
  await expect
    .poll(
      async () => {
        found = (await allOrders()).find((o) => !seen.has(o.orderRef));
        return found !== undefined;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  seen.add(found!.orderRef);
  return found!;
}

async function phoneAction(orderRef: string, action: 'identify' | 'scan' | 'cancel', nationalId?: string): Promise<void> {
  const res = await fetch(`${stack.sandboxUrl}/sandbox/bankid/orders/${orderRef}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(nationalId ? { nationalId } : {}),
  });
  expect(res.status).toBe(200);
}

async function openContext(options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  return { context, page: await context.newPage() };
}

const h1 = (page: Page) => page.locator('h1').first().textContent();
const main = (page: Page) => page.locator('main').textContent();

/** Start page → Private; answers the set of orders that existed before, to find this page's order. */
async function choosePrivate(page: Page): Promise<Set<string>> {
  const seen = new Set((await allOrders()).map((o) => o.orderRef));
  await page.goto(`${stack.webUrl}/onboarding`);
  await page.getByRole('button', { name: /Private/ }).click();
  await expect.poll(() => h1(page)).toBe('Open account with BankID');
  return seen;
}

/**
 * An iPhone (Safari) whose BankID app is a stand-in: iOS hands the universal link to the app, which is
 * recorded in `launched` while the page stays. (A bankid:/// launch cannot be stubbed: headless
 * Chromium's external-protocol prompt would swallow the page's later clicks.)
 */
async function openIphoneWithBankidApp(): Promise<{ context: BrowserContext; page: Page; launched: string[] }> {
  const { context, page } = await openContext({ userAgent: userAgents.iphoneSafari, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const launched: string[] = [];
  await context.route('https://app.bankid.com/**', (route) => {
    launched.push(route.request().url());
    return route.fulfill({ status: 204 });
  });
  return { context, page, launched };
}

describe('Swedish BankID views', () => {
  it('mobile Safari: choice screen → this device → the web launch link starts the app → identified', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'onboarding');
    const { context, page, launched } = await openIphoneWithBankidApp();

    const seen = await choosePrivate(page);
    const thisDevice = page.getByRole('button', { name: 'BankID on this device' });
    await expect.poll(() => thisDevice.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'BankID on another device (QR code)' }).isVisible()).toBe(true);
    // No order is started before the choice.
    expect((await allOrders()).filter((o) => !seen.has(o.orderRef))).toEqual([]);
    await expectAccessible(page, 'BankID device choice');
    await thisDevice.click();

    const order = await nextOrder(seen);
    const link = page.getByRole('link', { name: 'Open the BankID app' });
    await expect.poll(() => link.getAttribute('href')).toBe(`https://app.bankid.com/?autostarttoken=${order.autoStartToken}&redirect=null`);
    expect(await main(page)).toContain('Enter your security code in the BankID app');
    expect(await main(page)).toContain('Select Identify or Sign');
    // The app is started by itself once the order waits for it (outstandingTransaction).
    await expect.poll(() => launched, { timeout: 5000 }).toEqual([`https://app.bankid.com/?autostarttoken=${order.autoStartToken}&redirect=null`]);
    expect(await page.locator('[aria-live]').first().textContent()).toContain('Trying to start your BankID app.');
    await expectAccessible(page, 'BankID same device');

    // Follow the launch link "in the app": the sandbox test app takes the same query.
    const href = new URL((await link.getAttribute('href'))!);
    const app = await browser.newContext();
    const appPage = await app.newPage();
    await appPage.goto(`${stack.sandboxUrl}/sandbox/bankid/app${href.search}`);
    const section = appPage.locator(`section[data-order-ref="${order.orderRef}"]`);
    expect(await appPage.locator('section[data-order-ref]').count()).toBe(1);
    await section.getByLabel('Identify as').selectOption(persona.nationalId);
    await section.getByRole('button', { name: 'Identify' }).click();
    await app.close();

    await page.waitForURL(/\/onboarding\/customer-information\//, { timeout: 15_000 });
    await context.close();
  });

  it('native app webview (iPhone): this device → the app returns to the native app, no returnUrl; exit closes the webview', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'onboarding');
    const { context, page, launched } = await openIphoneWithBankidApp();
    const seen = new Set((await allOrders()).map((o) => o.orderRef));
    await page.goto(`${stack.webUrl}/onboarding?webview=true`);
    await page.getByRole('button', { name: /Private/ }).click();
    await expect.poll(() => h1(page)).toBe('Open account with BankID');
    await page.getByRole('button', { name: 'BankID on this device' }).click();

    const order = await nextOrder(seen);
    const expected = `https://app.bankid.com/?autostarttoken=${order.autoStartToken}&redirect=${encodeURIComponent(NATIVE_APP_RETURN_URL)}`;
    await expect.poll(() => page.getByRole('link', { name: 'Open the BankID app' }).getAttribute('href')).toBe(expected);
    await expect.poll(() => launched, { timeout: 5000 }).toEqual([expected]);
    // In the webview a returnUrl would open the system browser: the order has none.
    const details = (await (await fetch(`${stack.sandboxUrl}/sandbox/bankid/orders/${order.orderRef}`)).json()) as { returnUrl: string | null };
    expect(details.returnUrl).toBeNull();
    await expectAccessible(page, 'BankID same device in the webview');

    await phoneAction(order.orderRef, 'identify', persona.nationalId);
    await page.waitForURL(/\/onboarding\/customer-information\//, { timeout: 15_000 });
    // Exit → 'Yes, exit' closes the webview through the in-app route instead of the start page.
    await page.getByRole('link', { name: 'Exit' }).click();
    const exitRequest = page.waitForRequest((r) => new URL(r.url()).pathname === '/onboarding/close-signup-in-app');
    await page.getByRole('dialog', { name: 'Are you sure you want to exit?' }).getByRole('button', { name: 'Yes, exit' }).click();
    await exitRequest;
    await context.close();
  });

  it('desktop: QR directly, "Open BankID on this device" switches, Back cancels the order', async () => {
    const { context, page } = await openContext();
    const seen = await choosePrivate(page);
    const qrOrder = await nextOrder(seen);
    await expect.poll(() => page.locator('[data-island="bankidQr"] svg').count()).toBe(1);
    expect(await main(page)).toContain('or');
    await page.getByRole('button', { name: 'Open BankID on this device' }).click();

    const sameDeviceOrder = await nextOrder(seen);
    const link = page.getByRole('link', { name: 'Open the BankID app' });
    await expect.poll(() => link.getAttribute('href')).toBe(`bankid:///?autostarttoken=${sameDeviceOrder.autoStartToken}&redirect=null`);
    expect(await page.locator('[data-island="bankidQr"] svg').count()).toBe(0);
    const order = async (ref: string) =>
      (await (await fetch(`${stack.sandboxUrl}/sandbox/bankid/orders/${ref}`)).json()) as SandboxOrder & { returnUrl: string | null };
    // Switching cancelled the QR order; the same-device order carries the returnUrl (RP API v6.0).
    expect(await order(qrOrder.orderRef)).toMatchObject({ status: 'failed', hintCode: 'cancelled' });
    expect((await order(sameDeviceOrder.orderRef)).returnUrl).toBe(`${stack.webUrl}/onboarding`);

    // The island starts the app (bankid:///) as soon as it hydrates: Chromium then asks "Open BankID?", which a
    // person dismisses and headless Chromium keeps open and unseen, swallowing every later click (on a loaded
    // machine the hydration came before the click, and Back never reached the server). So the Back button
    // submits its form as a click on it would.
    const back = page.getByRole('button', { name: 'Back' });
    await back.evaluate((button: HTMLButtonElement) => button.form!.requestSubmit(button));
    await expect.poll(() => h1(page)).toBe("Before we get started. Who's the account for?");
    expect(await order(sameDeviceOrder.orderRef)).toMatchObject({ status: 'failed', hintCode: 'cancelled' });
    await context.close();
  });

  it('re-creates an expiring QR order twice, then shows the RFA message with Try again', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'bankidExpires');
    const { context, page } = await openContext();
    const seen = await choosePrivate(page);
    const refs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const order = await nextOrder(seen);
      refs.push(order.orderRef);
      // Scanned by a persona whose orders run out 3 s after creation.
      await phoneAction(order.orderRef, 'scan', persona.nationalId);
    }
    const status = page.locator('[aria-live]').first();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('The BankID app is not responding.');
    expect(new Set(refs).size).toBe(3);
    // No fourth order: QR orders are re-created at most twice.
    expect((await allOrders()).filter((o) => !seen.has(o.orderRef))).toEqual([]);
    await page.getByRole('button', { name: 'Try again' }).click();
    await nextOrder(seen);
    await expect.poll(() => page.locator('[data-island="bankidQr"] svg').count()).toBe(1);
    await page.getByRole('button', { name: 'Back' }).click();
    await context.close();
  });

  it('a cancel in the BankID app shows "Action cancelled." with Try again', async () => {
    const { context, page } = await openContext();
    const seen = await choosePrivate(page);
    const order = await nextOrder(seen);
    const phone = await browser.newContext();
    const phonePage = await phone.newPage();
    await phonePage.goto(`${stack.sandboxUrl}/sandbox/bankid/app`);
    await phonePage.locator(`section[data-order-ref="${order.orderRef}"]`).getByRole('button', { name: 'Cancel' }).click();
    await phone.close();
    await expect.poll(() => page.locator('[aria-live]').first().textContent(), { timeout: 10_000 }).toBe('Action cancelled.');
    expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
    await expectAccessible(page, 'BankID failed');
    await page.getByRole('button', { name: 'Back' }).click();
    await context.close();
  });
});

// The routing tests run concurrently; only finding "my" new order must happen one flow at a time.
let orderLock: Promise<unknown> = Promise.resolve();
function exclusively<T>(fn: () => Promise<T>): Promise<T> {
  const run = orderLock.then(fn, fn);
  orderLock = run.catch(() => undefined);
  return run;
}

describe('routing after identification (every routing status)', () => {
  // Eight browser flows share two cores here: each waits longer for its first screen than a lone flow would.
  const FLOW_WAIT_MS = 30_000;

  async function identifyAs(scenario: string): Promise<{ context: BrowserContext; page: Page }> {
    const persona = await personaFor(stack.sandboxUrl, scenario);
    const opened = await openContext();
    await exclusively(async () => {
      const seen = await choosePrivate(opened.page);
      const order = await nextOrder(seen);
      await phoneAction(order.orderRef, 'identify', persona.nationalId);
    });
    return opened;
  }

  // Each case is a whole browser flow; they run side by side to keep the file fast.
  const cases: [string, () => Promise<void>][] = [];

  cases.push([
    'LOGIN → You already have an account, Continue to log in, no close X',
    async () => {
      const { context, page } = await identifyAs('login');
      await expect.poll(() => h1(page), { timeout: FLOW_WAIT_MS }).toBe('You already have an account');
      expect(await main(page)).toContain('It looks like you already have an account. Try to login instead.');
      // A path of the bank's site (BANK_SITE_URL, the sandbox here).
      expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(`${stack.sandboxUrl}/login-next`);
      expect(await page.getByRole('link', { name: 'Close' }).count()).toBe(0);
      await context.close();
    },
  ]);

  cases.push([
    'MINOR → Information for you as a minor; Continue leads to the minor account types',
    async () => {
      const { context, page } = await identifyAs('minor');
      await expect.poll(() => h1(page), { timeout: FLOW_WAIT_MS }).toBe('Information for you as a minor');
      expect(await page.getByRole('link', { name: 'Close' }).count()).toBe(1);
      await expectAccessible(page, 'minor error');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect.poll(() => h1(page)).toBe('Which account does the child need?');
      await context.close();
    },
  ]);

  cases.push([
    'MANUAL_SUPPORT → You need to provide additional information, Submit more information',
    async () => {
      const { context, page } = await identifyAs('manualSupport');
      await expect.poll(() => h1(page), { timeout: FLOW_WAIT_MS }).toBe('You need to provide additional information');
      expect(await page.getByRole('link', { name: 'Submit more information' }).getAttribute('href')).toBe(MANUAL_SUPPORT_URL);
      await expectAccessible(page, 'manual support error');
      await context.close();
    },
  ]);

  cases.push([
    "blocked (403 shouldBlockBecomeCustomer) → Your application can't be approved, no button",
    async () => {
      const { context, page } = await identifyAs('blocked');
      await expect.poll(() => h1(page), { timeout: FLOW_WAIT_MS }).toBe("Your application can't be approved at this moment");
      expect(await main(page)).toContain('This may be because you were a former customer.');
      expect(await page.locator('main a, main button').count()).toBe(0);
      await expectAccessible(page, 'blocked error');
      // Back resets the type and the error: the customer type selection again.
      await page.getByRole('button', { name: 'Back' }).click();
      await expect.poll(() => h1(page)).toBe("Before we get started. Who's the account for?");
      await context.close();
    },
  ]);

  cases.push([
    'ONBOARDING_NIGHTLY_DOWNTIME → the nightly-downtime page',
    async () => {
      const { context, page } = await identifyAs('nightlyDowntimeRouting');
      await page.waitForURL(/\/onboarding\/nightly-downtime-status/, { timeout: FLOW_WAIT_MS });
      await expect.poll(() => h1(page)).toBe('See you tomorrow!');
      await context.close();
    },
  ]);

  cases.push([
    'ONBOARDING_OPEN_CASE → the application status page',
    async () => {
      const { context, page } = await identifyAs('openCase');
      await page.waitForURL(/\/onboarding\/case-status/, { timeout: FLOW_WAIT_MS });
      await expect.poll(() => main(page)).toContain('Your application has been received');
      await context.close();
    },
  ]);

  cases.push([
    'SHOULD_NOT_UPDATE_STATUS → a legacy prospect and the legacy flow',
    async () => {
      const { context, page } = await identifyAs('legacyFlow');
      await page.waitForURL(/\/onboarding\/customer-information\/[^/?]+\?shouldUseLegacyFlow=true/, { timeout: FLOW_WAIT_MS });
      await context.close();
    },
  ]);

  cases.push([
    'ONBOARDING_INTENT → intent, validation step, prospect, customer information',
    async () => {
      const { context, page } = await identifyAs('onboardingIntent');
      await page.waitForURL(/\/onboarding\/customer-information\/[^/?]+$/, { timeout: FLOW_WAIT_MS });
      await expect.poll(() => h1(page)).toBe("Let's start your savings journey!");
      await context.close();
    },
  ]);

  it('every routing status persona lands on its screen with the spec texts (flows run concurrently)', async () => {
    const results = await Promise.allSettled(cases.map(([, run]) => run()));
    const failures = results.flatMap((r, i) => (r.status === 'rejected' ? [`${cases[i]![0]}: ${(r.reason as Error).message}`] : []));
    expect(failures).toEqual([]);
  }, 120_000);
});
