// The step machine's pure rules (customer-information.md §2.2, §4.1): flags, back, progress.
import { describe, expect, it } from 'vitest';
import type { StepId } from '../../shared/contracts/brokerage.ts';
import { applyStepFlags, canGoBack, progressPercent, stepPoints } from '../../shared/customerInformationSteps.ts';

const server: StepId[] = [
  'MILESTONE_ONE_STEP',
  'ACCOUNT_PICKER_STEP',
  'ACCOUNT_ALIAS_STEP',
  'MILESTONE_TWO_STEP',
  'CONTACT_INFORMATION_STEP',
  'CITIZENSHIP_STEP',
  'RESIDENCY_STEP',
  'TAX_INFO_STEP',
  'KYC_STEP',
  'MILESTONE_THREE_STEP',
];

describe('applyStepFlags (customer-information §4.1)', () => {
  it.each([
    { flags: { kyc: true, residency: true }, expected: server },
    { flags: { kyc: true, residency: false }, expected: server.filter((s) => s !== 'RESIDENCY_STEP') },
    {
      flags: { kyc: false, residency: true },
      expected: [
        'ACCOUNT_PICKER_STEP',
        'ACCOUNT_ALIAS_STEP',
        'CONTACT_INFORMATION_STEP',
        'CITIZENSHIP_STEP',
        'RESIDENCY_STEP',
        'TAX_INFO_STEP',
        'EXISTING_STEP',
      ],
    },
    {
      flags: { kyc: false, residency: false },
      expected: ['ACCOUNT_PICKER_STEP', 'ACCOUNT_ALIAS_STEP', 'CONTACT_INFORMATION_STEP', 'CITIZENSHIP_STEP', 'TAX_INFO_STEP', 'EXISTING_STEP'],
    },
  ])('kyc=$flags.kyc residency=$flags.residency', ({ flags, expected }) => {
    expect(applyStepFlags(server, flags)).toEqual(expected);
  });

  it('appends the legacy step only once', () => {
    expect(applyStepFlags(['EXISTING_STEP'], { kyc: false, residency: true })).toEqual(['EXISTING_STEP']);
  });
});

describe('no step is left out for want of a screen (issue: KYC was skipped)', () => {
  // The list the page walks is the flagged list itself: a step this build cannot show stays in it, and
  // the page logs it and shows the try-again banner there (tests/http/kyc.test.ts), instead of every
  // prospect silently skipping it (as KYC_STEP once was).
  it.each([
    { flags: { kyc: true, residency: true }, kept: ['KYC_STEP', 'MILESTONE_THREE_STEP'] as StepId[] },
    { flags: { kyc: false, residency: true }, kept: ['EXISTING_STEP'] as StepId[] },
  ])('kyc=$flags.kyc keeps $kept', ({ flags, kept }) => {
    const steps = applyStepFlags(server, flags);
    for (const step of kept) expect(steps).toContain(step);
  });
});

describe('back and progress (customer-information §2.2)', () => {
  it.each([
    { current: 0, back: false },
    { current: 1, back: false }, // right after milestone one
    { current: 2, back: true },
    { current: 4, back: false }, // right after milestone two
    { current: 5, back: true },
    { current: 8, back: true }, // KYC, after tax information
    { current: 9, back: false }, // right after the KYC step: its answers are submitted
  ])('back on step $current: $back', ({ current, back }) => {
    expect(canGoBack(server, current)).toBe(back);
  });

  it('counts 3 per step, KYC 27 extra, milestone three 3 fewer', () => {
    expect(server.map(stepPoints)).toEqual([3, 3, 3, 3, 3, 3, 3, 3, 30, 0]);
    const total = 3 * 8 + 30;
    expect(progressPercent(server, 0)).toBe(0);
    expect(progressPercent(server, 4)).toBe(Math.round((12 / total) * 100));
    expect(progressPercent(server, 9)).toBe(100);
    expect(progressPercent([], 0)).toBe(0);
  });

  it.each([
    { into: 0, done: 24 },
    { into: 15, done: 39 },
    { into: 30, done: 54 },
    { into: 99, done: 54 }, // never more than the step's own points
    { into: -5, done: 24 },
  ])('the KYC step adds the points of its pages: $into into it', ({ into, done }) => {
    expect(progressPercent(server, 8, into)).toBe(Math.round((done / 54) * 100));
  });
});
