// Proof of tax residence (customer-information.md §2.3 `residenceProof`, §7) in real Chromium, FLAG_TAX_RESIDENCE on:
// after valid numbers a TAX_RESIDENCE case is made for the home country, the proof is uploaded to it, and Continue
// submits the tax information and then the tax residence. With JavaScript (upload on choosing, removal modal, failure
// modal back on the numbers) and without (plain upload, removal and failure screens).
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { browser, identifyAs, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectAccessible, expectScreenAccessible } from '../support/journey.ts';
import { currentStep } from '../support/customerInformation.ts';
import { samplePdf } from '../support/files.ts';

let pdfPath: string;

useE2eStack({ env: { FLAG_TAX_RESIDENCE: 'true', FILE_RETRY_DELAY_MS: '5' } });

beforeAll(() => {
  pdfPath = path.join(mkdtempSync(path.join(tmpdir(), 'tax-residence-')), 'residence.pdf');
  writeFileSync(pdfPath, samplePdf());
});

const h1 = (page: Page) => page.locator('h1').first().textContent();
const submit = (page: Page, name: string) => Promise.all([page.waitForEvent('load'), page.getByRole('button', { name, exact: true }).click()]);
const PROOF = 'Proof of tax residence';
const NUMBERS = 'Tax identification number';
const DONE = 'Almost there! Just need to sign with your eID.';
const UPLOAD_LABEL = 'Proof of tax residence in Sweden';

interface StoredObject {
  taskId: string;
  attachmentId: string;
  fileName: string;
}
interface TaxResidence {
  prospectId: string;
  type: string;
  nnxTaskId: string;
  taskData: { countryCode: string };
  attachments: { attachmentId: string }[];
}
const storedObjects = async () => (await (await fetch(`${stack.sandboxUrl}/sandbox/storage/objects`)).json()) as StoredObject[];
const taxResidences = async () => (await (await fetch(`${stack.sandboxUrl}/sandbox/tax-residences`)).json()) as TaxResidence[];

async function toTaxStep(options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, ...options });
  const page = await context.newPage();
  await identifyAs(page, 'taxInformation');
  await expect.poll(() => h1(page)).toBe('Where are you liable for tax?');
  return page;
}

/** Other → Norway → the numbers, filled with a valid number and `startDate`, posted. */
async function throughNumbers(page: Page, startDate: string): Promise<void> {
  await page.locator('label', { hasText: /another country/ }).click();
  await submit(page, 'Continue');
  await page.getByRole('checkbox', { name: 'Norway' }).check();
  await submit(page, 'Continue');
  expect(await h1(page)).toBe(NUMBERS);
  // The address is at home: no tax residence country is asked.
  expect(await page.getByLabel('Tax residence').count()).toBe(0);
  await page.getByLabel('Tax identification number').fill('01018012345');
  await page.getByLabel('Start date').fill(startDate);
  await submit(page, 'Continue');
}

describe('proof of tax residence (FLAG_TAX_RESIDENCE)', () => {
  it('with JavaScript: upload to the case, removal modal, back keeps the case, failure modal on the numbers, then done', async () => {
    const page = await toTaxStep({});
    const errors = collectPageErrors(page);
    const [objectsBefore, residencesBefore] = [(await storedObjects()).length, (await taxResidences()).length];
    // A start date before the person's birth passes the page's checks; the server refuses it on submit.
    await throughNumbers(page, '1950-01-01');

    expect(await h1(page)).toBe(PROOF);
    expect(await currentStep(page)).toEqual({ step: 'TAX_INFO_STEP', screen: 'residenceProof' });
    expect(await page.locator('.proof-card h2').allTextContents()).toEqual(['Sweden']);
    const continueButton = page.getByRole('button', { name: 'Continue', exact: true });
    expect(await continueButton.isDisabled()).toBe(true);
    await expectAccessible(page, 'proof of tax residence');

    // Choosing the file uploads it at once, to the TAX_RESIDENCE case.
    await Promise.all([page.waitForEvent('load'), page.getByLabel(UPLOAD_LABEL).setInputFiles(pdfPath)]);
    await expect.poll(() => page.locator('.file-list').textContent()).toContain('residence.pdf');
    expect(await continueButton.isDisabled()).toBe(false);
    const [stored] = (await storedObjects()).slice(objectsBefore);
    expect(stored).toMatchObject({ fileName: 'residence.pdf' });
    await expectAccessible(page, 'proof of tax residence with a file');

    await page.getByRole('link', { name: 'Remove residence.pdf' }).click();
    const remove = page.getByRole('dialog', { name: 'Do you want to remove this file?' });
    await remove.waitFor();
    await expectAccessible(page, 'remove file modal');
    await remove.getByRole('button', { name: 'No, keep it' }).click();
    await expect.poll(() => remove.isVisible()).toBe(false);

    // Back goes to the numbers; Continue comes back to the same case, the file still there.
    await submit(page, 'Back');
    expect(await h1(page)).toBe(NUMBERS);
    expect(await page.getByLabel('Start date').inputValue()).toBe('1950-01-01');
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(PROOF);
    expect(await page.locator('.file-list').textContent()).toContain('residence.pdf');

    // The tax submit is refused: the failure modal opens over the numbers, filled in.
    await submit(page, 'Continue');
    const failure = page.getByRole('dialog', { name: 'We need additional information' });
    await failure.waitFor();
    expect(await failure.textContent()).toContain('Norway: start date');
    expect(await currentStep(page)).toEqual({ step: 'TAX_INFO_STEP', screen: 'numbers' });
    await failure.getByRole('button', { name: 'I want to try again' }).click();
    await expect.poll(() => failure.isVisible()).toBe(false);
    expect(await page.getByLabel('Tax identification number').inputValue()).toBe('01018012345');
    expect(await taxResidences()).toHaveLength(residencesBefore);

    await page.getByLabel('Start date').fill('2015-03-01');
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(PROOF);
    expect(await page.locator('.file-list').textContent()).toContain('residence.pdf');
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(DONE);

    // One case all along: the file went to it and the tax residence was submitted on it.
    expect(await storedObjects()).toHaveLength(objectsBefore + 1);
    expect((await taxResidences()).slice(residencesBefore)).toEqual([
      expect.objectContaining({
        type: 'TAX_RESIDENCE',
        nnxTaskId: stored!.taskId,
        taskData: { countryCode: 'SE' },
        attachments: [{ attachmentId: stored!.attachmentId }],
      }),
    ]);
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('without JavaScript: plain upload, removal and failure screens, back to the numbers, then done', async () => {
    const page = await toTaxStep({ javaScriptEnabled: false });
    const context = page.context();
    const [objectsBefore, residencesBefore] = [(await storedObjects()).length, (await taxResidences()).length];
    await throughNumbers(page, '1950-01-01');
    expect(await h1(page)).toBe(PROOF);
    const continueButton = page.getByRole('button', { name: 'Continue', exact: true });
    expect(await continueButton.isDisabled()).toBe(true);

    await page.getByLabel(UPLOAD_LABEL).setInputFiles(pdfPath);
    await submit(page, 'Upload file');
    expect(await page.locator('.file-list').textContent()).toContain('residence.pdf');

    // Removing asks on a screen of its own.
    await Promise.all([page.waitForEvent('load'), page.getByRole('link', { name: 'Remove residence.pdf' }).click()]);
    expect(await h1(page)).toBe('Do you want to remove this file?');
    await expectScreenAccessible(browser, context, page.url(), 'remove file screen', 'Do you want to remove this file?');
    await submit(page, 'Yes, remove');
    expect(await h1(page)).toBe(PROOF);
    expect(await page.locator('.file-list').count()).toBe(0);
    expect(await continueButton.isDisabled()).toBe(true);

    await page.getByLabel(UPLOAD_LABEL).setInputFiles(pdfPath);
    await submit(page, 'Upload file');
    // The server refuses the tax information: the failure screen; trying again goes back to the numbers.
    await submit(page, 'Continue');
    expect(await h1(page)).toBe('We need additional information');
    await submit(page, 'I want to try again');
    expect(await h1(page)).toBe(NUMBERS);
    await page.getByLabel('Start date').fill('2015-03-01');
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(PROOF);
    expect(await page.locator('.file-list').textContent()).toContain('residence.pdf');
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(DONE);
    // Both files went to the one case; only the one kept was submitted.
    const [removed, kept] = (await storedObjects()).slice(objectsBefore);
    expect(removed!.taskId).toBe(kept!.taskId);
    expect((await taxResidences()).slice(residencesBefore)).toEqual([
      expect.objectContaining({ nnxTaskId: kept!.taskId, taskData: { countryCode: 'SE' }, attachments: [{ attachmentId: kept!.attachmentId }] }),
    ]);
    await context.close();
  }, 120_000);
});
