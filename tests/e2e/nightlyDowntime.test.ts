// The nightly-downtime page in Chromium (identification-routing-creation §2 "Nightly-downtime page"): its variants
// (the default, after signup, and after signup embedded in the app's webview) at 360×740 and 1280×800, each axe-clean,
// no wider than the screen, through both markup checkers; Go to main page and Exit followed to where they lead.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, expectPhoneLayout, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { expectAccessible } from '../support/journey.ts';
import { codeSnifferErrors, HtmlChecks, trackServerMarkup } from '../support/htmlCheckers.ts';
import { routes } from '../../shared/routes.ts';
import en from '../../locales/en.json' with { type: 'json' };

// The bank's home, a page of the bank's site (the sandbox stands in for it, BANK_SITE_URL).
useE2eStack({ env: { HOME_URL: '/sandbox/home' } });

const DESKTOP = { width: 1280, height: 800 };

const variants = [
  { name: 'default', url: routes.nightlyDowntimeStatus(), title: en['nightly.title'], embedded: false, leavesTo: 'home' },
  {
    name: 'after signup',
    url: routes.nightlyDowntimeStatus({ justCompletedSignup: true }),
    title: en['nightly.titleAfterSignup'],
    embedded: false,
    leavesTo: 'home',
  },
  {
    name: 'after signup, embedded in the webview',
    url: routes.nightlyDowntimeStatus({ justCompletedSignup: true, webview: true }),
    title: en['nightly.titleAfterSignup'],
    embedded: true,
    leavesTo: routes.closeSignupInApp,
  },
] as const;

/** The page's landmarks by role: the embedded page is the content alone. */
const landmarks = (page: Page) => page.evaluate(() => ['header', 'footer', 'main', 'aside'].filter((tag) => document.querySelector(`body ${tag}`) !== null));

describe('the nightly-downtime page', () => {
  it('every variant at 360×740 and 1280×800: texts, targets, layout, axe and the markup checkers', async () => {
    const checks = new HtmlChecks();
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const serverMarkup = trackServerMarkup(page);
      for (const variant of variants) {
        const screen = `${variant.name} ${viewport.width}px`;
        await page.goto(`${stack.webUrl}${variant.url}`);
        await expect.poll(() => page.locator('h1').textContent()).toBe(variant.title);
        // 06:00 on the Swedish market's next banking day, in English: e.g. "Access opens at 6:00 AM on Monday, November 30."
        expect(await page.locator('main time').textContent()).toMatch(/^Access opens at 6:00\sAM on [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}\.$/);
        expect(await page.locator('main time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT0[45]:00:00\.000Z$/);
        for (const name of [en['nightly.toMain'], en['nightly.exit']]) {
          const href = await page.getByRole('link', { name, exact: true }).getAttribute('href');
          expect(href, `${screen}: ${name}`).toBe(routes.leave({ webview: variant.embedded }));
        }
        expect(await landmarks(page)).toEqual(variant.embedded ? ['main'] : ['header', 'footer', 'main', 'aside']);
        await expectPhoneLayout(page, screen);
        await expectAccessible(page, screen);
        checks.collect(screen, await serverMarkup());
        checks.sniffed(screen, await codeSnifferErrors(page));
      }
      await context.close();
    }
    const { nu, codeSniffer } = await checks.errors();
    expect({ codeSniffer, nu }).toEqual({ codeSniffer: [], nu: [] });
  });

  it.each(variants.flatMap((v) => [en['nightly.toMain'], en['nightly.exit']].map((button) => ({ ...v, button }))))(
    '$name: $button leads to $leavesTo',
    async ({ url, button, leavesTo }) => {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await page.goto(`${stack.webUrl}${url}`);
      await page.getByRole('link', { name: button, exact: true }).click();
      await page.waitForURL(leavesTo === 'home' ? `${stack.sandboxUrl}/sandbox/home` : `${stack.webUrl}${leavesTo}`);
      await context.close();
    },
  );
});
