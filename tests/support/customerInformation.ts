// Walking the customer-information page in tests, whatever steps the prospect has: each implemented
// step has one answer here (a browser filler and an HTTP form body), so adding a step to the journey
// means adding its entry here, and every journey test keeps working.
import type { Page } from 'playwright-core';
import type { StepId } from '../../shared/contracts/brokerage.ts';

/** Answers the shown sub-step of a step in the browser and submits it (one form post). */
export type BrowserAnswer = (page: Page, subStep: number) => Promise<void>;
/** The urlencoded body answering a sub-step, given the page's HTML. */
export type HttpAnswer = (subStep: number, html: string) => string;

export const browserAnswers: Partial<Record<StepId, BrowserAnswer>> = {
  MILESTONE_ONE_STEP: (page) => page.getByRole('button', { name: 'Start' }).click(),
  ACCOUNT_PICKER_STEP: (page) => page.getByRole('button', { name: 'Continue' }).click(),
  MILESTONE_TWO_STEP: (page) => page.getByRole('button', { name: 'Continue' }).click(),
};

export const httpAnswers: Partial<Record<StepId, HttpAnswer>> = {
  MILESTONE_ONE_STEP: () => 'step=MILESTONE_ONE_STEP',
  ACCOUNT_PICKER_STEP: (_sub, html) => {
    // Whatever the page ticks by default (the country's defaults).
    const ticked = [...html.matchAll(/<input(?=[^>]*name="accounts")(?=[^>]*checked)[^>]*value="([A-Z_]+)"/g)].map((m) => m[1]);
    return ['step=ACCOUNT_PICKER_STEP', ...ticked.map((a) => `accounts=${a}`)].join('&');
  },
  MILESTONE_TWO_STEP: () => 'step=MILESTONE_TWO_STEP',
};

export async function currentStep(page: Page): Promise<{ step: StepId; subStep: number }> {
  const el = page.locator('[data-step]');
  await el.waitFor();
  return { step: (await el.getAttribute('data-step')) as StepId, subStep: Number((await el.getAttribute('data-sub-step')) ?? 0) };
}

/**
 * Answers every step up to milestone three (which is left for the test to submit). `onScreen` runs on
 * every screen first (axe checks, assertions).
 */
export async function walkToMilestoneThree(page: Page, onScreen?: (step: StepId, subStep: number) => Promise<void>): Promise<void> {
  for (let screens = 0; screens < 60; screens++) {
    const { step, subStep } = await currentStep(page);
    if (step === 'MILESTONE_THREE_STEP') return;
    await onScreen?.(step, subStep);
    const answer = browserAnswers[step];
    if (!answer) throw new Error(`No browser answer for ${step} in tests/support/customerInformation.ts`);
    const before = page.url();
    await Promise.all([page.waitForEvent('load'), answer(page, subStep)]);
    if (page.url() !== before && !page.url().includes('/onboarding/customer-information/')) throw new Error(`left the page at ${step}: ${page.url()}`);
  }
  throw new Error('customer-information walk did not reach milestone three');
}

/** The same over HTTP: `get` answers the page's HTML, `post` posts a urlencoded body to its /step. */
export async function answerStepsOverHttp(get: () => Promise<string>, post: (body: string) => Promise<void>): Promise<void> {
  for (let screens = 0; screens < 60; screens++) {
    const html = await get();
    const match = /data-step="([A-Z_]+)" data-sub-step="(\d+)"/.exec(html);
    if (!match) throw new Error('no step on the customer-information page');
    const step = match[1] as StepId;
    if (step === 'MILESTONE_THREE_STEP') return;
    const answer = httpAnswers[step];
    if (!answer) throw new Error(`No HTTP answer for ${step} in tests/support/customerInformation.ts`);
    await post(answer(Number(match[2]), html));
  }
  throw new Error('customer-information walk did not reach milestone three');
}
