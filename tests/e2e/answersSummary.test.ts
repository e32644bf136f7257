// "Check your answers" on milestone three in real Chromium (WCAG 2.2 SC 3.3.4), with and
// without JavaScript: the summary shows above the sign button, axe finds nothing at 360×740 and on a desktop,
// nothing sticks out sideways; a Change re-enters its step and, once answered, the summary shows the new
// answer; Back from a changed step returns to the summary.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, identifyAs, PHONE, useE2eStack } from '../support/e2e.ts';
import { expectAccessible, expectAccessibleWithoutJs } from '../support/journey.ts';
import { currentStep, walkToMilestoneThree } from '../support/customerInformation.ts';

useE2eStack();

const DESKTOP = { width: 1280, height: 800 };
const TITLE = 'Check your answers before you sign';

/** The summary region, its sections and Change buttons. */
const summaryOf = (page: Page) => page.getByRole('region', { name: TITLE });

describe('check your answers before signing', () => {
  for (const javaScript of [true, false]) {
    it(`${javaScript ? 'with' : 'without'} JavaScript: the summary, axe at 360 px and on a desktop, a change and back`, async () => {
      const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: javaScript });
      const axeContext = javaScript ? null : await browser.newContext({ viewport: PHONE });
      const axePage = await axeContext?.newPage();
      const page = await context.newPage();
      const check = async (screen: string, width: number) => {
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen}: page width`).toBeLessThanOrEqual(width);
        if (axePage) {
          await axePage.setViewportSize(page.viewportSize()!);
          await expectAccessibleWithoutJs(page, axePage, screen);
        } else {
          await expectAccessible(page, screen);
        }
      };

      await identifyAs(page, 'onboarding');
      await walkToMilestoneThree(page);
      expect((await currentStep(page)).step).toBe('MILESTONE_THREE_STEP');

      // Above the sign button: the summary, with the contact answers and the KYC answers (no Change for those).
      const summary = summaryOf(page);
      await summary.waitFor();
      expect(await summary.isVisible()).toBe(true);
      await expect.poll(() => summary.textContent()).toContain('test@example.com');
      expect(await summary.textContent()).toContain('What is your main occupation?');
      expect(await summary.getByRole('button', { name: /^Change/ }).allTextContents()).toEqual([
        'Change accounts',
        'Change account names',
        'Change contact information',
        'Change citizenship',
        'Change tax liability',
      ]);
      const above = await page.evaluate(() => {
        const region = document.querySelector('.answers-summary')!;
        const sign = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Sign with Bank ID')!;
        return Boolean(region.compareDocumentPosition(sign) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      expect(above).toBe(true);
      await check('milestone three with its summary (phone)', PHONE.width);
      await page.setViewportSize(DESKTOP);
      await check('milestone three with its summary (desktop)', DESKTOP.width);
      await page.setViewportSize(PHONE);

      // Change the e-mail: the contact step, then straight back to the summary with the new answer.
      await Promise.all([page.waitForEvent('load'), summary.getByRole('button', { name: 'Change contact information' }).click()]);
      expect(await currentStep(page)).toEqual({ step: 'CONTACT_INFORMATION_STEP', screen: 'contact' });
      await check('contact information, changed from the summary', PHONE.width);
      await page.getByLabel('Email').fill('changed@example.com');
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Continue', exact: true }).click()]);
      expect((await currentStep(page)).step).toBe('MILESTONE_THREE_STEP');
      await expect.poll(() => summaryOf(page).textContent()).toContain('changed@example.com');
      expect(await summaryOf(page).textContent()).not.toContain('test@example.com');

      // Back from the first screen of a changed step: the summary again.
      await Promise.all([page.waitForEvent('load'), summaryOf(page).getByRole('button', { name: 'Change citizenship' }).click()]);
      expect((await currentStep(page)).step).toBe('CITIZENSHIP_STEP');
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Back', exact: true }).click()]);
      expect((await currentStep(page)).step).toBe('MILESTONE_THREE_STEP');
      await summaryOf(page).waitFor();

      await axeContext?.close();
      await context.close();
    }, 180_000);
  }
});
