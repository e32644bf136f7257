// The KYC question page's island (views/components/KycQuestionForm.tsx, customer-information §2.3, §4.7) on the
// server's markup, in Chromium at 360×740 and 1280×800 with axe: what tests/e2e/kyc.test.ts does not reach. A page shown
// again after a refused post: its summary and message go while the question is answered and come back when it is not;
// keys browsing the dropdown choose nothing until Enter, which posts. PEP yes asks first: Cancel leaves it unanswered
// with "Choose alternative", the primary action posts no.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { KycQuestionScreen, pepDialog, type KycQuestionView } from '../../views/pages/KycStepView.tsx';
import { expectAccessible } from '../support/journey.ts';
import { BASE, customerInformationPage, openRendered, t, renderedPagesStage } from '../support/renderedPages.tsx';

const SIZES = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
];
const PAGE = '/onboarding/customer-information/p-1';
const ACTION = `${BASE}/step`;
const fields = { step: 'KYC_STEP', screen: 'question' };
const PEP = { dialogId: 'pep-dialog', questionId: 223, yes: 222, no: 223 };

const stage = renderedPagesStage();

/** A question as the server's view gets it: nothing chosen, no help, no message unless `q` says otherwise. */
const question = (
  id: number,
  text: string,
  control: KycQuestionView['control'],
  answers: [number, string][],
  q: Partial<KycQuestionView>,
): KycQuestionView => ({
  id,
  text,
  control,
  options: answers.map(([answerId, answer]) => ({ id: answerId, text: answer })),
  helpText: null,
  chosen: [],
  error: null,
  ...q,
});
const dropdown = (q: Partial<KycQuestionView>) =>
  question(
    11,
    'How much will you invest each year?',
    'select',
    [
      [1, 'Less than 100,000'],
      [2, '100,000 – 1,000,000'],
      [3, 'More than 1,000,000'],
    ],
    q,
  );
const pepQuestion = (q: Partial<KycQuestionView>) =>
  question(
    PEP.questionId,
    'Are you a politically exposed person?',
    'radios',
    [
      [PEP.yes, 'Yes'],
      [PEP.no, 'No'],
    ],
    q,
  );

/** The page in Chromium, and the bodies of the posts it made. */
async function openPage(questions: KycQuestionView[], viewport: { width: number; height: number }) {
  const body = (
    <KycQuestionScreen
      t={t}
      action={ACTION}
      fields={fields}
      pageKey="run-1:page-3"
      title="Your investments"
      questions={questions}
      pep={{
        ...PEP,
        dialog: pepDialog(t, { action: ACTION, fields: { ...fields, screen: 'pep' }, market: 'SE', manualFormBase: 'https://forms.example.com' }),
      }}
    />
  );
  const posts: URLSearchParams[] = [];
  const { page, errors } = await openRendered(stage.browser, customerInformationPage(stage.manifest, body), PAGE, {
    viewport,
    other: async (route) => {
      if (route.request().method() !== 'POST') return route.fulfill({ status: 404, body: '' });
      posts.push(new URLSearchParams(route.request().postData() ?? ''));
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Posted</title><h1>Posted</h1>' });
    },
  });
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('island:kycQuestion').length)).toBe(1);
  return { page, errors, posts };
}

const summaryLines = (page: Page) => page.locator('.error-summary li').allTextContents();

describe('the KYC question island', () => {
  it.each(SIZES)('a refused page at $width×$height: its messages follow the answer; keys browse the dropdown until Enter posts', async (viewport) => {
    const { page, errors, posts } = await openPage([dropdown({ error: t('kyc.chooseAlternative') }), pepQuestion({ chosen: [PEP.no] })], viewport);
    const select = page.locator('select[name="answer-11"]');
    expect(await summaryLines(page)).toEqual(['Choose alternative']);
    expect(await page.locator('#answer-11-error').getAttribute('role')).toBeNull();
    expect(await page.getByText(t('kyc.autoAdvance')).isVisible()).toBe(true);
    await expectAccessible(page, `KYC refused page ${viewport.width}`);

    // Keys browse the closed dropdown: each choice shows, none posts; the messages go while it is answered.
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => select.inputValue()).toBe('1');
    expect(await page.locator('.error-summary').count()).toBe(0);
    expect(await page.locator('#answer-11-error').count()).toBe(0);
    expect(await select.getAttribute('aria-invalid')).toBeNull();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => select.inputValue()).toBe('');
    expect(await summaryLines(page)).toEqual(['Choose alternative']);
    expect(await page.locator('#answer-11-error').textContent()).toBe('Choose alternative');
    expect(await select.getAttribute('aria-describedby')).toBe('answer-11-error');
    await expectAccessible(page, `KYC unanswered again ${viewport.width}`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(posts).toEqual([]);

    // Enter chooses what the keys browsed to: the page is complete, so it posts.
    await Promise.all([page.waitForURL(ACTION), page.keyboard.press('Enter')]);
    expect(posts.map((p) => [p.get('answer-11'), p.get(`answer-${PEP.questionId}`), p.get('kycPage'), p.get('screen')])).toEqual([
      ['2', String(PEP.no), 'run-1:page-3', 'question'],
    ]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it.each(SIZES)('the PEP yes at $width×$height: the modal first, Cancel leaves it unanswered, its primary action posts no', async (viewport) => {
    const { page, errors, posts } = await openPage([dropdown({ chosen: [3] }), pepQuestion({})], viewport);
    const dialog = page.getByRole('dialog', { name: t('complianceDialog.PEP.title') });
    const yes = page.getByLabel('Yes', { exact: true });
    // The radio is drawn by its card's label (styles.css .checkbox-card), as a person presses it.
    const pressYes = () => page.locator(`label[for="answer-${PEP.questionId}-${PEP.yes}"]`).click();

    await pressYes();
    await dialog.waitFor();
    expect(posts).toEqual([]);
    await dialog.getByRole('button', { name: t('complianceDialog.cancel') }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await yes.isChecked()).toBe(false);
    // Focus went into the modal and left the question: touched, and now unanswered.
    await expect.poll(() => page.locator('#answer-223-error').textContent()).toBe('Choose alternative');
    expect(await page.locator('#answer-223-error').getAttribute('role')).toBe('alert');
    await expectAccessible(page, `KYC PEP cancelled ${viewport.width}`);
    expect(posts).toEqual([]);

    await pressYes();
    await dialog.waitFor();
    await Promise.all([page.waitForURL(ACTION), dialog.getByRole('button', { name: t('complianceDialog.PEP.notPep') }).click()]);
    expect(posts.map((p) => [p.get('answer-11'), p.get(`answer-${PEP.questionId}`)])).toEqual([['3', String(PEP.no)]]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
