// The onboarding progress bar and the milestone card's "Step N of 3": one rule for both, so they never
// disagree. The bar has three steps, Identification, Customer Information and Customer Creation,
// each with its milestone text (identification-routing-creation §1); the whole customer-information page,
// every milestone on it included, is step 2 (customer-information §2.2), customer creation step 3, and 4
// once the customer is created (identification-routing-creation §6).

export const onboardingStages = ['identification', 'customerInformation', 'customerCreation'] as const;
export type OnboardingStage = (typeof onboardingStages)[number];

/** The bar's steps in order: the step's name and its milestone text (locale keys). */
export const progressSteps = [
  { name: 'shell.progress.identification', milestone: 'shell.milestone.one' },
  { name: 'shell.progress.customerInformation', milestone: 'shell.milestone.two' },
  { name: 'shell.progress.customerCreation', milestone: 'shell.milestone.three' },
] as const;

/** The bar's current step: 1–3, or 4 once the customer is created (every step done). */
export type ProgressStep = 1 | 2 | 3 | 4;

/** `failed`: the current step, where the journey ended with an error (the error feedback page's failed flag). */
export type ProgressStatus = 'done' | 'current' | 'failed' | 'upcoming';

/** The bar's step for a stage of the journey; `created`: every step done. */
export function progressStepOf(stage: OnboardingStage | 'created'): ProgressStep {
  return stage === 'created' ? 4 : ((onboardingStages.indexOf(stage) + 1) as ProgressStep);
}

/** How the bar shows its step `step` (1–3) while `current` is the journey's step; `failed`: the journey failed there. */
export function progressStatus(current: ProgressStep, step: number, failed = false): ProgressStatus {
  if (step < current) return 'done';
  if (step === current) return failed ? 'failed' : 'current';
  return 'upcoming';
}

/** Where the bar stands on a page: its current step, and whether the journey failed there. */
export interface ProgressState {
  step: ProgressStep;
  failed: boolean;
}

/**
 * The customer-creation screen's step (identification-routing-creation §2 "Customer creation screens"): step 4 (every
 * step done) once the outcome is a success, step 3 while waiting and for every other outcome.
 */
export function creationProgressStep(severity: 'success' | 'warning' | 'error' | 'pending'): ProgressStep {
  return severity === 'success' ? 4 : 3;
}

/**
 * The feedback page's bar (identification-routing-creation §2 "Customer creation screens"): the cancel variant at step
 * 3, the error variant at step 2 shown with the failed flag.
 */
export const feedbackProgress: Record<'cancel' | 'error', ProgressState> = {
  cancel: { step: 3, failed: false },
  error: { step: 2, failed: true },
};

/**
 * What a milestone card says of where the person is: the bar's current step and that step's name ("Step 2 of
 * 3 · Customer Information"), whichever milestone the card shows. Our choice where the specs are silent: the
 * card used to count the milestones themselves with the milestone labels, which the bar shows under its own
 * steps, so "Step 1 of 3 · Set up your account" stood under a bar whose "Set up your account" was done.
 */
export function milestoneCardStep(stage: OnboardingStage = 'customerInformation'): { number: ProgressStep; name: string } {
  const number = progressStepOf(stage);
  return { number, name: progressSteps[number - 1]!.name };
}
