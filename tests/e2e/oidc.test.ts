// Denmark, Norway and Finland in real Chromium: each market's own host, the country's identification page,
// the sandbox's OpenID provider login page, and back — to customer information (DK), to "You already have an
// account" (NO, LOGIN persona) and, after a cancel at the broker, to "Something went wrong" (FI).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, stack, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectIslandsHydrated } from '../support/clientBuild.ts';
import { expectAccessible, personaFor } from '../support/journey.ts';

useE2eStack();

const marketUrl = (country: 'dk' | 'no' | 'fi') => `http://${country}.localhost:${new URL(stack.webUrl).port}`;

async function openIdentificationPage(page: Page, country: 'dk' | 'no' | 'fi', title: string): Promise<void> {
  await page.goto(`${marketUrl(country)}/onboarding`);
  await page.getByRole('button', { name: /Private/ }).click();
  await expect.poll(() => page.locator('h1').textContent()).toBe(title);
}

/** On the sandbox provider's login page: identify as the persona (or cancel). */
async function atBroker(page: Page, choice: { nationalId: string } | 'cancel', heading: string): Promise<void> {
  await page.waitForURL(`${stack.sandboxUrl}/oidc/interaction/**`);
  await expect.poll(() => page.locator('h1').textContent()).toBe(heading);
  if (choice === 'cancel') return page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByLabel('Identify as').selectOption(choice.nationalId);
  await page.getByRole('button', { name: 'Identify' }).click();
}

describe('identification through the OIDC broker (DK, NO, FI)', () => {
  it('DK: MitID page with the secret-address drawer, spinner on continue, then customer information', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'onboarding', 'DK');
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await openIdentificationPage(page, 'dk', 'Open account with MitID');
    await expectIslandsHydrated(page, ['secretAddressDrawer', 'submitOnce']);
    const toggle = page.getByRole('button', { name: 'See more' });
    const drawer = page.getByRole('region', { name: 'Registered address protection' });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await drawer.isVisible()).toBe(false);
    await expectAccessible(page, 'MitID (banner collapsed)');

    await toggle.click();
    const seeLess = page.getByRole('button', { name: 'See less' });
    await expect.poll(() => seeLess.getAttribute('aria-expanded')).toBe('true');
    // The same button, relabelled: the focus stays on it.
    expect(await seeLess.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await drawer.isVisible()).toBe(true);
    await expectAccessible(page, 'MitID (banner expanded)');
    await seeLess.click();
    await expect.poll(() => drawer.isVisible()).toBe(false);

    // The spinner shows while the browser loads the broker. To see it, the first submit is held back in the
    // page (a document listener runs after the island's handler), then the form is sent for real.
    const continueButton = page.getByRole('button', { name: 'Continue' });
    await continueButton.evaluate((button: HTMLButtonElement) => {
      document.addEventListener('submit', (e) => e.preventDefault(), { once: true });
      button.click();
    });
    await expect.poll(() => page.locator('.oidc-continue .submit-once__status').textContent()).toBe('Taking you to identification…');
    expect(await page.locator('.oidc-continue .spinner').count()).toBe(1);
    expect(await continueButton.getAttribute('aria-disabled')).toBe('true');
    // A second click posts nothing: the island cancels its submit (seen by a document listener, which runs after it).
    const secondPosted = await continueButton.evaluate(
      (button: HTMLButtonElement) =>
        new Promise<boolean>((resolve) => {
          document.addEventListener(
            'submit',
            (e) => {
              resolve(!e.defaultPrevented);
              e.preventDefault();
            },
            { once: true },
          );
          button.click();
        }),
    );
    expect(secondPosted).toBe(false);
    await continueButton.evaluate((button: HTMLButtonElement) => button.form!.submit());

    await atBroker(page, persona, 'MitID (sandbox)');
    await page.waitForURL(/\/onboarding\/customer-information\//, { timeout: 15_000 });
    expect(new URL(page.url()).host).toBe(new URL(marketUrl('dk')).host);
    expect(await page.locator('h1').textContent()).toBeTruthy();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('NO: BankID page, a LOGIN persona gets "You already have an account"', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'login', 'NO');
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await openIdentificationPage(page, 'no', 'Open account with BankID');
    await expectAccessible(page, 'Norwegian BankID');
    await page.getByRole('button', { name: 'Continue' }).click();
    await atBroker(page, persona, 'BankID (sandbox)');
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBe('You already have an account');
    expect(new URL(page.url()).host).toBe(new URL(marketUrl('no')).host);
    await expectAccessible(page, 'login error');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('FI: bank ID page, cancelling at the broker shows "Something went wrong"', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await openIdentificationPage(page, 'fi', 'Open account with your bank ID');
    await expectAccessible(page, 'Finnish bank ID');
    await page.getByRole('button', { name: 'Continue' }).click();
    await atBroker(page, 'cancel', 'Finnish bank ID (sandbox)');
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBe('Something went wrong');
    expect(page.url()).toBe(`${marketUrl('fi')}/onboarding`);
    await expectAccessible(page, 'try again error');

    // Try again goes back to the bank ID page.
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Open account with your bank ID');
    expect(errors).toEqual([]);
    await context.close();
  });
});
