// The customer-information step machine's pure rules (customer-information.md §2.2 and §4.1).
import type { StepId } from './contracts/brokerage.ts';

const milestones: ReadonlySet<StepId> = new Set(['MILESTONE_ONE_STEP', 'MILESTONE_TWO_STEP', 'MILESTONE_THREE_STEP']);

export function isMilestone(step: StepId): boolean {
  return milestones.has(step);
}

/**
 * Back is disabled on the first step and right after a milestone (customer-information §2.2), and, our
 * choice, right after the KYC step: its answers are submitted to the bank by then, and a new answer
 * session would only answer 403, already answered (customer-information §4.6), and lead straight back.
 */
export function canGoBack(steps: readonly StepId[], current: number): boolean {
  if (current <= 0) return false;
  const previous = steps[current - 1]!;
  return !isMilestone(previous) && previous !== 'KYC_STEP';
}

/** Progress points: 3 per step, the KYC step 27 extra, milestone three 3 fewer. */
export function stepPoints(step: StepId): number {
  if (step === 'KYC_STEP') return 30;
  if (step === 'MILESTONE_THREE_STEP') return 0;
  return 3;
}

/** `pointsIntoStep`: what the current step has earned of its own points so far (the KYC step over its pages). */
export function progressPercent(steps: readonly StepId[], current: number, pointsIntoStep = 0): number {
  const total = steps.reduce((sum, s) => sum + stepPoints(s), 0);
  if (total === 0) return 0;
  const within = Math.max(0, Math.min(pointsIntoStep, steps[current] === undefined ? 0 : stepPoints(steps[current]!)));
  const done = steps.slice(0, current).reduce((sum, s) => sum + stepPoints(s), 0) + within;
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
