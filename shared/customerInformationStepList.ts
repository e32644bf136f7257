// The customer-information step machine's pure rules (customer-information.md §2.2 and §4.1).
import type { StepId } from './contracts/brokerageContract.ts';

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

/**
 * customer-information §2.1: the legacy single form (EXISTING_STEP) is selected by a flag or by the query
 * parameter shouldUseLegacyFlow. It asks everything the steps would, so it replaces the current step and
 * every later one; the steps before it stay for Back. Already at it: unchanged.
 */
export function withLegacyForm(steps: readonly StepId[], current: number): { steps: StepId[]; current: number } {
  const at = Math.max(0, Math.min(current, steps.length));
  if (steps[at] === 'EXISTING_STEP') return { steps: [...steps], current: at };
  return { steps: [...steps.slice(0, at), 'EXISTING_STEP'], current: at };
}

// --- "Check your answers" on milestone three (WCAG 2.2 SC 3.3.4) -------------------------------------------
// Milestone three shows what the person gave, each section with a Change that re-enters its step; once
// that step is finished (or left by Back from its first screen) the person returns to the summary instead
// of walking the following steps again. The machine (shared/pageMachine.ts) applies
// these rules to the session; `returnTo` is the summary's step index kept while a change runs.

/**
 * Whether the summary at `current` may send the person back to `target` to change it: an earlier step of
 * the list that asks something. Not the KYC step (its answers are submitted to the bank and it cannot be
 * re-entered), not a milestone, not the legacy form. Answers the target's index, or null (refused).
 */
export function changeTarget(steps: readonly StepId[], current: number, target: string): number | null {
  const at = steps.indexOf(target as StepId);
  if (at < 0 || at >= current || current >= steps.length) return null;
  const step = steps[at]!;
  if (step === 'KYC_STEP' || step === 'EXISTING_STEP' || isMilestone(step)) return null;
  return at;
}

/** A kept return index still means something: a later step than the current one, within the list. */
function returnIndex(steps: readonly StepId[], current: number, returnTo: number | undefined): number | null {
  return returnTo !== undefined && Number.isInteger(returnTo) && returnTo > current && returnTo < steps.length ? returnTo : null;
}

/** The step after `current` is finished: back to the summary while a change runs, else the next one (never past the last). */
export function stepAfter(steps: readonly StepId[], current: number, returnTo?: number): number {
  return returnIndex(steps, current, returnTo) ?? Math.min(current + 1, Math.max(steps.length - 1, 0));
}

/**
 * Where Back goes once it leaves the step (no visited screen left in it): back to the summary while a
 * change runs, else the previous step when Back is allowed there (canGoBack), else nowhere (null).
 */
export function stepBefore(steps: readonly StepId[], current: number, returnTo?: number): number | null {
  const back = returnIndex(steps, current, returnTo);
  if (back !== null) return back;
  return canGoBack(steps, current) ? current - 1 : null;
}
