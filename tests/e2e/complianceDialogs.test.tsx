// The PEP and INVESTMENT_RISK compliance dialogs (customer-information.md §2.3, §4.7) in real Chromium with
// axe, before the KYC questionnaire and the legacy form open them: rendered server-side into the
// customer-information page (shell, step header, FAQ panel, the built stylesheet and islands) as the no-JS
// screen, and as modals opened over the page.
import path from 'node:path';
import type { ReactElement } from 'react';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage, type Manifest } from '../../server/render.tsx';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { MAX_USP_ITEMS, signupImageFor, visibleUsps } from '../../shared/shell.ts';
import { Layout } from '../../views/Layout.tsx';
import { StepHeaderBar } from '../../views/pages/CustomerInformationPageView.tsx';
import { FaqPanel } from '../../views/components/FaqPanel.tsx';
import { Dialog, ModalDialog, type DialogProps } from '../../views/components/Dialog.tsx';
import { complianceDialogProps } from '../../views/components/ComplianceDialog.tsx';
import { collectPageErrors, launchChromium } from '../support/browser.ts';
import { clientBuildManifest } from '../support/clientBuild.ts';
import { expectAccessible } from '../support/journey.ts';

const root = path.resolve(import.meta.dirname, '../..');
const ORIGIN = 'http://bank.test';
const BASE = `${ORIGIN}/onboarding/customer-information/p-1`;
const t = createI18n(loadCatalogues()).translator('en');

const dialogs: Record<'PEP' | 'INVESTMENT_RISK', DialogProps> = {
  PEP: complianceDialogProps(t, 'PEP', {
    id: 'pep-dialog',
    primary: { action: `${BASE}/step`, fields: { step: 'KYC_STEP', intent: 'resetPep' } },
    secondary: { action: `${BASE}/step`, fields: { step: 'KYC_STEP', intent: 'cancel' } },
    manualFormBase: 'https://forms.example.com/additional-information',
  }),
  INVESTMENT_RISK: complianceDialogProps(t, 'INVESTMENT_RISK', {
    id: 'investment-risk-dialog',
    primary: { action: `${BASE}/step`, fields: { step: 'EXISTING_STEP', intent: 'acceptRisk' } },
    secondary: { action: `${BASE}/step`, fields: { step: 'EXISTING_STEP', intent: 'cancel' } },
  }),
};

let manifest: Manifest;
let browser: Browser;

/** The page as server/stages/customerInformation/customerInformationPage.tsx sends it, with `body` as the step's view. */
function customerInformationPage(body: ReactElement): string {
  const shell = {
    t,
    supportPhone: '+46 8 123 456 00',
    faqUrl: `${ORIGIN}/faq`,
    homeUrl: '/',
    closeUrl: '/',
    signupImage: signupImageFor(undefined),
    usps: visibleUsps(Array.from({ length: MAX_USP_ITEMS }, (_, i) => t(`shell.usp.${i + 1}`))),
  };
  const header = { backAction: `${BASE}/back`, exitUrl: `${BASE}/exit`, continueUrl: BASE, progressPercent: 40 };
  return renderPage({
    manifest,
    nonce: 'n0nce',
    locale: 'en',
    title: t('meta.title'),
    description: t('meta.description'),
    canonicalUrl: `${ORIGIN}/onboarding`,
    body: (
      <Layout shell={shell} progress={2}>
        <StepHeaderBar t={t} header={header} />
        <div className="step">{body}</div>
        <FaqPanel t={t} faqUrl={shell.faqUrl} country="SE" />
      </Layout>
    ),
  });
}

/** A page in Chromium serving the rendered HTML at `path`, and the built assets from public/. */
async function open(html: string, pathname: string): Promise<{ page: Page; errors: string[] }> {
  // axe needs a page of its own context.
  const page = await (await browser.newContext()).newPage();
  const errors = collectPageErrors(page);
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === pathname) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    if (/^\/(build|images)\/[\w.-]+$/.test(url.pathname)) return route.fulfill({ path: path.join(root, 'public', url.pathname) });
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${ORIGIN}${pathname}`);
  return { page, errors };
}

beforeAll(async () => {
  manifest = clientBuildManifest();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('PEP and INVESTMENT_RISK dialogs in Chromium', () => {
  it.each(['PEP', 'INVESTMENT_RISK'] as const)('%s as its own screen (no JavaScript needed)', async (type) => {
    const props = dialogs[type];
    const { page, errors } = await open(customerInformationPage(<Dialog {...props} />), '/screen');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(props.title);
    expect(await page.getByRole('button', { name: props.primary.label }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: props.secondary.label }).isVisible()).toBe(true);
    await expectAccessible(page, `${type} screen`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('both as modals over the page: opened, checked, closed by Esc', async () => {
    const html = customerInformationPage(
      <>
        <ModalDialog {...dialogs.PEP} />
        <ModalDialog {...dialogs.INVESTMENT_RISK} />
      </>,
    );
    const { page, errors } = await open(html, '/modal');
    for (const [type, props] of Object.entries(dialogs)) {
      const dialog = page.getByRole('dialog', { name: props.title });
      expect(await dialog.isVisible()).toBe(false);
      // The island's own opening (showModal); polled, since the island hydrates after load.
      await expect
        .poll(() =>
          page.evaluate((id) => {
            document.dispatchEvent(new CustomEvent('dialog:open', { detail: { id } }));
            return (document.getElementById(id) as HTMLDialogElement).open;
          }, props.id),
        )
        .toBe(true);
      await dialog.waitFor();
      expect(await page.evaluate((id) => document.getElementById(id)!.matches(':modal'), props.id)).toBe(true);
      // PEP links to the manual form (exit=PEP); the risk acknowledgement has none.
      expect(await dialog.locator(`a[href*="exit=${type}"]`).count()).toBe(type === 'PEP' ? 1 : 0);
      await expectAccessible(page, `${type} modal`);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.isVisible()).toBe(false);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
