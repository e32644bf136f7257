// The citizenship step in real Chromium (customer-information.md §2.3, §4.3, §4.7, §5 "Files"): with
// JavaScript (modal dialogs, country search, upload on choosing a file) and without (every dialog its own
// screen, plain forms). The sandbox persona 'citizenship' goes straight to this step, then milestone three.
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { browser, identifyAs, stack, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectAccessible } from '../support/journey.ts';
import { currentStep } from '../support/customerInformation.ts';
import { samplePdf } from '../support/files.ts';
import { expectIslandsHydrated } from '../support/clientBuild.ts';

let pdfPath: string;

useE2eStack({ env: { FILE_RETRY_DELAY_MS: '5' } });

beforeAll(() => {
  pdfPath = path.join(mkdtempSync(path.join(tmpdir(), 'citizenship-')), 'passport.pdf');
  writeFileSync(pdfPath, samplePdf());
});

/** Identifies as the citizenship persona (with JavaScript); answers the page on the citizenship step. */
async function identified(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await identifyAs(page, 'citizenship');
  expect(await currentStep(page)).toEqual({ step: 'CITIZENSHIP_STEP', screen: 'choice' });
  return page;
}

const h1 = (page: Page) => page.locator('h1').first().textContent();

describe('citizenship step', () => {
  it('with JavaScript: dialog, search, upload, remove prompt, done', async () => {
    const context = await browser.newContext();
    const page = await identified(context);
    const errors = collectPageErrors(page);
    expect(await h1(page)).toBe('What is your citizenship?');
    // The choice screen: its form and the CITIZENSHIP modal hydrate the server's markup.
    await expectIslandsHydrated(page, ['citizenshipChoice', 'dialog']);
    await expectAccessible(page, 'citizenship choice');

    // The dialog's primary action puts the answer back to Sweden.
    await page.getByRole('radio', { name: 'I am a citizen of another country/countries' }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'We need more information about your citizenship' });
    await dialog.waitFor();
    await expectAccessible(page, 'citizenship dialog');
    // axe cannot run without JavaScript: the no-JS dialog screen is checked here (same server markup),
    // reached as without JavaScript: the choice posted unconfirmed (form.submit() skips the island), then Back.
    await Promise.all([page.waitForEvent('load'), page.locator('form:has(#citizenship-other)').evaluate((form: HTMLFormElement) => form.submit())]);
    await page.locator('[data-screen="dialog"]').waitFor();
    await expectAccessible(page, 'citizenship dialog screen');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Back' }).click()]);
    await page.getByRole('radio', { name: 'I am a citizen of another country/countries' }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'I am only a citizen of Sweden' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // The choice island resets the answer when it hears the dialog close, a moment after the close.
    await expect.poll(() => page.getByRole('radio', { name: 'I am only a citizen of Sweden' }).isChecked()).toBe(true);

    // Continue in the dialog goes on to the countries (700 ms later).
    await page.getByRole('radio', { name: 'I am a citizen of another country/countries' }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => !url.search.includes('dialog'));
    await expect.poll(async () => (await currentStep(page)).screen).toBe('countries');
    expect(await h1(page)).toBe('Which countries are you a citizen of?');
    const continueButton = page.getByRole('button', { name: 'Continue', exact: true });
    await expect.poll(() => continueButton.isDisabled()).toBe(true);
    await expectAccessible(page, 'citizenship countries');

    const search = page.getByRole('searchbox', { name: 'Search for a country' });
    await search.fill('zzz');
    await expect.poll(() => page.getByText('No countries found').isVisible()).toBe(true);
    await search.fill('norw');
    expect(await page.locator('.country-select__list--all input').count()).toBe(1);
    await page.getByRole('checkbox', { name: 'Norway' }).check();
    expect(await page.getByRole('list', { name: 'Chosen' }).getByRole('checkbox', { name: 'Norway' }).isChecked()).toBe(true);
    expect(await continueButton.isDisabled()).toBe(false);
    await Promise.all([page.waitForEvent('load'), continueButton.click()]);

    expect(await h1(page)).toBe('Proof of citizenship');
    expect(await continueButton.isDisabled()).toBe(true);
    await expectAccessible(page, 'citizenship proof');
    // Choosing the file uploads it at once.
    await Promise.all([page.waitForEvent('load'), page.getByLabel('Proof of citizenship for Norway').setInputFiles(pdfPath)]);
    await expect.poll(() => page.locator('.file-list').textContent()).toContain('passport.pdf');
    expect(await continueButton.isDisabled()).toBe(false);

    await page.getByRole('link', { name: 'Remove passport.pdf' }).click();
    const remove = page.getByRole('dialog', { name: 'Do you want to remove this file?' });
    await remove.waitFor();
    await expectAccessible(page, 'remove file dialog');
    await remove.getByRole('button', { name: 'No, keep it' }).click();
    await expect.poll(() => remove.isVisible()).toBe(false);
    // The no-JS removal screen, checked by axe.
    await page.goto(`${stack.webUrl}${await page.getByRole('link', { name: 'Remove passport.pdf' }).getAttribute('href')}`);
    expect(await h1(page)).toBe('Do you want to remove this file?');
    await expectAccessible(page, 'remove file screen');
    await page.getByRole('link', { name: 'No, keep it' }).click();
    await page.waitForURL((url) => !url.search.includes('remove'));

    await Promise.all([page.waitForEvent('load'), continueButton.click()]);
    expect(await currentStep(page)).toEqual({ step: 'MILESTONE_THREE_STEP', screen: 'milestone' });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('without JavaScript: dialog and removal as screens, plain upload, then back and only Sweden', async () => {
    const jsContext = await browser.newContext();
    const stepUrl = (await identified(jsContext)).url();
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: await jsContext.storageState() });
    await jsContext.close();
    const page = await context.newPage();
    await page.goto(stepUrl);

    await page.getByRole('radio', { name: 'I am a citizen of another country/countries' }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.locator('[data-screen="dialog"]').waitFor();
    expect(await h1(page)).toBe('We need more information about your citizenship');
    expect(await page.getByRole('link', { name: 'Fill in the form instead' }).getAttribute('href')).toMatch(/\/identified\?exit=CITIZENSHIP$/);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();

    expect(await currentStep(page)).toEqual({ step: 'CITIZENSHIP_STEP', screen: 'countries' });
    // No country chosen: the server refuses and says so.
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Choose at least one country');
    await page.getByRole('checkbox', { name: 'Denmark' }).check();
    await page.getByRole('checkbox', { name: 'Sweden' }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();

    expect(await h1(page)).toBe('Proof of citizenship');
    expect(await page.locator('.proof-card h2').allTextContents()).toEqual(['Denmark']);
    await page.getByLabel('Proof of citizenship for Denmark').setInputFiles(pdfPath);
    await page.getByRole('button', { name: 'Upload file' }).click();
    await expect.poll(() => page.locator('.file-list').textContent()).toContain('passport.pdf');

    await page.getByRole('link', { name: 'Remove passport.pdf' }).click();
    expect(await h1(page)).toBe('Do you want to remove this file?');
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    expect(await page.locator('.file-list').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Continue', exact: true }).isDisabled()).toBe(true);

    // Back twice to the choice, which remembers 'another country'; only Sweden finishes the step.
    await page.getByRole('button', { name: 'Back' }).click();
    expect((await currentStep(page)).screen).toBe('countries');
    expect(await page.getByRole('checkbox', { name: 'Denmark' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await page.getByRole('radio', { name: 'I am a citizen of another country/countries' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'I am only a citizen of Sweden' }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    expect(await currentStep(page)).toEqual({ step: 'MILESTONE_THREE_STEP', screen: 'milestone' });
    await context.close();
  }, 120_000);
});
