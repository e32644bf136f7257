// The system-status banners in real Chromium (identification-routing-creation §8 "Maintenance status", "High-load
// notice", §9; customer-information §8) on the start page and a step page at 360×740 and 1280×800: each a region named by
// its title, before the page's form, its text a tap away; the primary action above a phone's fold with both
// (tests/support/layoutChecks.ts); axe, the Nu checker and the phone layout find nothing; none when the status call
// fails. The status cache time is 0 here, so each page reads the status the sandbox's control set.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, expectPhoneLayout, identifyAs, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { expectAccessible } from '../support/journey.ts';
import { nuCheck } from '../support/htmlCheckers.ts';
import { expectScreenLayout } from '../support/layoutChecks.ts';

useE2eStack({ env: { SYSTEM_STATUS_CACHE_MS: '0' } });

const DESKTOP = { width: 1280, height: 800 };
const MAINTENANCE = { title: 'Maintenance status', text: 'Account opening is temporarily closed because of maintenance over a weekend.' };
const HIGH_LOAD = { title: 'Possible delays', text: 'Log in after a few hours to check whether your account is ready.' };

async function setStatus(body: object): Promise<void> {
  const res = await fetch(`${stack.sandboxUrl}/sandbox/system-status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

const regionsOf = (page: Page) => page.locator('main [role="region"][aria-labelledby^="system-status-"]');

/** Each status region's name and text, and whether it comes before every form and heading of main. */
const shownBanners = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main')!;
    const content = [...main.querySelectorAll('form, h1')];
    return [...main.querySelectorAll<HTMLElement>('[role="region"][aria-labelledby^="system-status-"]')].map((region) => ({
      name: document.getElementById(region.getAttribute('aria-labelledby')!)?.textContent,
      text: region.innerText.replace(/\s+/g, ' ').trim(),
      beforeContent: content.length > 0 && content.every((el) => Boolean(region.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)),
    }));
  });

describe('system status banners', () => {
  it('the maintenance banner and the high-load notice on the start page and a step page, at 360 px and on a desktop; none when the status call fails', async () => {
    await setStatus({ creationPaused: true, feedbackBanner: 'HIGH_LOAD' });
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const documents: Array<{ screen: string; html: string }> = [];

    const checkBanners = async (screen: string) => {
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        const where = `${screen} ${viewport.width}×${viewport.height}`;
        // Closed, each its title; its title opens its text.
        await expectScreenLayout(page, where);
        const closed = page.locator('main details:not([open]) > summary');
        while ((await closed.count()) > 0) await closed.first().click();
        const banners = await shownBanners(page);
        expect(
          banners.map((b) => b.name),
          where,
        ).toEqual([MAINTENANCE.title, HIGH_LOAD.title]);
        expect(banners[0]!.text, where).toContain(MAINTENANCE.text);
        expect(banners[1]!.text, where).toContain(HIGH_LOAD.text);
        expect(
          banners.every((b) => b.beforeContent),
          `${where}: before the form`,
        ).toBe(true);
        for (const name of [MAINTENANCE.title, HIGH_LOAD.title]) expect(await page.getByRole('region', { name }).isVisible(), `${where}: ${name}`).toBe(true);
        await expectPhoneLayout(page, where);
        await expectAccessible(page, where);
      }
      // The markup as the server sent it, for the Nu checker.
      documents.push({ screen, html: await (await page.request.get(page.url())).text() });
    };

    await page.goto(`${stack.webUrl}/onboarding`);
    await checkBanners('start page');
    await page.setViewportSize(PHONE);
    // In the browser: this context's session began on the start page above, as a person's does.
    await identifyAs(page, 'onboarding', { inBrowser: true });
    await checkBanners('step page');
    expect(await nuCheck(documents)).toEqual([]);

    // The status call fails: no banner, the pages as usual.
    await setStatus({ creationPaused: true, feedbackBanner: 'HIGH_LOAD', failing: true });
    await page.reload();
    expect(await page.locator('h1').count()).toBeGreaterThan(0);
    expect(await regionsOf(page).count()).toBe(0);
    const stranger = await browser.newContext({ viewport: PHONE });
    const start = await stranger.newPage();
    await start.goto(`${stack.webUrl}/onboarding`);
    expect(await start.locator('h1').textContent()).toBe("Before we get started. Who's the account for?");
    expect(await regionsOf(start).count()).toBe(0);
    await expectAccessible(start, 'start page without a status');

    await setStatus({});
    await stranger.close();
    await context.close();
  });
});
