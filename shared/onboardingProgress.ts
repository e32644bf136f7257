// The onboarding progress bar and the milestone card's "Step N of 3": one rule for both, so they never
// disagree (issue 18). The bar has three steps, Identification, Customer Information and Customer Creation,
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

export type ProgressStatus = 'done' | 'current' | 'upcoming';

/** The bar's step for a stage of the journey; `created`: every step done. */
export function progressStepOf(stage: OnboardingStage | 'created'): ProgressStep {
  return stage === 'created' ? 4 : ((onboardingStages.indexOf(stage) + 1) as ProgressStep);
}

/** How the bar shows its step `step` (1–3) while `current` is the journey's step. */
export function progressStatus(current: ProgressStep, step: number): ProgressStatus {
  return step < current ? 'done' : step === current ? 'current' : 'upcoming';
}

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
