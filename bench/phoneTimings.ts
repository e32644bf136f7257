// When each screen of the journey is painted and usable on a cheap phone: Debian's Chromium at 360×740 with slow-4G
// network and 4× CPU throttling walks the journey with JavaScript. What "painted" and "usable" mean, and how each
// screen is timed: docs/benchmarkMethods.md.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../tests/support/browser.ts';
import { CHROMIUM_PATH } from '../tests/support/chromiumPaths.ts';
import { httpAnswerOf } from '../tests/support/httpAnswers.ts';
import { identifyOrder, personaOf, waitingOrders, type Person } from './people.ts';
import { ScriptSizes, type Sizes } from './pageBytes.ts';

export interface ScreenTiming {
  name: string;
  /** From the screen's own GET (after a post's redirect), as a page loaded by its address. */
  fcpMs: number | null;
  usableMs: number | null;
  /** From the click: the form post and its redirect included. */
  usableFromPostMs: number | null;
  /** The islands on the screen and whether all hydrated. */
  islands: string[];
  hydrated: boolean;
  js: Sizes;
  /** The screen's own island code: its JavaScript but the shared React chunk. */
  ownJs: Sizes;
}

const PHONE = { width: 360, height: 740 };
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };
const QUIET_MS = 500;

interface BenchWindow {
  __bench: { lastLongTaskEnd: number; measured: boolean };
}

/** Runs in every document before its own scripts: a long-task observer. */
function instrument(): void {
  const bench = { lastLongTaskEnd: 0, measured: false };
  (window as unknown as BenchWindow).__bench = bench;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.lastLongTaskEnd = Math.max(bench.lastLongTaskEnd, e.startTime + e.duration);
  }).observe({ type: 'longtask', buffered: true });
}

/** In the page, once loaded: waits for hydration and quiet (10 s at most), answers the timings. */
function settleInPage(quietMs: number) {
  return new Promise<{
    fcp: number | null;
    usable: number | null;
    sincePost: number;
    islands: string[];
    hydrated: boolean;
    step: string;
    screen: string;
    scripts: string[];
  }>((resolve) => {
    const bench = (window as unknown as BenchWindow).__bench;
    const islands = [...document.querySelectorAll<HTMLElement>('[data-island]')].map((el) => el.dataset.island ?? '');
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const deadline = performance.now() + 10_000;
    // Each island marks when every root of it has hydrated (client/hydrate.tsx).
    const hydratedAt = () =>
      new Map(
        performance
          .getEntriesByType('mark')
          .filter((m) => m.name.startsWith('island:'))
          .map((m) => [m.name.slice(7), m.startTime]),
      );
    const check = () => {
      const marks = hydratedAt();
      const hydrated = islands.every((name) => marks.has(name));
      const loadEnd = nav?.loadEventEnd ?? 0;
      const quiet = performance.now() - Math.max(bench.lastLongTaskEnd, loadEnd) >= quietMs;
      if (!((hydrated && quiet && loadEnd > 0) || performance.now() > deadline)) return void setTimeout(check, 50);
      bench.measured = true;
      const lastHydrated = Math.max(0, ...islands.map((name) => marks.get(name) ?? 0));
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
      // The screen's own GET starts at fetchStart: after a post's 303, also a cross-origin one (the signing page's
      // return to customer creation), where redirectCount stays 0 but fetchStart is still the final fetch's start.
      const sincePost = nav?.fetchStart ?? 0;
      const shown = document.querySelector<HTMLElement>('[data-step]');
      const scripts = [
        ...[...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((s) => s.src),
        ...[...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.href),
      ];
      resolve({
        fcp,
        usable: hydrated ? Math.max(fcp ?? 0, loadEnd, lastHydrated, bench.lastLongTaskEnd) : null,
        sincePost,
        islands,
        hydrated,
        step: shown?.dataset.step ?? '',
        screen: shown?.dataset.screen ?? '',
        scripts,
      });
    };
    check();
  });
}

/** Waits for a document not measured yet to finish loading (a post's answer, a page that moved on by itself). */
async function freshScreen(page: Page, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = await page.evaluate(() => document.readyState === 'complete' && !(window as unknown as BenchWindow).__bench?.measured).catch(() => false);
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`no new screen at ${page.url()} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Posts a form from the page, as its own form would (same origin: Sec-Fetch-Site same-origin). */
async function postForm(page: Page, action: string, body: string): Promise<void> {
  await page.evaluate(
    ({ action, fields }) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      for (const [name, value] of fields) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { action, fields: [...new URLSearchParams(body)] },
  );
}

async function measure(page: Page, name: string, sizes: ScriptSizes): Promise<ScreenTiming & { step: string; screen: string }> {
  await freshScreen(page);
  // A screen that moves on by itself before it settles (the creation outcome) is measured on what followed.
  const t = await page.evaluate(settleInPage, QUIET_MS).catch(async () => {
    await freshScreen(page);
    return page.evaluate(settleInPage, QUIET_MS);
  });
  const { js, ownJs } = await sizes.total(t.scripts);
  const label = t.step ? `${name}: ${t.step} ${t.screen}` : name;
  const fromGet = (ms: number | null) => (ms === null ? null : ms - t.sincePost);
  return {
    name: label,
    fcpMs: fromGet(t.fcp),
    usableMs: fromGet(t.usable),
    usableFromPostMs: t.usable,
    islands: t.islands,
    hydrated: t.hydrated,
    js,
    ownJs,
    step: t.step,
    screen: t.screen,
  };
}

async function throttledPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return page;
}

/** The journey with JavaScript, screen by screen, up to customer creation. */
async function walkJourney(page: Page, webUrl: string, sandboxUrl: string, sizes: ScriptSizes, log: (l: string) => void): Promise<ScreenTiming[]> {
  const screens: ScreenTiming[] = [];
  const record = (s: ScreenTiming) => {
    screens.push(s);
    log(
      `  ${s.name}: painted ${Math.round(s.fcpMs ?? NaN)} ms, usable ${Math.round(s.usableMs ?? NaN)} ms (${Math.round(s.usableFromPostMs ?? NaN)} ms from the click)`,
    );
  };
  await page.goto(`${webUrl}/onboarding`);
  record(await measure(page, 'start page', sizes));

  const before = new Set(await waitingOrders(sandboxUrl));
  await postForm(page, '/onboarding/customer-type', 'customerType=private');
  record(await measure(page, 'BankID', sizes));
  const orderRef = (await waitingOrders(sandboxUrl)).find((o) => !before.has(o));
  if (!orderRef) throw new Error('choosing Private started no BankID order');
  await identifyOrder(sandboxUrl, orderRef, await personaOf(sandboxUrl, 'onboarding'));
  // The QR island sees the identification and moves on by itself.
  await page.waitForURL(/\/onboarding\/customer-information\//, { timeout: 30_000 });

  for (let n = 0; n < 40; n++) {
    const shown = await measure(page, 'customer information', sizes);
    if (shown.screen === 'loader') {
      // A loader goes by itself (its island reloads the page): what follows is the next screen.
      await page.waitForSelector('[data-step]:not([data-screen="loader"])', { timeout: 30_000 });
      continue;
    }
    const seen = screens.filter((s) => s.name.startsWith(shown.name)).length;
    record(seen > 0 ? { ...shown, name: `${shown.name} ${seen + 1}` } : shown);
    const body =
      shown.step === 'MILESTONE_THREE_STEP'
        ? 'step=MILESTONE_THREE_STEP&screen=milestone'
        : httpAnswerOf(shown.step as Parameters<typeof httpAnswerOf>[0], shown.screen, await page.content());
    if (typeof body !== 'string') throw new Error(`${shown.step} ${shown.screen} uploads a file: not in the bench's walk`);
    await postForm(page, `${new URL(page.url()).pathname}/step`, body);
    if (shown.step === 'MILESTONE_THREE_STEP') break;
  }
  // Milestone three's post leads to the signing page (the sandbox's); its Sign leads back to customer creation.
  await page.waitForURL(`${sandboxUrl}/sandbox/signing/**`, { timeout: 30_000 });
  await freshScreen(page);
  await postForm(page, `${new URL(page.url()).pathname}/sign`, '');
  await page.waitForURL(/\/onboarding\/customer-creation\//, { timeout: 30_000 });
  record(await measure(page, 'customer creation', sizes));
  return screens;
}

/** The name of the cold visit's screen among the timings. */
export const COLD_BANKID = 'BankID, cold visit';

/**
 * A person whose first page of ours is the BankID page, with an empty cache: the start page's build files are refused
 * (so its prefetches fill nothing) and the BankID page then fetches React and its island afresh.
 */
async function coldBankidVisit(browser: Browser, webUrl: string, sizes: ScriptSizes): Promise<ScreenTiming> {
  const context = await browser.newContext({ viewport: PHONE });
  try {
    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');
    await context.addInitScript(instrument);
    const page = await throttledPage(context);
    await page.route('**/build/**', (route) => route.abort());
    await page.goto(`${webUrl}/onboarding`);
    await page.unroute('**/build/**');
    await postForm(page, '/onboarding/customer-type', 'customerType=private');
    return await measure(page, COLD_BANKID, sizes);
  } finally {
    await context.close();
  }
}

export async function measurePhoneTimings(
  webUrl: string,
  sandboxUrl: string,
  legacyPerson: Person,
  sizes: ScriptSizes,
  log: (line: string) => void,
): Promise<ScreenTiming[]> {
  const browser: Browser = await launchChromium(CHROMIUM_PATH);
  try {
    const context = await browser.newContext({ viewport: PHONE });
    // tsx compiles this file keeping function names through a helper (__name) the page does not have.
    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');
    await context.addInitScript(instrument);
    const page = await throttledPage(context);
    const screens = await walkJourney(page, webUrl, sandboxUrl, sizes, log);

    // The legacy form, its person's cookies in this browser (the start and BankID scripts already cached).
    await context.clearCookies();
    await context.addCookies(legacyPerson.cookies.map(([name, value]) => ({ name, value, url: webUrl })));
    await page.goto(new URL(legacyPerson.page, webUrl).href);
    const legacy = await measure(page, 'legacy form', sizes);
    screens.push(legacy);
    log(`  ${legacy.name}: painted ${Math.round(legacy.fcpMs ?? NaN)} ms, usable ${Math.round(legacy.usableMs ?? NaN)} ms`);
    await context.close();
    const cold = await coldBankidVisit(browser, webUrl, sizes);
    log(`  ${cold.name}: painted ${Math.round(cold.fcpMs ?? NaN)} ms, usable ${Math.round(cold.usableMs ?? NaN)} ms`);
    return [...screens, cold].map(({ name, fcpMs, usableMs, usableFromPostMs, islands, hydrated, js, ownJs }) => ({
      name,
      fcpMs,
      usableMs,
      usableFromPostMs,
      islands,
      hydrated,
      js,
      ownJs,
    }));
  } finally {
    await browser.close();
  }
}
