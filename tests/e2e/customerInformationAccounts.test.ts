// Account picker and account alias in real Chromium (customer-information.md §2.2, §2.3, §4.2, §5):
// SE and DK with JavaScript (modals), NO and FI without (dialogs as their own screens), axe on every screen.
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, identifyAs, identifyInMarket, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { animationsFinished, collectPageErrors } from '../support/browser.ts';
import { expectAccessible, expectAccessibleWithoutJs, personaFor } from '../support/journey.ts';
import { expectIslandsHydrated } from '../support/clientBuild.ts';

vi.setConfig({ testTimeout: 120_000 });

useE2eStack();

const h1 = (page: Page) => page.locator('h1').first().textContent();

/** The market's 'accounts' persona on the account picker; `entry`: the start page's query (identifyInMarket). */
async function toPicker(page: Page, country: 'DK' | 'NO' | 'FI', entry?: string): Promise<void> {
  const persona = await personaFor(stack.sandboxUrl, 'accounts', country);
  await identifyInMarket(page, country, persona, /\/onboarding\/customer-information\//, { entry });
  await expect.poll(() => h1(page)).toBe('Choose your starting accounts');
}

/**
 * The picker in a context without JavaScript (identified over HTTP, identifyInMarket). axe cannot run in a page
 * without JavaScript, so `axe` loads the exact no-JS HTML into a scripted tab with scripts refused and checks it there
 * (expectAccessibleWithoutJs).
 */
async function noJsPickerPage(country: 'NO' | 'FI'): Promise<{ page: Page; axe: (screen: string) => Promise<void>; close: () => Promise<void> }> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await toPicker(page, country);
  const jsContext = await browser.newContext();
  const jsPage = await jsContext.newPage();
  jsPage.setDefaultTimeout(15_000);
  const axe = (screen: string) => expectAccessibleWithoutJs(page, jsPage, screen);
  return { page, axe, close: async () => Promise.all([context.close(), jsContext.close()]).then(() => undefined) };
}

// The card's label is stretched over the card, so a tap anywhere on it toggles the box.
const toggle = (page: Page, account: string) => page.locator(`label[for="account-${account}"]`).click();
const submit = (page: Page, name: string) => Promise.all([page.waitForEvent('load'), page.getByRole('button', { name, exact: true }).click()]);

describe('account picker and alias', () => {
  it('SE with JavaScript: defaults, Read more drawer, FAQ, abort modal, alias validation', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await identifyAs(page, 'accounts');
    await expect.poll(() => h1(page)).toBe('Choose your starting accounts');

    const dep = page.getByRole('checkbox', { name: /Stock and Fund Account/ });
    expect(await dep.isChecked()).toBe(true);
    expect(await dep.isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Investment Savings Account/ }).isChecked()).toBe(true);
    await expectAccessible(page, 'SE picker');

    // Read more: the precontractual documents of ISK (ATYID_125) as the bundles call titles them, and the deposit guarantee.
    // On a phone it is a bottom sheet (a modal over the page), on a wide screen a side drawer (customer-information §2.3).
    const readMore = page.locator('.read-more summary', { hasText: 'Investment Savings Account' });
    await readMore.click();
    const sheet = page.getByRole('dialog', { name: /Investment Savings Account/ });
    await expect.poll(() => sheet.isVisible()).toBe(true);
    await expect.poll(() => sheet.getByRole('link', { name: /– Investment Savings Account$/ }).count()).toBe(2);
    expect(await sheet.getByRole('link', { name: 'Deposit guarantee' }).isVisible()).toBe(true);
    await animationsFinished(sheet); // the slide-in
    const phoneBox = (await sheet.boundingBox())!;
    expect(phoneBox.width).toBe(360);
    expect(Math.round(phoneBox.y + phoneBox.height)).toBe(740);
    expect(phoneBox.y).toBeGreaterThan(0);
    await expectAccessible(page, 'SE picker, bottom sheet open');
    await sheet.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => sheet.isVisible()).toBe(false);
    expect(await readMore.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    await readMore.click();
    await expect.poll(() => sheet.isVisible()).toBe(true);
    await animationsFinished(sheet); // the slide-in
    const drawerBox = (await sheet.boundingBox())!;
    expect(drawerBox).toEqual({ x: 1280 - 480, y: 0, width: 480, height: 800 });
    await expectAccessible(page, 'SE picker, side drawer open');
    await page.keyboard.press('Escape');
    await expect.poll(() => sheet.isVisible()).toBe(false);
    await page.setViewportSize(PHONE);

    // FAQ: independent items.
    await page.getByText('What is a stock and fund account (depot)?').click();
    await page.getByText('What is a politically exposed person (PEP)?').click();
    expect(await page.locator('.faq-panel details[open]').count()).toBe(2);

    // Abort modal: Esc and 'No, continue signup' close it; focus goes back to Exit.
    await page.getByRole('link', { name: 'Exit' }).click();
    const abort = page.getByRole('dialog', { name: 'Are you sure you want to exit?' });
    await expect.poll(() => abort.isVisible()).toBe(true);
    await expectAccessible(page, 'abort modal');
    await page.keyboard.press('Escape');
    await expect.poll(() => abort.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('ci-exit');
    await page.getByRole('link', { name: 'Exit' }).click();
    await page.getByRole('button', { name: 'No, continue signup' }).click();
    await expect.poll(() => abort.isVisible()).toBe(false);
    expect(page.url()).toMatch(/customer-information\/[^/]+$/);

    await submit(page, 'Continue');
    await expect.poll(() => h1(page)).toBe('Name your accounts');
    const isk = page.getByLabel('Name of your Investment Savings Account');
    // The island marks when it has hydrated (client/hydrate.tsx), as the bench counts it.
    await expect.poll(() => page.evaluate(() => performance.getEntriesByName('island:accountAlias').length)).toBe(1);
    expect(await isk.inputValue()).toBe('Investment Savings Account');
    await expectAccessible(page, 'alias');
    // Blur validation, then a cleared input gets its default name back.
    await isk.fill('x!');
    await page.getByLabel('Name of your Stock and Fund Account').focus();
    await expect
      .poll(() => page.locator('.field__error').first().textContent())
      .toBe('The alias can only consist of letters, numbers, hyphens, underscore, & characters, spaces, comma and point.');
    await expectAccessible(page, 'alias with error');
    await isk.fill('');
    // Typing clears the field's error until it is checked again.
    expect(await page.locator('.field__error').count()).toBe(0);
    expect(await isk.getAttribute('aria-invalid')).toBeNull();
    await page.getByLabel('Name of your Stock and Fund Account').focus();
    expect(await isk.inputValue()).toBe('Investment Savings Account');
    // Continue with a name that breaks the rules (one character between spaces is too short): checked here,
    // nothing posted; the linked error summary shows and takes focus, as the server's does.
    await isk.fill(' a ');
    const before = page.url();
    await page.getByRole('button', { name: 'Continue' }).click();
    const tooShort = 'The name must consist of at least 2 and a maximum of 30 characters.';
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('error-summary');
    expect(await page.locator('.error-summary a').allTextContents()).toEqual([tooShort]);
    const target = (await page.locator('.error-summary a').getAttribute('href'))!;
    expect(await page.locator(target).getAttribute('aria-describedby')).toBe(`${target.slice(1)}-error`);
    expect(await page.locator('.field__error').first().textContent()).toBe(tooShort);
    expect(page.url()).toBe(before);
    await expectAccessible(page, 'alias, summary after Continue');
    await isk.fill('Holiday 🏖️');
    await submit(page, 'Continue');
    await expect.poll(() => h1(page)).toBe('Almost there! Just need to sign with your eID.');
    // The only console error is the alias page re-rendered with status 400 (input kept, errors shown).
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await context.close();
  });

  it('DK with JavaScript: DSK info, confirmation modal (Next only after the box), Cancel unticks', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await toPicker(page, 'DK');
    // The picker and its modal hydrate the server's markup (a mismatch is a console error).
    await expectIslandsHydrated(page, ['accountPicker', 'dialog']);
    const dsk = page.getByRole('checkbox', { name: /Equity Savings Account/ });
    expect(await dsk.isChecked()).toBe(false);
    await toggle(page, 'DSK_DK');
    const dialog = page.getByRole('dialog', { name: 'Do you have an ASK with another bank?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const next = dialog.getByRole('button', { name: 'Next' });
    expect(await next.isDisabled()).toBe(true);
    await expectAccessible(page, 'DSK modal');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await dsk.isChecked()).toBe(false);

    await toggle(page, 'DSK_DK');
    await dialog.getByLabel('I confirm that I do not have an ASK with another bank').check();
    expect(await next.isDisabled()).toBe(false);
    await next.click();
    expect(await dsk.isChecked()).toBe(true);
    expect(await page.locator('#dsk-info').isVisible()).toBe(true);
    await submit(page, 'Continue');
    await expect.poll(() => h1(page)).toBe('Name your accounts');
    expect(await page.locator('input[name^=alias_]').count()).toBe(2);
    await submit(page, 'Skip');
    await expect.poll(() => h1(page)).toBe('Almost there! Just need to sign with your eID.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('DK campaign with JavaScript: DSK ticked from the start with the question, yes locks DSK off, no opens the confirmation', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await toPicker(page, 'DK', 'campaign=ask');
    await expectIslandsHydrated(page, ['accountPicker', 'dialog']);
    const dsk = page.getByRole('checkbox', { name: /Equity Savings Account/ });
    const question = page.getByRole('group', { name: 'Do you have an existing equity savings account at another bank?' });
    const dialog = page.getByRole('dialog', { name: 'Do you have an ASK with another bank?' });
    const warning = page.locator('#dsk-existing-warning');
    // customer-information §4.2: in the campaign DSK starts ticked, its question shown and unanswered, no modal yet.
    expect(await dsk.isChecked()).toBe(true);
    await expect.poll(() => question.isVisible()).toBe(true);
    expect(await page.locator('#dsk-existing-yes').isChecked()).toBe(false);
    expect(await dialog.isVisible()).toBe(false);
    // Yes: DSK unticked and locked off, with the warning; the question stays to change the answer.
    await question.getByLabel('Yes').check();
    await expect.poll(() => dsk.isDisabled()).toBe(true);
    expect(await dsk.isChecked()).toBe(false);
    expect(await warning.isVisible()).toBe(true);
    expect(await question.isVisible()).toBe(true);
    await expectAccessible(page, 'DK campaign, yes');
    // No: DSK ticked again and its confirmation opens; Cancel unticks it and clears the answer.
    await question.getByLabel('No').check();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dsk.isChecked()).toBe(true);
    expect(await warning.isVisible()).toBe(false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await dsk.isChecked()).toBe(false);
    // The answer is cleared, and the question hides with DSK unticked.
    expect(await page.locator('#dsk-existing-no').isChecked()).toBe(false);
    expect(await question.isVisible()).toBe(false);
    // No again, confirmed: the choice posts and the alias step names both accounts.
    await toggle(page, 'DSK_DK');
    await question.getByLabel('No').check();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByLabel('I confirm that I do not have an ASK with another bank').check();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await dsk.isChecked()).toBe(true);
    await submit(page, 'Continue');
    await expect.poll(() => h1(page)).toBe('Name your accounts');
    expect(await page.locator('input[name^=alias_]').count()).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('NO with JavaScript: EPK follows DEP or ASK as they are ticked', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await toPicker(page, 'NO');
    await expectIslandsHydrated(page, ['accountPicker', 'dialog']);
    const epk = page.getByRole('checkbox', { name: /EPK Pension Account/ });
    const ask = page.getByRole('checkbox', { name: /Equity Savings Account/ });
    expect(await ask.isChecked()).toBe(true);
    expect(await epk.isDisabled()).toBe(false);
    await toggle(page, 'EPK_NO');
    expect(await epk.isChecked()).toBe(true);
    // Without DEP or ASK, EPK is cleared and locked; ticking DEP unlocks it, unticked.
    await toggle(page, 'ASK_NO');
    await expect.poll(() => epk.isDisabled()).toBe(true);
    expect(await epk.isChecked()).toBe(false);
    await toggle(page, 'DEP_NO');
    await expect.poll(() => epk.isDisabled()).toBe(false);
    expect(await epk.isChecked()).toBe(false);
    await toggle(page, 'EPK_NO');
    await submit(page, 'Continue');
    await expect.poll(() => h1(page)).toBe('Name your accounts');
    expect(await page.locator('input[name^=alias_]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).name))).toEqual([
      'alias_DEP_NO',
      'alias_EPK_NO',
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('NO without JavaScript: DEP or ASK required, EPK cleared without them', async () => {
    const { page, close } = await noJsPickerPage('NO');
    // Without JavaScript 'Read more' opens in place (no sheet).
    await page.locator('.read-more summary', { hasText: 'Equity Savings Account' }).click();
    const inPlace = page.getByRole('region', { name: /Equity Savings Account/ });
    await expect.poll(() => inPlace.getByRole('link', { name: /– Equity Savings Account$/ }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await toggle(page, 'ASK_NO');
    await toggle(page, 'EPK_NO');
    await submit(page, 'Continue');
    expect(await page.getByRole('alert').textContent()).toBe('You must choose 1 option');
    expect(await page.getByRole('checkbox', { name: /EPK Pension Account/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Stock and Fund Account/ }).isChecked()).toBe(false);
    await toggle(page, 'DEP_NO');
    await submit(page, 'Continue');
    await expect.poll(() => h1(page)).toBe('Name your accounts');
    await submit(page, 'Continue');
    await expect.poll(() => h1(page)).toBe('Almost there! Just need to sign with your eID.');
    await close();
  });

  it('FI without JavaScript: ESA dialog as its own screen, box required, decline shows the warning', async () => {
    const { page, axe, close } = await noJsPickerPage('FI');
    await toggle(page, 'ESA_FI');
    await submit(page, 'Continue');
    await expect.poll(() => h1(page)).toBe('Do you have an Equity Savings Account elsewhere?');
    await axe('ESA dialog screen');
    await submit(page, 'Cancel');
    await expect.poll(() => h1(page)).toBe('Choose your starting accounts');
    expect(await page.locator('#esa-declined-warning').isVisible()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Equity Savings Account/ }).isChecked()).toBe(false);
    await axe('FI picker with warning');

    await toggle(page, 'ESA_FI');
    await submit(page, 'Continue');
    await page.getByLabel("I certify that I don't have any previous Equity Savings Account.").check();
    await submit(page, 'Next');
    await expect.poll(() => h1(page)).toBe('Name your accounts');
    expect(await page.locator('input[name=alias_ESA_FI]').inputValue()).toBe('Equity Savings Account');
    // Back returns to the picker with the choice kept.
    await submit(page, 'Back');
    await expect.poll(() => h1(page)).toBe('Choose your starting accounts');
    expect(await page.getByRole('checkbox', { name: /Equity Savings Account/ }).isChecked()).toBe(true);
    await close();
  });
});
