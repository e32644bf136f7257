// The one setup of an end-to-end test file: the product (the stack) for the file's tests, and the system Chromium (the
// worker's, its contexts closed after each file). A file calls useE2eStack once, at its top level; `stack` and `browser`
// are live bindings set by each beforeAll; a test that needs a second, differently configured stack starts it itself.
//   import { browser, stack, useE2eStack } from '../support/e2e.ts';
//   useE2eStack({ env: { FILE_RETRY_DELAY_MS: '5' } });
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { evaluateSettled, launchChromium } from './browser.ts';
import request from 'supertest';
import { agentCookies } from './agentCookies.ts';
import { identifyInMarketOverHttp, identifyOnPhone, personaFor, startPrivateIdentification, type Persona } from './journey.ts';
import { startEmbeddedStack, startRedisStack, type Stack } from './stack.ts';
import { routes, withQuery } from '../../shared/routes.ts';

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

/** Where routing sends a person with steps to answer. */
const CUSTOMER_INFORMATION = /\/onboarding\/customer-information\//;

export interface IdentifyOptions {
  /** How long the landing may take to show. */
  timeout?: number;
  /**
   * Walk the identification in the browser even without `onScreen`: for a test about identification itself, or one
   * whose context carries state from before it (a page already shown, the webview's entry) that HTTP would not.
   */
  inBrowser?: boolean;
  /** Called on each screen of a walk in the browser (implies it). */
  onScreen?: ScreenHook;
  /** The start page's query (a campaign, say; without `?`), which either path carries into the journey. */
  entry?: string;
}

/**
 * Identifies `page` with Swedish BankID as the sandbox persona of `scenario` and waits for the page `landing`
 * matches (default: the customer-information page): identifyInMarket's SE identification, on the default host.
 */
export async function identifyAs(
  page: Page,
  scenario: string,
  { landing = CUSTOMER_INFORMATION, timeout = 15_000, ...options }: IdentifyOptions & { landing?: RegExp } = {},
): Promise<void> {
  await identifyAt(page, stack.webUrl, 'SE', await personaFor(stack.sandboxUrl, scenario), landing, { timeout, ...options });
}

export type Market = 'SE' | 'NO' | 'DK' | 'FI';

/** The market's own host (each market is served on its own host name). */
export const marketUrl = (country: Market): string => `http://${country.toLowerCase()}.localhost:${new URL(stack.webUrl).port}`;

/** The broker's login page heading per OIDC market (sandbox/oidcProvider.ts). */
export const brokerHeading: Record<Exclude<Market, 'SE'>, string> = { DK: 'MitID (sandbox)', NO: 'BankID (sandbox)', FI: 'Finnish bank ID (sandbox)' };

/** Called on each screen a walk passes (the page as shown, and a name for messages). */
export type ScreenHook = (page: Page, screen: string) => Promise<void>;

/**
 * Identifies `page` on the market's host with its eID as `persona` (BankID in SE, the OIDC broker elsewhere) and
 * waits for the page `landing` matches, saying where the browser got stuck if not. `onScreen` sees each screen on the
 * way: the start page, the BankID QR screen and the test BankID app (on a phone-sized page) in SE, the broker's login
 * page elsewhere.
 */
export async function identifyInMarket(
  page: Page,
  country: Market,
  persona: Persona,
  landing: RegExp,
  { timeout = 20_000, ...options }: IdentifyOptions = {},
): Promise<void> {
  await identifyAt(page, marketUrl(country), country, persona, landing, { timeout, ...options });
}

/**
 * The one identification of the e2e files. Over HTTP unless the walk is asked for (`inBrowser`, `onScreen`): the
 * browser path costs several page loads and a second context for the phone, a large part of the suite's Chromium time,
 * and most tests only need the person on their landing page; bankid, oidc and journey tests walk the screens themselves.
 */
async function identifyAt(page: Page, webUrl: string, country: Market, persona: Persona, landing: RegExp, options: IdentifyOptions): Promise<void> {
  const { onScreen, inBrowser = onScreen !== undefined, timeout, entry = '' } = options;
  if (!inBrowser) await openIdentifiedOverHttp(page, webUrl, country, persona, entry);
  else if (country === 'SE') {
    await startPrivateIdentification(page, webUrl, { axe: false, entry });
    await onScreen?.(page, `${country} BankID QR`);
    await identifyOnPhone(
      browser,
      stack.sandboxUrl,
      persona,
      onScreen && { viewport: PHONE, onScreen: (phone) => onScreen(phone, `${country} test BankID app`) },
    );
  } else {
    await page.goto(`${webUrl}${withQuery(routes.start, entry)}`);
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
  await page.waitForURL(landing, { timeout }).catch(async (err: Error) => {
    throw new Error(`${country} did not reach ${landing}: at ${page.url()} "${await page.locator('main').textContent()}"`, { cause: err });
  });
}

/**
 * The person identifies over HTTP (tests/support/journey.ts identifyInMarketOverHttp) carrying the cookies the page's
 * context already holds for `webUrl` (a locale chosen, say), as the browser would send them; the agent's cookies then
 * join the context, which opens the page routing chose. A context cookie the server changed or dropped meanwhile is an
 * error: replacing it silently would hide a difference from the browser's walk.
 */
async function openIdentifiedOverHttp(page: Page, webUrl: string, country: Market, persona: Persona, entry: string): Promise<void> {
  const context = page.context();
  const held = await context.cookies(webUrl);
  // The agent talks to the stack's own address (market hosts go in the Host header), so its jar keys cookies by that.
  const agent = request.agent(stack.webUrl);
  for (const c of held) agent.jar.setCookie(`${c.name}=${c.value}`, new URL(stack.webUrl).hostname, '/');
  const identified = await identifyInMarketOverHttp(stack, country, persona.scenario, entry, agent);
  if (identified.persona.nationalId !== persona.nationalId)
    throw new Error(`${country} ${persona.scenario}: the sandbox offers ${identified.persona.nationalId} first, not ${persona.nationalId}`);
  const cookies = agentCookies(agent, stack.webUrl).map((c) => ({ ...c, url: webUrl }));
  const changed = held.filter((h) => cookies.find((c) => c.name === h.name)?.value !== h.value).map((h) => h.name);
  if (changed.length > 0) throw new Error(`identifying over HTTP changed the context's cookies ${changed.join(', ')}: identify in the browser (inBrowser)`);
  await context.addCookies(cookies);
  await page.goto(new URL(identified.routed, webUrl).href);
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
