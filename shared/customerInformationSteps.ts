// The customer-information step machine's pure rules (customer-information.md §2.2 and §4.1).
import type { StepId } from './contracts/brokerage.ts';

const milestones: ReadonlySet<StepId> = new Set(['MILESTONE_ONE_STEP', 'MILESTONE_TWO_STEP', 'MILESTONE_THREE_STEP']);

export function isMilestone(step: StepId): boolean {
  return milestones.has(step);
}

/** Back is disabled on the first step and right after a milestone. */
export function canGoBack(steps: readonly StepId[], current: number): boolean {
  if (current <= 0) return false;
  return !isMilestone(steps[current - 1]!);
}

/** Progress points: 3 per step, the KYC step 27 extra, milestone three 3 fewer. */
export function stepPoints(step: StepId): number {
  if (step === 'KYC_STEP') return 30;
  if (step === 'MILESTONE_THREE_STEP') return 0;
  return 3;
}

export function progressPercent(steps: readonly StepId[], current: number): number {
  const total = steps.reduce((sum, s) => sum + stepPoints(s), 0);
  if (total === 0) return 0;
  const done = steps.slice(0, current).reduce((sum, s) => sum + stepPoints(s), 0);
  return Math.min(100, Math.round((done / total) * 100));
}

export interface StepFlags {
  kyc: boolean;
  residency: boolean;
}

/** Filters the server's initialSteps by the feature flags (customer-information §4.1). */
export function applyStepFlags(initialSteps: readonly StepId[], flags: StepFlags): StepId[] {
  let steps = [...initialSteps];
  if (!flags.kyc) {
    steps = steps.filter((s) => !isMilestone(s) && s !== 'KYC_STEP');
    if (!steps.includes('EXISTING_STEP')) steps.push('EXISTING_STEP');
  }
  if (!flags.residency) steps = steps.filter((s) => s !== 'RESIDENCY_STEP');
  return steps;
}

/**
 * The steps this prospect walks: the flagged list, without steps this build has no screen for. The legacy
 * single form cannot be skipped like a step (it holds the signing), so a list that needs it and has no
 * screen for it comes back empty: the page then offers the external form.
 */
export function journeySteps(initialSteps: readonly StepId[], flags: StepFlags, implemented: ReadonlySet<StepId>): StepId[] {
  const steps = applyStepFlags(initialSteps, flags);
  if (steps.includes('EXISTING_STEP') && !implemented.has('EXISTING_STEP')) return [];
  return steps.filter((s) => implemented.has(s));
}
