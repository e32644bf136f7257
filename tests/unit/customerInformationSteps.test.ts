// The step machine's pure rules (customer-information.md §2.2, §4.1): flags, back, progress.
import { describe, expect, it } from 'vitest';
import type { StepId } from '../../shared/contracts/brokerage.ts';
import { applyStepFlags, canGoBack, journeySteps, progressPercent, stepPoints } from '../../shared/customerInformationSteps.ts';

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

describe('journeySteps', () => {
  const all = new Set<StepId>([...server, 'EXISTING_STEP']);
  const withoutKycAndLegacy = new Set<StepId>(server.filter((s) => s !== 'KYC_STEP'));
  it.each([
    { name: 'every step has a screen', flags: { kyc: true, residency: true }, implemented: all, expected: server },
    {
      name: 'a step without a screen is left out',
      flags: { kyc: true, residency: true },
      implemented: withoutKycAndLegacy,
      expected: server.filter((s) => s !== 'KYC_STEP'),
    },
    { name: 'the legacy form without a screen empties the list', flags: { kyc: false, residency: true }, implemented: withoutKycAndLegacy, expected: [] },
    {
      name: 'the legacy form with a screen',
      flags: { kyc: false, residency: false },
      implemented: all,
      expected: applyStepFlags(server, { kyc: false, residency: false }),
    },
  ])('$name', ({ flags, implemented, expected }) => {
    expect(journeySteps(server, flags, implemented)).toEqual(expected);
  });
});

describe('back and progress (customer-information §2.2)', () => {
  it.each([
    { current: 0, back: false },
    { current: 1, back: false }, // right after milestone one
    { current: 2, back: true },
    { current: 4, back: false }, // right after milestone two
    { current: 5, back: true },
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
});
