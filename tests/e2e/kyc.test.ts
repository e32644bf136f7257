// The KYC questionnaire in real Chromium (customer-information §2.3, §4.6, §4.7, §5 "KYC", §9), on a phone and a
// desktop, with and without JavaScript, axe on every screen: the question pages in their three renderings, the help,
// multiple choice's disabled Continue and "Choose alternative", single choice advancing at once, the PEP dialog sending no,
// the loader with its slow text and the error's Try again, "We need more information from you", and the question
// island taking a choice made before it ran.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, expectPhoneLayout, identifyAs, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import request from 'supertest';
import { expectAccessible, expectAccessibleWithoutJs, identifyOverHttp, postStep } from '../support/journey.ts';
import { agentCookies } from '../support/agentCookies.ts';
import { browserAnswers, currentStep, httpAnswerOf, pastKycLoader } from '../support/customerInformation.ts';
import { kycReadOut } from '../support/kycSandbox.ts';
import { expectIslandsHydrated, reloadWithScriptHeld } from '../support/clientBuild.ts';
import { PEP_NO, PEP_QUESTION, PEP_YES, privateQuestionOrder } from '../../shared/contracts/kycContract.ts';

// kycBusyForever's 60 starts 200 ms apart hold the loader for 12 s, well past its slow text after 1 s (10 s in
// production) and the checks of it however slowly a busy machine gets there.
useE2eStack({ env: { KYC_START_INTERVAL_MS: '200', KYC_LOADER_SLOW_AFTER_MS: '1000' } });

const DESKTOP = { width: 1280, height: 800 };
const PEP_DIALOG = 'You answered that you are a politically exposed person';

const readOut = async (page: Page) => {
  const prospectId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  return kycReadOut(stack.sandboxUrl, prospectId);
};

const notLoading = (page: Page) => page.locator('[data-step]:not([data-screen="loader"])').waitFor({ timeout: 30_000 });
const shownQuestion = async (page: Page) => Number((await page.locator('[name^="answer-"]').first().getAttribute('name'))!.slice('answer-'.length));
const posted = (page: Page, action: () => Promise<unknown>) => Promise.all([page.waitForEvent('load'), action()]);
const enhanced = (page: Page) => page.evaluate(() => performance.getEntriesByName('island:kycQuestion').length);

/** Walks the questionnaire with JavaScript, trying each enhancement on the page it belongs to. */
async function walkWithJavaScript(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await identifyAs(page, 'kyc');
  const seen: number[] = [];
  for (;;) {
    await notLoading(page);
    const { step, screen } = await currentStep(page);
    if (step !== 'KYC_STEP') break;
    expect(screen).toBe('question');
    const id = await shownQuestion(page);
    seen.push(id);
    await expectAccessible(page, `KYC ${id} ${viewport.width}px`);
    // WCAG 3.2.2: the person is told a choice moves on.
    await expect.poll(() => page.getByText('Choosing an answer takes you straight to the next question.').isVisible()).toBe(id !== 86);

    if (id === privateQuestionOrder[0]) {
      // Help: a modal instead of the disclosure; a bottom sheet on a phone, centred on a desktop.
      await page.getByText('Read more', { exact: true }).first().click();
      const sheet = page.locator('dialog.help-sheet[open]');
      await sheet.waitFor();
      // Measured where it settles (a phone's sheet slides up).
      await sheet.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
      const box = (await sheet.boundingBox())!;
      if (viewport === PHONE) {
        expect(Math.round(box.y + box.height)).toBe(viewport.height);
        expect(Math.round(box.width)).toBe(viewport.width);
      } else {
        expect(box.y).toBeGreaterThan(0);
        expect(box.y + box.height).toBeLessThan(viewport.height);
        expect(box.width).toBeLessThan(viewport.width / 2);
      }
      await expectAccessible(page, `KYC help ${viewport.width}px`);
      await sheet.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => page.locator('dialog.help-sheet[open]').count()).toBe(0);
      // The dropdown: choosing advances at once.
      const select = page.locator(`select[name="answer-${id}"]`);
      await posted(page, () => select.selectOption({ index: 1 }));
      continue;
    }
    if (id === 86) {
      // Multiple choice: Continue disabled until something is chosen; untouched again → "Choose alternative".
      const continueButton = page.getByRole('button', { name: 'Continue', exact: true });
      await expect.poll(() => continueButton.isDisabled()).toBe(true);
      const first = page.locator('input[name="answer-86"]').first();
      const label = page.locator(`label[for="${await first.getAttribute('id')}"]`);
      await label.click();
      await expect.poll(() => continueButton.isDisabled()).toBe(false);
      await label.click();
      await expect.poll(() => continueButton.isDisabled()).toBe(true);
      await expect.poll(() => page.locator('#answer-86-error').textContent()).toBe('Choose alternative');
      await expectAccessible(page, `KYC multiple choice, choose alternative ${viewport.width}px`);
      await label.click();
      await posted(page, () => continueButton.click());
      continue;
    }
    if (id === PEP_QUESTION) {
      // Yes asks first: the PEP modal over the page (nothing posted), with its help lists.
      await page.locator(`label[for="answer-${PEP_QUESTION}-${PEP_YES}"]`).click();
      const modal = page.getByRole('dialog', { name: PEP_DIALOG });
      await modal.waitFor();
      await modal.getByText('Who counts as a politically exposed person?').click();
      // Sweden: 8 public functions (Finland's 10 in tests/unit/kycViews.test.tsx).
      await expect.poll(() => modal.locator('.dialog__details ul').first().locator('li').count()).toBe(8);
      await expectAccessible(page, `PEP dialog ${viewport.width}px`);
      // Both answers within reach with the help open, on the phone as on the desktop (at 360×740 the
      // second was below the fold).
      await expectPhoneLayout(page, `PEP dialog ${viewport.width}px`);
      await expect.poll(() => modal.getByRole('button', { name: 'I am not a politically exposed person' }).isVisible()).toBe(true);
      const before = (await readOut(page)).nextCalls;
      await posted(page, () => modal.getByRole('button', { name: 'I am not a politically exposed person' }).click());
      const calls = await readOut(page);
      expect(calls.nextCalls).toBe(before + 1);
      expect(calls.answers[PEP_QUESTION]).toEqual([PEP_NO]);
      continue;
    }
    // Radios and the other dropdowns: the walk's own answer, which advances at once.
    await posted(page, () => browserAnswers.KYC_STEP!(page, 'question'));
  }
  expect(seen).toEqual([...privateQuestionOrder]);
  expect((await currentStep(page)).step).toBe('MILESTONE_THREE_STEP');
  expect((await readOut(page)).submitted).toBe(true);
  expect(errors).toEqual([]);
  await context.close();
}

describe('KYC questionnaire in Chromium', () => {
  it('with JavaScript on a phone (360×740): every question, the help bottom sheet, multiple choice, the PEP modal', async () => {
    await walkWithJavaScript(PHONE);
  }, 120_000);

  it('with JavaScript on a desktop: the help as a centred modal, the same walk', async () => {
    await walkWithJavaScript(DESKTOP);
  }, 120_000);

  it('without JavaScript (360×740): plain forms with Continue, the help as a disclosure, the PEP dialog as its own screen', async () => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const axeContext = await browser.newContext({ viewport: PHONE });
    const axePage = await axeContext.newPage();
    const page = await context.newPage();
    await identifyAs(page, 'kyc');
    for (;;) {
      await notLoading(page);
      const { step, screen } = await currentStep(page);
      if (step !== 'KYC_STEP') break;
      await expectAccessibleWithoutJs(page, axePage, `KYC ${screen}`);
      if (screen === 'pep') {
        await posted(page, () => page.getByRole('button', { name: 'I am not a politically exposed person' }).click());
        expect((await readOut(page)).answers[PEP_QUESTION]).toEqual([PEP_NO]);
        continue;
      }
      const id = await shownQuestion(page);
      if (id === privateQuestionOrder[0]) {
        // Unanswered: the summary and the message at the question.
        await posted(page, () => page.getByRole('button', { name: 'Continue', exact: true }).click());
        await expect.poll(() => page.locator('.error-summary a').textContent()).toBe('Choose alternative');
        await expectAccessibleWithoutJs(page, axePage, 'KYC unanswered');
        // The help is a disclosure.
        await page.getByText('Read more', { exact: true }).first().click();
        await expect.poll(() => page.locator('details.kyc-help[open] p').first().isVisible()).toBe(true);
      }
      if (id === PEP_QUESTION) {
        await page.locator(`label[for="answer-${PEP_QUESTION}-${PEP_YES}"]`).click();
        await posted(page, () => page.getByRole('button', { name: 'Continue', exact: true }).click());
        expect(await page.locator('h1').first().textContent()).toBe(PEP_DIALOG);
        continue;
      }
      await posted(page, () => browserAnswers.KYC_STEP!(page, 'question'));
    }
    expect((await currentStep(page)).step).toBe('MILESTONE_THREE_STEP');
    expect((await readOut(page)).submitted).toBe(true);
    await axeContext.close();
    await context.close();
  }, 120_000);

  it('the question page hydrates its island, and a choice made before its script ran counts', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await identifyAs(page, 'kyc');
    await notLoading(page);
    const id = await shownQuestion(page);
    expect(id).toBe(privateQuestionOrder[0]);
    await expectIslandsHydrated(page, ['kycQuestion', 'dialog']);

    // The page again, its question's script held back until the person has chosen.
    const release = await reloadWithScriptHeld(page, 'kycQuestion');
    const select = page.locator(`select[name="answer-${id}"]`);
    await select.selectOption({ index: 2 });
    const chosen = await select.inputValue();
    expect(await enhanced(page)).toBe(0);
    release();
    await expect.poll(() => enhanced(page)).toBe(1);
    await expect.poll(() => page.getByText('Choosing an answer takes you straight to the next question.').isVisible()).toBe(true);
    // The choice is the answer: kept, and Continue posts it.
    expect(await select.inputValue()).toBe(chosen);
    await posted(page, () => page.getByRole('button', { name: 'Continue', exact: true }).click());
    await notLoading(page);
    expect(await shownQuestion(page)).toBe(privateQuestionOrder[1]);
    expect((await readOut(page)).answers[id]).toEqual([Number(chosen)]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('the loader (logo, no Back, the slow text) and, after the last start, the error with Try again; on a phone and a desktop', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await identifyAs(page, 'kycBusyForever');
      expect(await currentStep(page)).toEqual({ step: 'KYC_STEP', screen: 'loader' });
      await expect.poll(() => page.getByRole('status').textContent()).toContain('Preparing your questions…');
      expect(await page.locator('.step-header__logo').count()).toBe(1);
      expect(await page.locator('.step-header progress').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Back' }).isDisabled()).toBe(true);
      await expect.poll(() => page.getByRole('status').textContent(), { timeout: 5_000 }).toContain('This is taking longer than expected...');
      await expectAccessible(page, `KYC loader ${viewport.width}px`);
      // The island reloads once the run has ended in the error (60 starts).
      await page.locator('[data-screen="failed"]').waitFor({ timeout: 30_000 });
      await expectAccessible(page, `KYC failed ${viewport.width}px`);
      await posted(page, () => page.getByRole('button', { name: 'Try again' }).click());
      expect((await currentStep(page)).screen).toBe('loader');
      await context.close();
    }
  }, 120_000);

  it('more information required: the screen with its link to the signing service, on a phone', async () => {
    // The questions answered over HTTP (the walks above answer them in the browser), the screen then opened in it.
    const agent = request.agent(stack.webUrl);
    const { page: path } = await identifyOverHttp(agent, stack.sandboxUrl, 'kycMoreInformation');
    for (;;) {
      const { html, shown } = await pastKycLoader(agent, path);
      if (shown[1] !== 'question') break;
      const answer = httpAnswerOf('KYC_STEP', 'question', html);
      if (typeof answer !== 'string') throw new Error('a KYC page answered with an upload');
      await postStep(agent, path, answer).expect(303);
    }
    const context = await browser.newContext({ viewport: PHONE });
    await context.addCookies(agentCookies(agent, stack.webUrl));
    const page = await context.newPage();
    await page.goto(`${stack.webUrl}${path}`);
    expect(await currentStep(page)).toEqual({ step: 'KYC_STEP', screen: 'moreInformation' });
    expect(await page.locator('h1').first().textContent()).toBe('We need more information from you');
    expect(await page.getByRole('link', { name: 'Provide more information' }).getAttribute('href')).toBe('https://sign.example.com/more-information');
    await expectAccessible(page, 'KYC more information');
    await context.close();
  }, 120_000);
});
