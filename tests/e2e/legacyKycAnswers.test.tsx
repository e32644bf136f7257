// The legacy form's know-your-customer and risk cards (views/components/LegacyKycAnswers.tsx, hydrated by
// client/islands/legacyFormIsland.tsx; customer-information §2.3 "Legacy single form", §4.10) on the server's markup, in
// Chromium at 360×740 and 1280×800 with axe: what the four-market walk in tests/e2e/legacyForm does not reach. An answer
// chosen before the island hydrated stays the answer when the island renders again; a sensitive answer opens its modal
// at once, Cancel keeps it, the primary action puts the harmless answer back, and the form posts what the cards show.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LegacyKycAnswers, type ChoiceField, type LegacyKycAnswersProps } from '../../views/components/LegacyKycAnswers.tsx';
import { Island } from '../../views/components/Island.tsx';
import { ModalDialog, type DialogProps } from '../../views/components/Dialog.tsx';
import { complianceDialogProps } from '../../views/components/ComplianceDialog.tsx';
import { ScreenFields } from '../../views/components/ScreenForm.tsx';
import { expectAccessible } from '../support/journey.ts';
import { BASE, customerInformationPage, openRendered, t, renderedPagesStage } from '../support/renderedPages.tsx';

const SIZES = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
];
const PAGE = '/onboarding/customer-information/p-1';
const ACTION = `${BASE}/step`;
const fields = { step: 'EXISTING_STEP', screen: 'form' };
const RISK_DIALOG = 'legacy-investmentRisk-modal';

const stage = renderedPagesStage();

const radios = (name: string, legend: string, choices: [string, string][]): ChoiceField => ({
  id: `legacy-${name}`,
  name,
  legend,
  control: 'radios',
  choices: choices.map(([value, label]) => ({ value, label })),
  chosen: [],
});

const cards: LegacyKycAnswersProps = {
  texts: { kyc: 'Know your customer', kycIntro: 'We ask by law.', risk: 'Investment risk', chooseOption: 'Choose' },
  kyc: [
    radios('residency', 'Where do you live?', [
      ['inOffice', 'In Sweden'],
      ['other', 'Elsewhere'],
    ]),
  ],
  risk: radios('investmentRisk', 'Do you understand that investing carries risk?', [
    ['yes', 'Yes'],
    ['no', 'No'],
  ]),
  watchers: [{ name: 'investmentRisk', sensitive: ['no'], resetTo: 'yes', dialogId: RISK_DIALOG }],
};

async function openPage(viewport: { width: number; height: number }) {
  const post = (intent: string) => ({ action: ACTION, fields: { ...fields, screen: 'riskDialog', intent } });
  const dialog: DialogProps = {
    ...complianceDialogProps(t, 'INVESTMENT_RISK', { id: RISK_DIALOG, values: { country: 'SE' }, primary: post('confirm'), secondary: post('cancel') }),
    closes: ['primary', 'secondary'],
  };
  const body = (
    <>
      <form method="post" action={ACTION} noValidate>
        <ScreenFields fields={fields} />
        <Island name="legacyForm" component={LegacyKycAnswers} props={cards} />
        <button type="submit" className="btn" name="intent" value="sign">
          Sign agreements
        </button>
      </form>
      <ModalDialog {...dialog} />
    </>
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
  return { page, errors, posts };
}

const hydrated = (page: Page) => page.evaluate(() => performance.getEntriesByName('island:legacyForm').length);

describe('the legacy form island', () => {
  it.each(SIZES)(
    'at $width×$height: a choice made before hydration stays; a sensitive answer asks at once, its primary action answers yes',
    async (viewport) => {
      const { page, errors, posts } = await openPage(viewport);
      const elsewhere = page.getByLabel('Elsewhere', { exact: true });
      const riskNo = page.getByLabel('No', { exact: true });
      const riskYes = page.getByLabel('Yes', { exact: true });
      const dialog = page.getByRole('dialog', { name: t('complianceDialog.INVESTMENT_RISK.title') });

      // The page again, its island's script held back while the person answers where they live.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      // Held, then served by the page's own route (openRendered serves the build from disk).
      await page.route(/\/build\/legacyForm-[\w-]+\.js$/, async (route) => {
        await held;
        await route.fallback();
      });
      await page.reload({ waitUntil: 'commit' });
      await elsewhere.check();
      expect(await hydrated(page)).toBe(0);
      release();
      await expect.poll(() => hydrated(page)).toBe(1);

      // A sensitive answer: its modal at once; Cancel keeps the answer. The island rendered again, the earlier choice stays.
      await riskNo.check();
      await dialog.waitFor();
      await expectAccessible(page, `legacy risk dialog ${viewport.width}`);
      await dialog.getByRole('button', { name: t('complianceDialog.cancel') }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);
      expect(await riskNo.isChecked()).toBe(true);
      expect(await elsewhere.isChecked()).toBe(true);

      // Again, and its primary action: the harmless answer back in the form, nothing posted meanwhile.
      await riskYes.check();
      await riskNo.check();
      await dialog.waitFor();
      await dialog.getByRole('button', { name: t('complianceDialog.INVESTMENT_RISK.confirm') }).click();
      await expect.poll(() => riskYes.isChecked()).toBe(true);
      expect(await riskNo.isChecked()).toBe(false);
      expect(posts).toEqual([]);

      await Promise.all([page.waitForURL(ACTION), page.getByRole('button', { name: 'Sign agreements' }).click()]);
      expect(posts.map((p) => [p.get('residency'), p.get('investmentRisk'), p.get('intent')])).toEqual([['other', 'yes', 'sign']]);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );
});
