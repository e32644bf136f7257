// The onboarding progress bar and the milestone card's "Step N of 3" (customer-information §2.2,
// identification-routing-creation §1, §6): one rule for both, so the two counters never disagree.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { milestoneCardStep, progressStatus, progressStepOf, type ProgressStep } from '../../shared/onboardingProgress.ts';
import { ProgressBar } from '../../views/Layout.tsx';
import { MilestoneStep } from '../../views/pages/CustomerInformationPageView.tsx';
import { supportedLocales } from '../../shared/i18n.ts';

const i18n = createI18n(loadCatalogues());

describe('the bar’s step per stage', () => {
  it.each([
    ['identification', 1],
    ['customerInformation', 2],
    ['customerCreation', 3],
    ['created', 4],
  ] as const)('%s is step %i', (stage, step) => {
    expect(progressStepOf(stage)).toBe(step);
  });

  it.each([
    [1, ['current', 'upcoming', 'upcoming']],
    [2, ['done', 'current', 'upcoming']],
    [3, ['done', 'done', 'current']],
    [4, ['done', 'done', 'done']],
  ] as const)('current step %i shows the three steps as %j', (current, statuses) => {
    expect([1, 2, 3].map((step) => progressStatus(current as ProgressStep, step))).toEqual(statuses);
  });

  it('a failed current step shows as failed, the others as before (the error feedback page)', () => {
    expect([1, 2, 3].map((step) => progressStatus(2, step, true))).toEqual(['done', 'failed', 'upcoming']);
    const html = renderToStaticMarkup(<ProgressBar t={i18n.translator('en')} current={2} failed />);
    expect(html).toContain('<li class="progress__step progress__step--failed" aria-current="step"><span>Customer Information</span>');
    expect(html).toContain('<span class="visually-hidden"> (failed)</span>');
  });

  it('the milestone card names the customer-information page’s step of the bar', () => {
    expect(milestoneCardStep()).toEqual({ number: 2, name: 'shell.progress.customerInformation' });
  });
});

/** The bar's current step as the page shows it: its position and its name. */
function barCurrent(html: string): { number: number; name: string } {
  const items = [...html.matchAll(/<li class="progress__step[^"]*"( aria-current="step")?><span>([^<]*)<\/span>/g)];
  const at = items.findIndex((m) => m[1] !== undefined);
  return { number: at + 1, name: items[at]?.[2] ?? '' };
}

describe('every milestone card agrees with the bar above it, in every locale', () => {
  for (const locale of supportedLocales) {
    const t = i18n.translator(locale);
    it.each(['one', 'two', 'three'] as const)(`${locale}: milestone %s`, (milestone) => {
      const bar = barCurrent(renderToStaticMarkup(<ProgressBar t={t} current={progressStepOf('customerInformation')} />));
      const card = renderToStaticMarkup(<MilestoneStep t={t} milestone={milestone} action="/x" fields={{ step: 'MILESTONE_ONE_STEP', screen: 'milestone' }} />);
      const label = /<p class="milestone__label">([^<]*)<\/p>/.exec(card)?.[1] ?? '';
      expect(label).toBe(`${t('milestone.step', { number: bar.number })} · ${bar.name}`);
    });
  }
});
