// Every customer-information step in all four markets, with and without JavaScript
// (customer-information §2.3, §4.1): each market's own host and eID, the step list the server sends, axe on every screen, then
// signing and the created customer. The steps are answered through tests/support/customerInformation.ts,
// so a new step joins these walks by adding its answer there.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { StepId } from '../../shared/contracts/brokerage.ts';
import { browser, expectPhoneLayout, identifyInMarket, marketUrl, PHONE, stack, useE2eStack, type Market, type ScreenHook } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectAccessible, expectAccessibleWithoutJs, personaFor, type Persona } from '../support/journey.ts';
import { currentStep, walkToMilestoneThree } from '../support/customerInformation.ts';

useE2eStack();

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

async function walkMarket(country: Market, javaScript: boolean): Promise<void> {
  const persona = await personaFor(stack.sandboxUrl, 'livesAbroad', country);
  // A small phone: most prospects use one.
  const viewport = PHONE;
  const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport });
  const axeContext = javaScript ? null : await browser.newContext({ viewport });
  const axePage = await axeContext?.newPage();
  const page = await context.newPage();
  const errors = javaScript ? collectPageErrors(page) : [];
  const check = async (screen: string) => {
    // Nothing sticks out sideways on a 360 px screen, the two step counters agree, … (tests/support/e2e.ts).
    await expectPhoneLayout(page, screen);
    await (axePage ? expectAccessibleWithoutJs(page, axePage, screen) : expectAccessible(page, screen));
  };

  // The screens before the customer-information page, the sandbox's own included, fit the phone too.
  await identify(page, country, persona, expectPhoneLayout);
  expect(new URL(page.url()).host).toBe(new URL(marketUrl(country)).host);
  // The first customer-information screen in the market's own languages (the locale cookie, as the language
  // switch sets it), then English again for the walk.
  for (const locale of [...marketLocales[country], 'en']) {
    await context.addCookies([{ name: 'locale', value: locale, url: marketUrl(country) }]);
    await page.reload();
    expect(await page.locator('html').getAttribute('lang')).toBe(locale);
    await expectPhoneLayout(page, `${country} first customer-information screen in ${locale}`);
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
  await expectPhoneLayout(page, `${country} signing page (sandbox)`);
  await page.getByRole('button', { name: 'Sign' }).click();
  await page.waitForURL(/\/onboarding\/customer-creation\//);
  await expect.poll(() => page.locator('main').textContent(), { timeout: 20_000 }).toContain('Agreements signed');
  await expectPhoneLayout(page, `${country} customer creation`);
  expect(errors).toEqual([]);
  await axeContext?.close();
  await context.close();
}

describe('customer-information steps in every market', () => {
  for (const javaScript of [true, false]) {
    // The four markets run side by side: each has its own browser context, session and prospect.
    it(`SE, NO, DK and FI ${javaScript ? 'with' : 'without'} JavaScript: every step, axe on each screen, signed`, async () => {
      const results = await Promise.allSettled((['SE', 'NO', 'DK', 'FI'] as const).map((country) => walkMarket(country, javaScript)));
      const failures = results.flatMap((r, i) =>
        r.status === 'rejected'
          ? [`${['SE', 'NO', 'DK', 'FI'][i]}: ${r.reason instanceof Error ? `${r.reason.message}\n${r.reason.stack}` : String(r.reason)}`]
          : [],
      );
      expect(failures).toEqual([]);
      // Four markets side by side on two cores, axe on some 30 screens each (the KYC questionnaire's ten pages among them).
    }, 420_000);
  }
});
