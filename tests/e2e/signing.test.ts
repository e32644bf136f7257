// Back from signing in real Chromium (customer-information §4.8, FLAG_RETRY_SIGNUP_SIGNING): the person opens
// the signing page, comes back to milestone three, signs in a second tab and returns to the first, which
// checks by itself once visible again (with JavaScript) or through "I have signed" (without), and lands on
// customer creation. axe on milestone three with its check, at 360×740.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, identifyAs, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { expectAccessible, expectAccessibleWithoutJs } from '../support/journey.ts';
import { currentStep, walkToMilestoneThree } from '../support/customerInformation.ts';

useE2eStack();

/** The page hides and shows again, as when the person switches to another tab and back. */
async function switchAwayAndBack(page: Page, whileAway: () => Promise<void>): Promise<void> {
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate((s) => {
      Object.defineProperty(document, 'visibilityState', { value: s, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);
  await setVisibility('hidden');
  await whileAway();
  await Promise.all([page.waitForURL(/\/onboarding\/customer-creation\//), setVisibility('visible')]);
}

describe('signed in another tab', () => {
  for (const javaScript of [true, false]) {
    it(`${javaScript ? 'with JavaScript the page checks by itself when visible again' : 'without JavaScript "I have signed" checks'}: on to customer creation`, async () => {
      const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: javaScript });
      const axeContext = javaScript ? null : await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await identifyAs(page, 'signInOtherTab');
      await walkToMilestoneThree(page);
      const milestone = page.url();
      // Open the signing page, then come back to milestone three without signing.
      await page.getByRole('button', { name: 'Sign with Bank ID' }).click();
      await page.waitForURL(`${stack.sandboxUrl}/sandbox/signing/**`);
      const signingUrl = page.url();
      await page.goto(milestone);
      expect((await currentStep(page)).step).toBe('MILESTONE_THREE_STEP');
      const check = page.getByRole('button', { name: 'I have signed' });
      await check.waitFor();
      if (axeContext) await expectAccessibleWithoutJs(page, await axeContext.newPage(), 'milestone three with its check');
      else await expectAccessible(page, 'milestone three with its check');

      const signInSecondTab = async () => {
        const second = await context.newPage();
        await second.goto(signingUrl);
        await second.getByRole('button', { name: 'Sign' }).click();
        await second.waitForURL(/\/onboarding\/customer-creation\//);
        await second.close();
      };
      if (javaScript) {
        // The island listens once it has hydrated (its User Timing mark, client/hydrate.tsx).
        await expect.poll(() => page.evaluate(() => performance.getEntriesByName('island:signedCheck').length)).toBe(1);
        await switchAwayAndBack(page, signInSecondTab);
      } else {
        await signInSecondTab();
        await Promise.all([page.waitForURL(/\/onboarding\/customer-creation\//), check.click()]);
      }
      await expect.poll(() => page.locator('main').textContent(), { timeout: 20_000 }).toMatch(/Agreements signed|Your account is being created|Please wait/);
      await axeContext?.close();
      await context.close();
    }, 120_000);
  }
});
