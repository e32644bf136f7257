// The one setup of an end-to-end test file: the product (the stack) and the system Chromium, started
// before the file's tests and closed after them.
//
//   import { browser, stack, useE2eStack } from '../support/e2e.ts';
//   useE2eStack({ env: { FILE_RETRY_DELAY_MS: '5' } });
//
// `stack` and `browser` are live bindings: they hold the running stack and browser from the file's
// beforeAll on (vitest gives each test file its own copy of this module). A file calls useE2eStack once,
// at its top level; a test that needs a second, differently configured stack starts it itself.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { identifyOnPhone, personaFor, startPrivateIdentification, type Persona } from './journey.ts';
import { startEmbeddedStack, startRedisStack, type Stack } from './stack.ts';

export let stack: Stack;
export let browser: Browser;

/** A small phone, the screen most prospects use. */
export const PHONE = { width: 360, height: 740 };

export interface E2eOptions {
  /** Environment of the web process on top of the test timings (feature flags, URLs, limits). */
  env?: Record<string, string>;
  /** 'embedded' (default): one process, in-memory stand-ins; 'redis': sandbox, web and worker as processes sharing Redis. */
  mode?: Stack['mode'];
}

let used = false;

export function useE2eStack({ env = {}, mode = 'embedded' }: E2eOptions = {}): void {
  if (used) throw new Error('useE2eStack: call it once per test file');
  used = true;
  // Separate processes take longer to start and to stop than the default hook timeout allows on 2 cores.
  const [startTimeout, stopTimeout] = mode === 'redis' ? [90_000, 60_000] : [undefined, undefined];
  beforeAll(async () => {
    const [started, launched] = await Promise.allSettled([mode === 'redis' ? startRedisStack(env) : startEmbeddedStack(env), launchChromium()]);
    // Keep whichever came up, so that afterAll closes it even when the other failed.
    if (started.status === 'fulfilled') stack = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
  }, startTimeout);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, stopTimeout);
}

/**
 * Identifies `page` with Swedish BankID as the sandbox persona of `scenario` (the test's phone scans) and
 * waits until routing has brought it to the customer-information page.
 */
export async function identifyAs(page: Page, scenario: string, { timeout = 15_000 }: { timeout?: number } = {}): Promise<void> {
  const persona = await personaFor(stack.sandboxUrl, scenario);
  await startPrivateIdentification(page, stack.webUrl, { axe: false });
  await identifyOnPhone(browser, stack.sandboxUrl, persona);
  await page.waitForURL(/\/onboarding\/customer-information\//, { timeout });
}

export type Market = 'SE' | 'NO' | 'DK' | 'FI';

/** The market's own host (each market is served on its own host name). */
export const marketUrl = (country: Market): string => `http://${country.toLowerCase()}.localhost:${new URL(stack.webUrl).port}`;

/** The broker's login page heading per OIDC market (sandbox/oidcProvider.ts). */
const brokerHeading: Record<Exclude<Market, 'SE'>, string> = { DK: 'MitID (sandbox)', NO: 'BankID (sandbox)', FI: 'Finnish bank ID (sandbox)' };

/**
 * Identifies `page` on the market's host with its eID as `persona` (BankID scanned by the test's phone in SE,
 * the OIDC broker elsewhere) and waits for the page `landing` matches, saying where the browser got stuck if not.
 */
export async function identifyInMarket(page: Page, country: Market, persona: Persona, landing: RegExp): Promise<void> {
  if (country === 'SE') {
    await startPrivateIdentification(page, marketUrl('SE'), { axe: false });
    await identifyOnPhone(browser, stack.sandboxUrl, persona);
  } else {
    await page.goto(`${marketUrl(country)}/onboarding`);
    await page.getByRole('button', { name: /Private/ }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.sandboxUrl}/oidc/interaction/**`);
    await expect.poll(() => page.locator('h1').textContent()).toBe(brokerHeading[country]);
    await page.getByLabel('Identify as').selectOption(persona.nationalId);
    await page.getByRole('button', { name: 'Identify' }).click();
  }
  await page.waitForURL(landing, { timeout: 20_000 }).catch(async (err: Error) => {
    throw new Error(`${country} did not reach ${landing}: at ${page.url()} "${await page.locator('main').textContent()}"`, { cause: err });
  });
}
