// The PEP and INVESTMENT_RISK compliance dialogs (customer-information.md §2.3, §4.7) in real Chromium with
// axe, before the KYC questionnaire and the legacy form open them: rendered server-side into the
// customer-information page (shell, step header, FAQ panel, the built stylesheet and islands) as the no-JS
// screen, and as modals opened over the page; every compliance dialog as a modal on a 360×740 phone shows when it
// scrolls (tests/support/layoutChecks.ts) with its actions in view.
import { describe, expect, it } from 'vitest';
import { Dialog, ModalDialog, type DialogProps } from '../../views/components/Dialog.tsx';
import { complianceDialogProps } from '../../views/components/ComplianceDialog.tsx';
import { pepDialog } from '../../views/pages/KycStepView.tsx';
import { expectAccessible } from '../support/journey.ts';
import { PHONE } from '../support/e2e.ts';
import { dialogScrollCues, expectNoLayoutProblems } from '../support/layoutChecks.ts';
import { BASE, customerInformationPage as renderedPage, openRendered, t, renderedPagesStage } from '../support/renderedPages.tsx';
import type { ReactElement } from 'react';
import type { Page } from 'playwright-core';

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

const stage = renderedPagesStage();
const customerInformationPage = (body: ReactElement) => renderedPage(stage.manifest, body);
/** Opens the modal `id` as the island does (showModal); polled, since the island hydrates after load. */
const openModal = (page: Page, id: string) =>
  expect
    .poll(() =>
      page.evaluate((dialogId) => {
        document.dispatchEvent(new CustomEvent('dialog:open', { detail: { id: dialogId } }));
        return (document.getElementById(dialogId) as HTMLDialogElement).open;
      }, id),
    )
    .toBe(true);
const open = (html: string, pathname: string, viewport?: typeof PHONE) => openRendered(stage.browser, html, pathname, viewport ? { viewport } : {});

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
      await openModal(page, props.id);
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

  it('every compliance dialog as a modal at 360×740: a scroll cue while it holds more than it shows, its actions in view', async () => {
    const manualFormBase = 'https://forms.example.com/additional-information';
    const target = { action: `${BASE}/step` };
    const all: DialogProps[] = [
      // The KYC step's own PEP dialog, its help (who counts as politically exposed) included.
      pepDialog(t, { action: `${BASE}/step`, fields: { step: 'KYC_STEP', screen: 'page-1' }, market: 'SE', manualFormBase }),
      dialogs.INVESTMENT_RISK,
      ...(['FATCA', 'CITIZENSHIP', 'RESIDENCY'] as const).map((type) =>
        complianceDialogProps(t, type, {
          id: `${type.toLowerCase()}-dialog`,
          primary: target,
          secondary: target,
          manualFormBase,
          values: { country: 'Germany', countryCode: 'SE' },
        }),
      ),
    ];
    const { page, errors } = await open(
      customerInformationPage(
        <>
          {all.map((props) => (
            <ModalDialog key={props.id} {...props} />
          ))}
        </>,
      ),
      '/phone',
      PHONE,
    );
    let clipped = 0;
    for (const props of all) {
      const dialog = page.getByRole('dialog', { name: props.title });
      await openModal(page, props.id);
      // With its help open, the PEP dialog is taller than the phone.
      if (props.details) await dialog.getByText(props.details.summary).click();
      expectNoLayoutProblems(`${props.id} at its top`, await dialogScrollCues(page));
      clipped += await dialog.locator('.dialog__body').evaluate((el) => Number(el.scrollHeight > el.clientHeight));
      await dialog.evaluate((el) => el.scrollTo({ top: el.scrollHeight, behavior: 'instant' }));
      expectNoLayoutProblems(`${props.id} at its end`, await dialogScrollCues(page));
      await expectAccessible(page, `${props.id} modal at 360×740`);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.isVisible()).toBe(false);
    }
    // The case the cue is for: at least one dialog runs on below the screen.
    expect(clipped).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
