// Shared browser helpers for end-to-end tests: the system Chromium, headless and quiet (no network
// chatter of its own), and an axe check against WCAG 2.2 AA.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type axe from 'axe-core';
import type { Result } from 'axe-core';
import { checkedOnce, shownScreen } from './checkedOnce.ts';
import { TEST_CHROMIUM_PATH } from './chromiumPaths.ts';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Without site isolation a tab keeps its renderer when a walk crosses hosts (the markets' own, the sandbox's) instead
  // of starting a process per site, which cost a cross-site navigation a third more CPU. No page frames another site.
  '--disable-site-isolation-trials',
];

export function launchChromium(executablePath = TEST_CHROMIUM_PATH): Promise<Browser> {
  return chromium.launch({ executablePath, args: chromiumArgs });
}

/**
 * axe-core's minified build, the same version as its `axe.source` (the readable build, twice the size): each checked
 * document gets it through the DevTools protocol and parses it, which cost as much Chromium CPU as loading the page.
 */
let axeSource: string | undefined;

export const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * WCAG A/AA violations on the page as it is now (axe-core results, with nodes), found once per distinct screen in a run
 * (tests/support/checkedOnce.ts). axe.run in the page itself, injected once per document, answering the violations
 * alone: our pages have no cross-origin frames to merge results of, and the passes were most of what crossed the wire.
 */
export async function axeViolations(page: Page): Promise<Result[]> {
  return checkedOnce('axe', await shownScreen(page), async () => {
    axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    if (!(await page.evaluate('typeof window.axe?.run === "function"'))) await page.evaluate(`${axeSource}\n;undefined`);
    return page.evaluate(
      (tags) =>
        (window as unknown as { axe: typeof axe }).axe
          .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
          .then((results) => results.violations),
      axeTags,
    );
  });
}

/**
 * `page.evaluate(fn, arg)` on the page as it settles: a page that replaces itself meanwhile (a no-JS screen's meta
 * refresh, a loader's reload) destroys the evaluation's context, so it is run again on the page that loaded.
 */
export async function evaluateSettled<T, A = undefined>(page: Page, fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await page.evaluate(fn as (arg: unknown) => T | Promise<T>, arg);
    } catch (err) {
      if (attempt >= 5 || !(err instanceof Error) || !/Execution context was destroyed|navigat/i.test(err.message)) throw err;
      await page.waitForLoadState('load');
    }
  }
}

/** One line per violation, so `expect(describeViolations(v)).toEqual([])` reads well when it fails. */
export function describeViolations(violations: Result[]): string[] {
  return violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Collects console errors, uncaught exceptions and failed requests of a page, for a final
 * `expect(errors).toEqual([])` (CSP violations show up here too).
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

/** Resolves once the element's running animations and transitions (its own and its descendants') have finished. */
export async function animationsFinished(element: Locator): Promise<void> {
  await element.evaluate((el) =>
    Promise.all(
      el
        .getAnimations({ subtree: true })
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}
