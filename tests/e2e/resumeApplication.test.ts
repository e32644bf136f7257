// Carrying on where one left off, in Chromium: half the steps answered in one browser, which is then closed; the same
// person identifying in a fresh browser lands on the first unfinished step with every earlier answer behind Back, and
// in the app's webview goes on to check your answers (the earlier answers listed), signs and is created: one prospect,
// each step sent once (the sandbox's read-out). Each resumed screen passes the layout check, axe and HTML_CodeSniffer at
// 360×740 and on a desktop, the Nu checker, and shows no script error.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { browser, expectPhoneLayout, identifyAs, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectAccessible, identifyOnPhone, personaFor } from '../support/journey.ts';
import { codeSnifferErrors, HtmlChecks } from '../support/htmlCheckers.ts';
import { browserAnswers, currentStep } from '../support/customerInformation.ts';
import { prospectsOf } from '../support/savedApplication.ts';
import { userAgents } from '../support/userAgents.ts';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import { routes } from '../../shared/routes.ts';

useE2eStack({ env: { SANDBOX_PROSPECT_KEEP_DAYS: '90' } });

const DESKTOP = { width: 1280, height: 800 };
const EMAIL = 'resumed.person@example.com';
const ALIAS = 'Resa till Japan';

/** The answers of the first browser: the defaults, but a name and contact details of its own (so the prefill is seen). */
const firstBrowserAnswers: Partial<Record<StepId, (page: Page, screen: string) => Promise<void>>> = {
  ...browserAnswers,
  ACCOUNT_ALIAS_STEP: async (page) => {
    await page.locator('input[type="text"]').first().fill(ALIAS);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  },
  CONTACT_INFORMATION_STEP: async (page) => {
    await page.getByLabel('Mobile phone number').fill('+46 70 765 43 21');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  },
};

/** Answers each step shown with `answers` until `until` is the current step. */
async function answerUntil(page: Page, until: StepId, answers: typeof firstBrowserAnswers): Promise<void> {
  for (let screens = 0; screens < 40; screens++) {
    const { step, screen } = await currentStep(page);
    if (step === until) return;
    if (screen === 'loader') {
      await page.locator('[data-step]:not([data-screen="loader"])').waitFor({ timeout: 30_000 });
      continue;
    }
    await Promise.all([page.waitForEvent('load'), answers[step]!(page, screen)]);
  }
  throw new Error(`never reached ${until}`);
}

/** A fresh browser (a phone's, or the app's webview on an iPhone) identified as the person, at the page routing opens. */
async function freshBrowser(scenario: string, webview: boolean): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: PHONE, ...(webview ? { userAgent: userAgents.iphoneSafari } : {}) });
  await context.addCookies([{ name: 'locale', value: 'en', url: stack.webUrl }]);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  if (!webview) {
    await identifyAs(page, scenario);
    return { context, page, errors };
  }
  // The app opens the journey with ?webview=true; on the phone, BankID on another device (the test's phone scans).
  await page.goto(`${stack.webUrl}/onboarding?webview=true`);
  await page.getByRole('button', { name: /Private/ }).click();
  await expect.poll(() => page.locator('h1').textContent()).toBe('Open account with BankID');
  await page.getByRole('button', { name: 'BankID on another device (QR code)' }).click();
  await identifyOnPhone(browser, stack.sandboxUrl, await personaFor(stack.sandboxUrl, scenario));
  await page.waitForURL(/\/onboarding\/customer-information\//, { timeout: 15_000 });
  return { context, page, errors };
}

const backButton = (page: Page) => page.getByRole('button', { name: 'Back', exact: true });
const back = (page: Page) => Promise.all([page.waitForEvent('load'), backButton(page).click()]);

describe('continue where you left off, on any device', () => {
  it('half answered in one browser; a fresh one lands on the first unfinished step with every answer on Back; the webview signs; one prospect, nothing sent twice', async () => {
    const checks = new HtmlChecks();
    const check = async (page: Page, screen: string) => {
      await expectPhoneLayout(page, `${screen} (360 px)`);
      await expectAccessible(page, `${screen} (360 px)`);
      checks.collect(screen, await page.content());
      checks.sniffed(`${screen} (360 px)`, await codeSnifferErrors(page));
      await page.setViewportSize(DESKTOP);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen}: desktop width`).toBeLessThanOrEqual(DESKTOP.width);
      await expectAccessible(page, `${screen} (desktop)`);
      checks.sniffed(`${screen} (desktop)`, await codeSnifferErrors(page));
      await page.setViewportSize(PHONE);
    };
    const persona = await personaFor(stack.sandboxUrl, 'onboarding');

    // The first browser: up to and including citizenship, then closed.
    const first = await freshBrowser('onboarding', false);
    await answerUntil(first.page, 'TAX_INFO_STEP', firstBrowserAnswers);
    expect(first.errors).toEqual([]);
    await first.context.close();
    const [halfway] = await prospectsOf(stack.sandboxUrl, persona.nationalId);
    // Every step before tax liability (the prospect's list from GET steps) is completed, and none after it.
    const stepList = halfway!.steps.map((s) => s.stepName);
    expect(halfway!.steps.filter((s) => s.completed).map((s) => s.stepName)).toEqual(stepList.slice(0, stepList.indexOf('TAX_INFO_STEP')));

    // A fresh browser: the first unfinished step, and each answer behind Back, sending nothing.
    const second = await freshBrowser('onboarding', false);
    const { page } = second;
    expect(await currentStep(page)).toEqual({ step: 'TAX_INFO_STEP', screen: 'liability' });
    await check(page, 'tax liability, resumed');
    await back(page);
    expect((await currentStep(page)).step).toBe('CITIZENSHIP_STEP');
    expect(await page.getByRole('radio', { name: /I am only a citizen of/ }).isChecked()).toBe(true);
    await check(page, 'citizenship on Back');
    await back(page);
    expect((await currentStep(page)).step).toBe('CONTACT_INFORMATION_STEP');
    expect(await page.getByLabel('Email').inputValue()).toBe(EMAIL);
    expect(await page.getByLabel('Mobile phone number').inputValue()).toMatch(/765\s?43\s?21$/);
    await check(page, 'contact information on Back');
    // Back is disabled right after milestone two (customer-information §2.2): the accounts' names are seen on the summary below.
    expect(await backButton(page).isDisabled()).toBe(true);
    expect(second.errors).toEqual([]);
    await second.context.close();

    // The app's webview: the same step again (nothing was sent by looking back), then on to signing.
    const app = await freshBrowser('onboarding', true);
    const prospectId = /\/customer-information\/([^/?#]+)/.exec(app.page.url())![1]!;
    expect(prospectId).toBe(halfway!.prospectId);
    expect(await currentStep(app.page)).toEqual({ step: 'TAX_INFO_STEP', screen: 'liability' });
    await answerUntil(app.page, 'MILESTONE_THREE_STEP', browserAnswers);
    const summary = app.page.getByRole('region', { name: 'Check your answers before you sign' });
    await summary.waitFor();
    for (const answer of [ALIAS, EMAIL, 'What is your main occupation?']) expect(await summary.textContent()).toContain(answer);
    await check(app.page, 'check your answers, resumed in the webview');
    expect((await checks.errors()).nu).toEqual([]);
    expect((await checks.errors()).codeSniffer).toEqual([]);

    await app.page.getByRole('button', { name: 'Sign with Bank ID' }).click();
    await app.page.waitForURL(`${stack.sandboxUrl}/sandbox/signing/**`);
    // Signed, the signing service hands the webview to the app's create deep link; the app opens its path with us.
    await app.page.getByRole('button', { name: 'Sign' }).click();
    await expect.poll(async () => (await prospectsOf(stack.sandboxUrl, persona.nationalId))[0]?.signed).toBe(true);
    await app.page.goto(`${stack.webUrl}${routes.customerCreation(prospectId)}`);
    await expect.poll(() => app.page.locator('main').textContent(), { timeout: 20_000 }).toContain('Agreements signed');
    expect(app.errors).toEqual([]);
    await app.context.close();

    const prospects = await prospectsOf(stack.sandboxUrl, persona.nationalId);
    expect(prospects).toHaveLength(1);
    expect(prospects[0]).toMatchObject({ signed: true, resumed: 2 });
    for (const [step, statuses] of Object.entries(prospects[0]!.submits)) expect(statuses, `${step} sent once`).toHaveLength(1);
    expect(Object.keys(prospects[0]!.submits).sort()).toEqual([...stepList].sort());
  });
});
