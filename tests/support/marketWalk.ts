// The four-market walk of the customer-information steps (customer-information §2.3, §4.1), shared by the WithJs and
// WithoutJs files of tests/e2e/ (two files, so the walks run side by side on two cores): each market's own host and eID,
// the step list the server sends, axe, the Nu HTML Checker, HTML_CodeSniffer and tests/support/layoutChecks.ts on every
// screen, then signing and the created customer. Steps are answered through tests/support/customerInformation.ts, so a
// new step joins by adding its answer there.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import { browser, expectPhoneLayout, identifyInMarket, marketUrl, PHONE, stack, type Market, type ScreenHook } from './e2e.ts';
import { collectPageErrors } from './browser.ts';
import { expectAccessible, personaFor, showWithoutJs, type Persona } from './journey.ts';
import { codeSnifferErrors, HtmlChecks, trackServerMarkup } from './htmlCheckers.ts';
import { currentStep, walkToMilestoneThree } from './customerInformation.ts';
import { expectScreenLayout } from './layoutChecks.ts';

/**
 * The persona lives abroad, so the server sends every step: the residency step included, and the tax step
 * then opens the FATCA dialog for home-only liability; then every question of the KYC questionnaire.
 */
const expectedSteps: StepId[] = [
  'MILESTONE_ONE_STEP',
  'ACCOUNT_PICKER_STEP',
  'ACCOUNT_ALIAS_STEP',
  'MILESTONE_TWO_STEP',
  'CONTACT_INFORMATION_STEP',
  'CITIZENSHIP_STEP',
  'RESIDENCY_STEP',
  'TAX_INFO_STEP',
  'KYC_STEP',
];

/** The market's eID, as every four-market walk identifies (tests/support/e2e.ts identifyInMarket). */
const identify = (page: Page, country: Market, persona: Persona, onScreen: ScreenHook) =>
  identifyInMarket(page, country, persona, /\/onboarding\/customer-information\//, onScreen);

/** The market's own languages (the walk itself reads English): long words of each must fit a phone too. */
const marketLocales: Record<Market, string[]> = { SE: ['sv-SE'], NO: ['nb-NO'], DK: ['da-DK'], FI: ['fi-FI', 'sv-FI'] };

async function walkMarket(country: Market, javaScript: boolean, checks: HtmlChecks): Promise<void> {
  const persona = await personaFor(stack.sandboxUrl, 'livesAbroad', country);
  // A small phone: most prospects use one.
  const viewport = PHONE;
  const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport });
  const axeContext = javaScript ? null : await browser.newContext({ viewport });
  const axePage = await axeContext?.newPage();
  const page = await context.newPage();
  const errors = javaScript ? collectPageErrors(page) : [];
  const serverMarkup = trackServerMarkup(page);
  /**
   * Every screen: the phone checks of tests/support/e2e.ts, axe and HTML_CodeSniffer as shown, its HTML kept for the
   * walk's one Nu run. Without JavaScript, and for a screen that moves on by itself (`moving`), the checks run on a
   * snapshot of the server's markup in the scripted tab. `shown`: a page of its own (the test BankID app). `later`:
   * checked after the walk when it runs `deferred` (the BankID order lives 30 s; checking first could outlast it).
   */
  const deferred: Array<() => Promise<void>> = [];
  const accessibility = async (tab: Page, screen: string, noJs: boolean) => {
    await expectAccessible(tab, noJs ? `${screen} (no JavaScript)` : screen);
    checks.sniffed(screen, await codeSnifferErrors(tab));
  };
  const check = async (screen: string, { shown = page, moving = false, later = false }: { shown?: Page; moving?: boolean; later?: boolean } = {}) => {
    const url = shown.url();
    const noJs = axePage !== undefined && shown === page;
    const html = noJs ? await serverMarkup() : await shown.content();
    // The layout as the visitor's browser lays it out (without JavaScript, `scripting: none` styles apply).
    if (!moving) {
      await expectPhoneLayout(shown, screen);
      await expectScreenLayout(shown, screen);
    }
    checks.collect(screen, html);
    if (later) {
      deferred.push(async () => {
        // A scripted tab: axe and HTML_CodeSniffer need JavaScript (without it, the walk's own context has none).
        const tab = await (axeContext ?? context).newPage();
        await showWithoutJs(shown, tab, { url, html });
        await accessibility(tab, screen, noJs);
        await tab.close();
      });
      return;
    }
    const tab = noJs ? axePage : moving ? await context.newPage() : shown;
    // The server's markup (or the snapshot), not the page's DOM: a screen that refreshes itself (the BankID
    // QR screen without JavaScript) may be navigating by now.
    if (tab !== shown) await showWithoutJs(shown, tab, { url, html });
    if (moving) {
      await expectPhoneLayout(tab, screen);
      await expectScreenLayout(tab, screen);
    }
    await accessibility(tab, screen, noJs);
    if (moving) await tab.close();
  };

  // The screens before the customer-information page, the sandbox's own included, pass the same checks (SE's two
  // BankID screens once identified).
  await identify(page, country, persona, (shown, screen) => check(screen, { shown, later: country === 'SE' }));
  for (const run of deferred) await run();
  expect(new URL(page.url()).host).toBe(new URL(marketUrl(country)).host);
  // The first customer-information screen in the market's own languages (the locale cookie, as the language
  // switch sets it), then English again for the walk.
  for (const locale of [...marketLocales[country], 'en']) {
    await context.addCookies([{ name: 'locale', value: locale, url: marketUrl(country) }]);
    await page.reload();
    expect(await page.locator('html').getAttribute('lang')).toBe(locale);
    await check(`${country} first customer-information screen in ${locale}`);
  }

  const seen: StepId[] = [];
  await walkToMilestoneThree(page, async (step, screen) => {
    if (!seen.includes(step)) seen.push(step);
    await check(`${country} ${step} ${screen}`);
  });
  expect(seen).toEqual(expectedSteps);

  expect((await currentStep(page)).step).toBe('MILESTONE_THREE_STEP');
  expect(await page.locator('h1').textContent()).toBe('Almost there! Just need to sign with your eID.');
  await check(`${country} milestone three`);
  await page.getByRole('button', { name: 'Sign with Bank ID' }).click();
  await page.waitForURL(`${stack.sandboxUrl}/sandbox/signing/**`);
  await check(`${country} signing page (sandbox)`);
  await page.getByRole('button', { name: 'Sign' }).click();
  await page.waitForURL(/\/onboarding\/customer-creation\//);
  await expect.poll(() => page.locator('main').textContent(), { timeout: 20_000 }).toContain('Agreements signed');
  // With JavaScript the outcome moves on by itself after a moment (views/components/CreationStatus.tsx).
  await check(`${country} customer creation`, { moving: javaScript });
  // Joined, so that a failure names each error (the walks report through Promise.allSettled).
  expect(errors.join('\n')).toBe('');
  await axeContext?.close();
  await context.close();
}

/**
 * Walks the four markets side by side (each has its own browser context, session and prospect), then runs the
 * Nu checker once over every market's screens (one Java start; also after a walk that failed, so that one run
 * lists every error found).
 */
export async function walkEveryMarket(javaScript: boolean): Promise<void> {
  const checks = new HtmlChecks();
  const results = await Promise.allSettled((['SE', 'NO', 'DK', 'FI'] as const).map((country) => walkMarket(country, javaScript, checks)));
  const failures = results.flatMap((r, i) =>
    r.status === 'rejected'
      ? [`${['SE', 'NO', 'DK', 'FI'][i]}: ${r.reason instanceof Error ? `${r.reason.message}\n${r.reason.stack}` : String(r.reason)}`]
      : [],
  );
  const { nu, codeSniffer } = await checks.errors();
  expect({ failures, codeSniffer, nu }).toEqual({ failures: [], codeSniffer: [], nu: [] });
  expect(checks.screens).toBeGreaterThan(4 * 20);
}
