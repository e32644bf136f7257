// The one setup of an end-to-end test file: the product (the stack) for the file's tests, and the system Chromium (the
// worker's, its contexts closed after each file). A file calls useE2eStack once, at its top level; `stack` and `browser`
// are live bindings set by each beforeAll; a test that needs a second, differently configured stack starts it itself.
//   import { browser, stack, useE2eStack } from '../support/e2e.ts';
//   useE2eStack({ env: { FILE_RETRY_DELAY_MS: '5' } });
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { evaluateSettled, launchChromium } from './browser.ts';
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

/**
 * The worker's Chromium, launched by its first file and left open for the next (each file closes its contexts; Playwright
 * ends the browser with the worker's process): a launch cost each file about a CPU-second on 2 cores. Launched anew
 * after a crash.
 */
let workerBrowser: Promise<Browser> | undefined;

function sharedChromium(): Promise<Browser> {
  workerBrowser ??= launchChromium().then(
    (launched) => launched.on('disconnected', () => (workerBrowser = undefined)),
    (err: unknown) => {
      workerBrowser = undefined;
      throw err;
    },
  );
  return workerBrowser;
}

export function useE2eStack({ env = {}, mode = 'embedded' }: E2eOptions = {}): void {
  if (used) throw new Error('useE2eStack: call it once per test file');
  used = true;
  // Separate processes take longer to start and to stop than the default hook timeout allows on 2 cores.
  const [startTimeout, stopTimeout] = mode === 'redis' ? [90_000, 60_000] : [undefined, undefined];
  beforeAll(async () => {
    const [started, launched] = await Promise.allSettled([mode === 'redis' ? startRedisStack(env) : startEmbeddedStack(env), sharedChromium()]);
    // Keep whichever came up, so that afterAll closes it even when the other failed.
    if (started.status === 'fulfilled') stack = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
  }, startTimeout);
  afterAll(async () => {
    // The next file in this worker shares this module (vitest.config.ts isolate: false) and calls useE2eStack anew.
    used = false;
    await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
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
export const brokerHeading: Record<Exclude<Market, 'SE'>, string> = { DK: 'MitID (sandbox)', NO: 'BankID (sandbox)', FI: 'Finnish bank ID (sandbox)' };

/** Called on each screen a walk passes (the page as shown, and a name for messages). */
export type ScreenHook = (page: Page, screen: string) => Promise<void>;

/**
 * Identifies `page` on the market's host with its eID as `persona` (BankID scanned by the test's phone in SE,
 * the OIDC broker elsewhere) and waits for the page `landing` matches, saying where the browser got stuck if not.
 * `onScreen` sees each screen on the way: the start page, the BankID QR screen and the test BankID app (on a
 * phone-sized page) in SE, the broker's login page elsewhere.
 */
export async function identifyInMarket(page: Page, country: Market, persona: Persona, landing: RegExp, onScreen?: ScreenHook): Promise<void> {
  if (country === 'SE') {
    await startPrivateIdentification(page, marketUrl('SE'), { axe: false });
    await onScreen?.(page, `${country} BankID QR`);
    await identifyOnPhone(
      browser,
      stack.sandboxUrl,
      persona,
      onScreen && { viewport: PHONE, onScreen: (phone) => onScreen(phone, `${country} test BankID app`) },
    );
  } else {
    await page.goto(`${marketUrl(country)}/onboarding`);
    await onScreen?.(page, `${country} start page`);
    await page.getByRole('button', { name: /Private/ }).click();
    await page.getByRole('button', { name: 'Continue' }).waitFor();
    await onScreen?.(page, `${country} identification`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.sandboxUrl}/oidc/interaction/**`);
    await expect.poll(() => page.locator('h1').textContent()).toBe(brokerHeading[country]);
    await onScreen?.(page, `${country} broker login (sandbox)`);
    await page.getByLabel('Identify as').selectOption(persona.nationalId);
    await page.getByRole('button', { name: 'Identify' }).click();
  }
  await page.waitForURL(landing, { timeout: 20_000 }).catch(async (err: Error) => {
    throw new Error(`${country} did not reach ${landing}: at ${page.url()} "${await page.locator('main').textContent()}"`, { cause: err });
  });
}

/**
 * What a screen must be on a 360 px phone: nothing wider than the viewport; the background band not
 * ending inside a heading; no chevron on a card that goes nowhere (only links and buttons carry one); an open
 * modal's actions inside the screen; and the milestone card's "Step N of 3" the progress bar's current step.
 */
export async function expectPhoneLayout(page: Page, screen: string): Promise<void> {
  // Settled: a no-JS screen that refreshes itself (the BankID QR screen) may reload under the check.
  const found = await evaluateSettled(page, () => {
    const problems: string[] = [];
    const { scrollWidth } = document.documentElement;
    if (scrollWidth > window.innerWidth) problems.push(`page ${scrollWidth} px wide in a ${window.innerWidth} px viewport`);
    const band = document.querySelector('.page-background');
    if (band) {
      const edge = band.getBoundingClientRect().bottom;
      for (const h of document.querySelectorAll('h1, h2')) {
        const r = h.getBoundingClientRect();
        if (r.height > 0 && r.top < edge - 1 && r.bottom > edge + 1) problems.push(`background band ends inside "${h.textContent}"`);
      }
    }
    for (const card of document.querySelectorAll('.card:not(a):not(button)')) {
      if (getComputedStyle(card, '::after').content !== 'none') problems.push(`chevron on a ${card.tagName.toLowerCase()} card`);
    }
    for (const dialog of document.querySelectorAll('dialog[open]')) {
      for (const action of dialog.querySelectorAll('.dialog__actions button, .dialog__actions a')) {
        const r = action.getBoundingClientRect();
        if (r.bottom > window.innerHeight || r.top < 0) problems.push(`dialog action "${action.textContent}" outside the screen`);
      }
    }
    const label = document.querySelector('.milestone__label')?.textContent;
    if (label) {
      const steps = [...document.querySelectorAll('.progress > li')];
      const current = steps.findIndex((li) => li.getAttribute('aria-current') === 'step') + 1;
      const card = /(\d+)/.exec(label)?.[1];
      if (Number(card) !== current) problems.push(`milestone card "${label}" while the bar is on step ${current}`);
    }
    return problems;
  });
  // One string, so a failure names every problem in full.
  expect(found.map((problem) => `${screen}: ${problem}`).join('\n')).toBe('');
}
