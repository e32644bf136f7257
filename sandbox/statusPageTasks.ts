// The application status page's personas (identification-routing-creation §2 "Application status page", §3 "Task"):
// which tasks the bank has open for each, and how their calls fail. sandbox/statusPage.ts serves them; every one of
// these personas is routed ONBOARDING_OPEN_CASE (sandbox/personas.ts), in all four markets.
//
//   openCase               several tasks at once: residency, tax liability and tax residence, each with an open action
//   caseResidency          one residency task, open action (address abroad, read-only country)
//   caseTaxLiability       one tax-liability task, open action
//   caseTaxResidence       one tax-residence task, open action
//   caseAnswered           one residency task already answered (action CLOSED, a file on it): step two "In progress"
//   caseNoTasks            no tasks: the task list answers 204
//   caseTaskListFails      the task list answers 500 (the page redirects to Onboarding)
//   caseUpdateFailsThrice  one tax-liability task whose first three update-case calls answer 500, the fourth works
//   caseTriggerFails       no tasks; trigger-case answers 500 (OnboardingTriggerCase only logs it)
import type { CountryCode } from '../shared/contracts/brokerageContract.ts';
import type { ResidencyTaskData, TaskType } from '../shared/contracts/statusPageContract.ts';

export const CASE_SCENARIOS = [
  'caseResidency',
  'caseTaxLiability',
  'caseTaxResidence',
  'caseAnswered',
  'caseNoTasks',
  'caseTaskListFails',
  'caseUpdateFailsThrice',
  'caseTriggerFails',
] as const;
export type CaseScenario = (typeof CASE_SCENARIOS)[number] | 'openCase';

export interface TaskSeed {
  type: TaskType;
  /** The action is answered already (CLOSED) and the task carries a file. */
  answered?: boolean;
}

export interface StatusPagePlan {
  tasks: TaskSeed[];
  /** GET task-with-actions list answers 500. */
  taskListFails?: boolean;
  /** The first this-many PUT update-case calls of the person answer 500. */
  caseUpdateFailures?: number;
  /** POST trigger-case answers 500. */
  triggerCaseFails?: boolean;
}

export const statusPagePlans: Record<CaseScenario, StatusPagePlan> = {
  openCase: { tasks: [{ type: 'RESIDENCY' }, { type: 'TAX_LIABILITY' }, { type: 'TAX_RESIDENCE' }] },
  caseResidency: { tasks: [{ type: 'RESIDENCY' }] },
  caseTaxLiability: { tasks: [{ type: 'TAX_LIABILITY' }] },
  caseTaxResidence: { tasks: [{ type: 'TAX_RESIDENCE' }] },
  caseAnswered: { tasks: [{ type: 'RESIDENCY', answered: true }] },
  caseNoTasks: { tasks: [] },
  caseTaskListFails: { tasks: [{ type: 'RESIDENCY' }], taskListFails: true },
  caseUpdateFailsThrice: { tasks: [{ type: 'TAX_LIABILITY' }], caseUpdateFailures: 3 },
  caseTriggerFails: { tasks: [], triggerCaseFails: true },
};

/** The address abroad a residency task asks the person to confirm, per market (a country other than the home one). */
export const ADDRESSES_ABROAD: Record<CountryCode, Pick<ResidencyTaskData, 'address' | 'zipCode' | 'city' | 'countryCode'>> = {
  SE: { address: 'Calle Mayor 5', zipCode: '28013', city: 'Madrid', countryCode: 'ES' },
  NO: { address: '10 Baker Street', zipCode: 'NW1 6XE', city: 'London', countryCode: 'GB' },
  DK: { address: 'Hauptstraße 12', zipCode: '10115', city: 'Berlin', countryCode: 'DE' },
  FI: { address: 'Narva mnt 7', zipCode: '10117', city: 'Tallinn', countryCode: 'EE' },
};

/** taskData of a new task of the type, for a person of the market. */
export function seedTaskData(type: TaskType, country: CountryCode): Record<string, unknown> {
  const abroad = ADDRESSES_ABROAD[country];
  if (type === 'RESIDENCY') {
    return { ...abroad, questionsAndAnswers: [{ question: 'reasonForLivingAbroad', answer: 'Work' }], type: null };
  }
  // Tax liability: the country the bank asks about; tax residence: the country of the address abroad.
  return { countryCode: type === 'TAX_LIABILITY' ? 'US' : abroad.countryCode };
}
