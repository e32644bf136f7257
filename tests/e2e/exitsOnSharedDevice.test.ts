// Every exit ends the session, in Chromium on a shared device: after the Close X on the customer-information page, and
// after the nightly-downtime page's Exit and Go to main page, the browser is on the bank's home (HOME_URL, a page of
// the bank's site: the sandbox stands in), the brokerage has ended the person's session (its logout recorded by the
// sandbox), and the next person at the same browser who opens the journey's routing step is not routed as the previous
// one: they are on the start page.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { browser, identifyAs, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { personaFor } from '../support/journey.ts';
import en from '../../locales/en.json' with { type: 'json' };
import { sessionTokensOf } from '../support/sandboxApi.ts';

useE2eStack({ env: { HOME_URL: '/sandbox/home' } });

const START_TITLE = "Before we get started. Who's the account for?";

/** The logout calls the sandbox's session service recorded with one of the tokens. */
async function logoutsWith(tokens: string[]): Promise<number> {
  const calls = (await (await fetch(`${stack.sandboxUrl}/sandbox/logouts`)).json()) as { bearer: string | null }[];
  return calls.filter((c) => c.bearer !== null && tokens.includes(c.bearer)).length;
}

/** Where the next person lands at this browser on the journey's routing step: the start page, not the previous person's step. */
async function expectNextPersonStartsAfresh(page: Page): Promise<void> {
  await page.goto(`${stack.webUrl}/onboarding/routing`);
  await page.waitForURL(`${stack.webUrl}/onboarding`);
  await expect.poll(() => page.locator('h1').textContent()).toBe(START_TITLE);
}

async function newPhonePage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE });
  return { context, page: await context.newPage() };
}

describe('exits on a shared device', () => {
  it('the Close X: the bank’s home, the brokerage session ended, the next person starts afresh', async () => {
    const { context, page } = await newPhonePage();
    await identifyAs(page, 'onboarding');
    const persona = await personaFor(stack.sandboxUrl, 'onboarding');
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    expect(tokens.length).toBeGreaterThan(0);
    const before = await logoutsWith(tokens);
    await page.getByRole('link', { name: en['shell.close'] }).click();
    await page.waitForURL(`${stack.sandboxUrl}/sandbox/home`);
    await expect.poll(() => logoutsWith(tokens)).toBe(before + 2);
    expect(await sessionTokensOf(stack.sandboxUrl, persona.nationalId)).toEqual([]);
    await expectNextPersonStartsAfresh(page);
    await context.close();
  });

  it.each([en['nightly.exit'], en['nightly.toMain']])('the nightly-downtime page’s %s does the same', async (button) => {
    const { context, page } = await newPhonePage();
    const persona = await personaFor(stack.sandboxUrl, 'nightlyDowntimeRouting');
    await identifyAs(page, 'nightlyDowntimeRouting', { landing: /\/onboarding\/nightly-downtime-status/ });
    const tokens = await sessionTokensOf(stack.sandboxUrl, persona.nationalId);
    expect(tokens.length).toBeGreaterThan(0);
    const before = await logoutsWith(tokens);
    await page.getByRole('link', { name: button, exact: true }).click();
    await page.waitForURL(`${stack.sandboxUrl}/sandbox/home`);
    await expect.poll(() => logoutsWith(tokens)).toBe(before + 2);
    expect(await sessionTokensOf(stack.sandboxUrl, persona.nationalId)).toEqual([]);
    await expectNextPersonStartsAfresh(page);
    await context.close();
  });
});
