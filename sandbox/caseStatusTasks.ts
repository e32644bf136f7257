// The application status page's personas (identification-routing-creation §2 "Application status page", §3 "Task"):
// which tasks the bank has open for each, and how their calls fail (caseStatusPlans). sandbox/caseStatus.ts serves
// them; every one of these personas is routed ONBOARDING_OPEN_CASE (sandbox/personas.ts), in all four markets.
import type { CountryCode } from '../shared/contracts/brokerageContract.ts';
import type { ResidencyTaskData, TaskType } from '../shared/contracts/caseStatusContract.ts';

export const CASE_SCENARIOS = [
  'caseResidency',
  'caseTaxLiability',
  'caseTaxResidence',
  'caseAnswered',
  'caseNoTasks',
  'caseTaskListFails',
  'caseUpdateFailsThrice',
  'caseTriggerFails',
  'caseUnknownTask',
  'caseKeptOpen',
] as const;
export type CaseScenario = (typeof CASE_SCENARIOS)[number] | 'openCase';

export interface TaskSeed {
  type: TaskType;
  /** The action is answered already (CLOSED) and the task carries a file. */
  answered?: boolean;
  /** The task carries fields the contract does not describe, and some it describes in another shape (oddFieldsOf). */
  oddFields?: boolean;
}

export interface CaseStatusPlan {
  tasks: TaskSeed[];
  /** GET task-with-actions list answers 500. */
  taskListFails?: boolean;
  /** The first this-many PUT update-case calls of the person answer 500. */
  caseUpdateFailures?: number;
  /** POST trigger-case answers 500. */
  triggerCaseFails?: boolean;
  /** Tasks of types the contract does not name, listed after the others as the brokerage sends them. */
  unknownTypes?: string[];
  /** An answered action stays OPEN in the list (the brokerage closes it later); it is still answered once only. */
  keepsActionsOpen?: boolean;
}

export const caseStatusPlans: Record<CaseScenario, CaseStatusPlan> = {
  // Several tasks at once, each with an open action.
  openCase: { tasks: [{ type: 'RESIDENCY' }, { type: 'TAX_LIABILITY' }, { type: 'TAX_RESIDENCE' }] },
  // One task with an open action (residency: the address abroad, its country read-only).
  caseResidency: { tasks: [{ type: 'RESIDENCY' }] },
  caseTaxLiability: { tasks: [{ type: 'TAX_LIABILITY' }] },
  caseTaxResidence: { tasks: [{ type: 'TAX_RESIDENCE' }] },
  // A residency task answered already (action CLOSED, a file on it): step two "In progress".
  caseAnswered: { tasks: [{ type: 'RESIDENCY', answered: true }] },
  // No tasks: the task list answers 204.
  caseNoTasks: { tasks: [] },
  // The task list answers 500 (the page says so, with Try again).
  caseTaskListFails: { tasks: [{ type: 'RESIDENCY' }], taskListFails: true },
  // The first three update-case calls answer 500, the fourth works.
  caseUpdateFailsThrice: { tasks: [{ type: 'TAX_LIABILITY' }], caseUpdateFailures: 3 },
  // No tasks; trigger-case answers 500 (OnboardingTriggerCase only logs it).
  caseTriggerFails: { tasks: [], triggerCaseFails: true },
  // The brokerage's list beyond our contract: a task of a type it does not name (open action), and a tax-liability
  // and a residency task with fields the contract does not describe.
  caseUnknownTask: {
    tasks: [
      { type: 'TAX_LIABILITY', oddFields: true },
      { type: 'RESIDENCY', oddFields: true },
    ],
    unknownTypes: ['SOURCE_OF_FUNDS'],
  },
  // The brokerage keeps the action OPEN after it was answered (a second answer is still refused with 409).
  caseKeptOpen: { tasks: [{ type: 'TAX_LIABILITY' }], keepsActionsOpen: true },
};

/**
 * What a task with odd fields carries beyond the contract: a field it does not name (priority), a file in a shape it
 * does not describe, and, on a residency task, the questions and answers as an object instead of a list.
 */
export function oddFieldsOf(type: TaskType): Record<string, unknown> {
  return {
    priority: { level: 'HIGH', since: '2026-11-30' },
    attachments: [{ documentId: 'DOC-1', title: 'Letter from the bank' }],
    ...(type === 'RESIDENCY' ? { questionsAndAnswers: { reasonForLivingAbroad: 'Work' } } : {}),
  };
}

/** A task of a type the contract does not name, with an open action (the brokerage's newer list). */
export function unknownTypeTask(type: string, customerId: string, ids: { task: string; action: string }): Record<string, unknown> {
  return {
    nnxTaskId: ids.task,
    type,
    customerId,
    taskData: { reference: 'SOF-2026-17' },
    attachments: [],
    actions: [{ actionId: ids.action, status: 'OPEN' }],
  };
}

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
