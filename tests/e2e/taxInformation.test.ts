// Tax information in real Chromium (customer-information.md §2.3, §4.5, §4.7, §5, §8): the sandbox's
// taxInformation persona goes straight to the step. With JavaScript the compliance dialogs are modals
// (FATCA in place on the liability and countries forms, the failure dialog over the numbers form) and the
// country search filters as you type. Without JavaScript every dialog is its own screen and the search is a
// server round trip. Proof of tax residence (FLAG_TAX_RESIDENCE) is in taxResidence.test.ts.
import { describe, expect, it } from 'vitest';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { browser, identifyAs, PHONE, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectAccessible, expectScreenAccessible } from '../support/journey.ts';
import { currentStep, httpAnswerOf, screenOf, walkToMilestoneThree } from '../support/customerInformation.ts';
import { expectIslandsHydrated } from '../support/clientBuild.ts';

useE2eStack();

const h1 = (page: Page) => page.locator('h1').first().textContent();
/** Lets the islands finish hydrating (their effects run after paint) before the test clicks. */
const settled = async (page: Page) => {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
};
const submit = (page: Page, name: string) => Promise.all([page.waitForEvent('load'), page.getByRole('button', { name, exact: true }).click()]);
// The radio card's label covers the card (the whole card is the tap target): click the label.
const choose = (page: Page, label: string | RegExp) => page.locator('label', { hasText: label }).click();
const LIABILITY = 'Where are you liable for tax?';
const COUNTRIES = 'In which countries are you liable for tax?';
const NUMBERS = 'Tax identification number';
const FATCA = 'We need to handle your application manually';
const FAILURE = 'We need additional information';
const ATTEST = 'I am only liable for tax in Sweden';
const DONE = 'Almost there! Just need to sign with your eID.';
const FORM_URL = 'https://forms.example.com/additional-information/identified?exit=FATCA';

/** Identified as the persona; answers the page on its first customer-information screen. */
async function identified(options: BrowserContextOptions, scenario: string): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, ...options });
  const page = await context.newPage();
  await identifyAs(page, scenario);
  return page;
}

async function toTaxStep(options: BrowserContextOptions): Promise<Page> {
  const page = await identified(options, 'taxInformation');
  await expect.poll(() => h1(page)).toBe(LIABILITY);
  return page;
}

/**
 * The residency persona lives abroad: its residency step sets an address in Norway. That step is answered
 * over HTTP in the same session (the walks' HTTP answers), so this test only walks the tax step's screens.
 */
async function toTaxStepLivingAbroad(options: BrowserContextOptions): Promise<Page> {
  const page = await identified(options, 'residency');
  const stepUrl = page.url();
  for (let screens = 0; screens < 10; screens++) {
    const html = await (await page.request.get(stepUrl)).text();
    const [step, screen] = screenOf(html) ?? [];
    if (step !== 'RESIDENCY_STEP' || screen === undefined) break;
    // As the walks post it (tests/support/customerInformation.ts).
    const body = httpAnswerOf('RESIDENCY_STEP', screen, html);
    const res =
      typeof body === 'string'
        ? await page.request.post(`${stepUrl}/step`, {
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
            data: body,
          })
        : await page.request.post(`${stepUrl}/step`, {
            headers: { 'sec-fetch-site': 'same-origin' },
            multipart: { ...body.fields, file: { name: body.file.name, mimeType: body.file.contentType, buffer: body.file.bytes } },
          });
    expect(res.ok()).toBe(true);
  }
  await page.goto(stepUrl);
  expect(await currentStep(page)).toEqual({ step: 'TAX_INFO_STEP', screen: 'liability' });
  return page;
}

describe('tax information', () => {
  it('with JavaScript: FATCA modal (cancel, attest), live country search, FATCA from the countries, the failure modal, done', async () => {
    const page = await toTaxStep({});
    const errors = collectPageErrors(page);
    // The liability screen: its form and the FATCA modal hydrate the server's markup.
    await expectIslandsHydrated(page, ['taxLiability', 'dialog']);
    await expectAccessible(page, 'liability');

    // USA opens the FATCA modal in place; its form link carries the exit parameter; Cancel only closes it.
    await choose(page, 'I am liable for tax in the USA');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const fatca = page.getByRole('dialog', { name: FATCA });
    await fatca.waitFor();
    expect(await fatca.getByRole('link', { name: 'Go to the form' }).getAttribute('href')).toBe(FORM_URL);
    await expectAccessible(page, 'FATCA modal over the liability');
    await fatca.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => fatca.isVisible()).toBe(false);
    expect(await currentStep(page)).toEqual({ step: 'TAX_INFO_STEP', screen: 'liability' });
    expect(await page.getByRole('radio', { name: 'I am liable for tax in the USA' }).isChecked()).toBe(true);

    // Attest resets the answer to home only and submits it: the step is done.
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await fatca.waitFor();
    await Promise.all([page.waitForEvent('load'), fatca.getByRole('button', { name: ATTEST }).click()]);
    expect(await h1(page)).toBe(DONE);
    await submit(page, 'Back');
    expect(await h1(page)).toBe(LIABILITY);
    expect(await page.getByRole('radio', { name: ATTEST }).isChecked()).toBe(true);

    // Other → countries: the list filters as you type, by the start of the name.
    await choose(page, /another country/);
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(COUNTRIES);
    const continueButton = page.getByRole('button', { name: 'Continue', exact: true });
    await expect.poll(() => continueButton.isDisabled()).toBe(true);
    // The server-side Search button is for pages without JavaScript.
    expect(await page.locator('button', { hasText: 'Search' }).isHidden()).toBe(true);
    await expectAccessible(page, 'countries');
    const search = page.getByRole('searchbox', { name: 'Search for a country' });
    await search.fill('zzz');
    await expect.poll(() => page.getByText('No countries found').isVisible()).toBe(true);
    await expectAccessible(page, 'countries, none found');
    await search.fill('nor');
    const listed = await page.locator('.country-select__list--all label').allTextContents();
    expect(listed).toContain('Norway');
    expect(listed.every((label) => label.startsWith('Nor'))).toBe(true);
    await page.getByRole('checkbox', { name: 'Norway' }).check();
    expect(await page.getByRole('list', { name: 'Chosen' }).getByRole('checkbox', { name: 'Norway' }).isChecked()).toBe(true);
    expect(await continueButton.isDisabled()).toBe(false);
    // Enter in the search box does not post the form.
    await search.press('Enter');
    expect(await h1(page)).toBe(COUNTRIES);

    // The US among the chosen opens the FATCA modal in place; Cancel keeps the choice on the page.
    await search.fill('united st');
    await page.getByRole('checkbox', { name: 'United States', exact: true }).check();
    await continueButton.click();
    await fatca.waitFor();
    await expectAccessible(page, 'FATCA modal over the countries');
    await fatca.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => fatca.isVisible()).toBe(false);
    expect(await currentStep(page)).toEqual({ step: 'TAX_INFO_STEP', screen: 'countries' });
    expect(await page.getByRole('list', { name: 'Chosen' }).getByRole('checkbox', { name: 'United States' }).isChecked()).toBe(true);
    // Unticked, it moves back to the countries list (a new element): the page-wide locator follows it.
    await page.getByRole('checkbox', { name: 'United States', exact: true }).uncheck();
    await search.fill('Germ');
    await page.getByRole('checkbox', { name: 'Germany' }).check();
    await submit(page, 'Continue');

    // Numbers: every rule of the country, a start date required.
    expect(await h1(page)).toBe(NUMBERS);
    const norway = page.getByRole('group', { name: 'Norway' });
    const germany = page.getByRole('group', { name: 'Germany' });
    const noTin = norway.getByLabel('Tax identification number');
    const deTin = germany.getByLabel('Tax identification number');
    await noTin.fill('0101801234');
    await deTin.fill('01234567890');
    await germany.getByLabel('Start date').fill('2020-01-01');
    await submit(page, 'Continue');
    expect(await norway.textContent()).toContain('Wrong format: DDMMYYXXXXX');
    expect(await norway.textContent()).toContain('Please enter a valid start date');
    expect(await germany.textContent()).toContain('Wrong format: 12345678901');
    expect(await noTin.inputValue()).toBe('0101801234');
    expect(await noTin.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'numbers with errors');

    // Valid formats, but a start date before the person's birth: the server refuses and names the field;
    // the failure dialog opens as a modal over the numbers form.
    await noTin.fill('01018012345');
    await norway.getByLabel('Start date').fill('1950-01-01');
    await deTin.fill('12345678901');
    await submit(page, 'Continue');
    const failure = page.getByRole('dialog', { name: FAILURE });
    await failure.waitFor();
    expect(await failure.textContent()).toContain('We could not validate the information you provided');
    expect(await failure.textContent()).toContain('Norway: start date');
    expect(await failure.textContent()).not.toContain('Germany');
    expect(await currentStep(page)).toEqual({ step: 'TAX_INFO_STEP', screen: 'numbers' });
    await expectAccessible(page, 'tax failure modal');
    await failure.getByRole('button', { name: 'I want to try again' }).click();
    await expect.poll(() => failure.isVisible()).toBe(false);

    // The form under it still holds the input; fix the date and the step is done.
    expect(await deTin.inputValue()).toBe('12345678901');
    expect(await norway.getByLabel('Start date').inputValue()).toBe('1950-01-01');
    await norway.getByLabel('Start date').fill('2015-03-01');
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(DONE);
    // The re-rendered forms answer 400 (errors shown, input kept); nothing else may fail.
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('living abroad: home only opens the FATCA dialog (modal with JavaScript, screen without), which the walks answer', async () => {
    // With JavaScript: the modal, in place.
    const page = await toTaxStepLivingAbroad({});
    const errors = collectPageErrors(page);
    await settled(page);
    await choose(page, ATTEST);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const fatca = page.getByRole('dialog', { name: FATCA });
    await fatca.waitFor();
    await expectAccessible(page, 'FATCA modal, living abroad');
    await fatca.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => fatca.isVisible()).toBe(false);
    expect(await currentStep(page)).toEqual({ step: 'TAX_INFO_STEP', screen: 'liability' });
    // The walks' answer (tests/support/customerInformation.ts) attests in it.
    await walkToMilestoneThree(page);
    expect(await h1(page)).toBe(DONE);
    expect(errors).toEqual([]);
    await page.context().close();

    // Without JavaScript: the screen, which the walks' answer attests on.
    const plain = await toTaxStepLivingAbroad({ javaScriptEnabled: false });
    const screens: string[] = [];
    await walkToMilestoneThree(plain, async () => void screens.push((await h1(plain)) ?? ''));
    expect(screens).toEqual([LIABILITY, FATCA]);
    expect(await h1(plain)).toBe(DONE);
    await plain.context().close();
  }, 120_000);

  it('without JavaScript: FATCA and the failure dialog as screens, server search, only home chosen finishes', async () => {
    const page = await toTaxStep({ javaScriptEnabled: false });
    const context = page.context();
    // No choice: the required message.
    await submit(page, 'Continue');
    expect(await page.getByRole('alert').textContent()).toBe('We need additional information to process your application');

    // USA: the FATCA screen; Cancel goes back to the choice; attest resets to home only and finishes.
    await choose(page, 'I am liable for tax in the USA');
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(FATCA);
    expect(await page.getByRole('link', { name: 'Go to the form' }).getAttribute('href')).toBe(FORM_URL);
    await expectScreenAccessible(browser, context, page.url(), 'FATCA screen', FATCA);
    await submit(page, 'Cancel');
    expect(await h1(page)).toBe(LIABILITY);
    await choose(page, 'I am liable for tax in the USA');
    await submit(page, 'Continue');
    await submit(page, ATTEST);
    expect(await h1(page)).toBe(DONE);

    // Back into the step: the in-country answer is kept; other with only Sweden chosen submits home only.
    await submit(page, 'Back');
    expect(await h1(page)).toBe(LIABILITY);
    expect(await page.getByRole('radio', { name: ATTEST }).isChecked()).toBe(true);
    await choose(page, /another country/);
    await submit(page, 'Continue');
    expect(await page.getByRole('button', { name: 'Search', exact: true }).isVisible()).toBe(true);
    await page.getByLabel('Search for a country').fill('swe');
    await submit(page, 'Search');
    expect(await page.getByRole('checkbox', { name: 'Sweden' }).count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Norway' }).count()).toBe(0);
    await page.getByRole('checkbox', { name: 'Sweden' }).check();
    await page.getByLabel('Search for a country').fill('xyz');
    await submit(page, 'Search');
    expect(await page.locator('main').textContent()).toContain('No countries found');
    expect(await page.getByRole('checkbox', { name: 'Sweden' }).isChecked()).toBe(true);
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(DONE);

    // Again, with the US chosen: the FATCA screen, whose Cancel goes back to the countries.
    await submit(page, 'Back');
    await choose(page, /another country/);
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(COUNTRIES);
    await page.getByRole('checkbox', { name: 'United States', exact: true }).check();
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(FATCA);
    await submit(page, 'Cancel');
    expect(await h1(page)).toBe(COUNTRIES);
    expect(await page.getByRole('checkbox', { name: 'United States', exact: true }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'United States', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'Norway' }).check();
    await submit(page, 'Continue');

    // A refused submit: the failure screen, then back to the numbers as typed.
    expect(await h1(page)).toBe(NUMBERS);
    const norway = page.getByRole('group', { name: 'Norway' });
    await norway.getByLabel('Tax identification number').fill('01018012345');
    await norway.getByLabel('Start date').fill('1950-01-01');
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(FAILURE);
    expect(await page.locator('main').textContent()).toContain('Norway: start date');
    await expectScreenAccessible(browser, context, page.url(), 'tax failure screen', FAILURE);
    await submit(page, 'I want to try again');
    expect(await h1(page)).toBe(NUMBERS);
    expect(await norway.getByLabel('Tax identification number').inputValue()).toBe('01018012345');
    await norway.getByLabel('Start date').fill('2015-03-01');
    await submit(page, 'Continue');
    expect(await h1(page)).toBe(DONE);
    await context.close();
  }, 120_000);
});
