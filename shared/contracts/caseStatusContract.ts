// Wire contract of the application status page's brokerage calls (identification-routing-creation §3 "Task",
// "Residency taskData", "Upload request"; §7 trigger-case, task-with-actions list, update-action, update-case).
// server/upstream/brokerageCaseStatusCalls.ts parses every answer with these; sandbox/caseStatus.ts every request.
// The files of a task go through the existing init-file-upload (shared/contracts/brokerageContract.ts
// initFileUploadRequest: fileName, contentType, taskId = the task's nnxTaskId) and the PUT of the bytes.
import { z } from 'zod';

// The spec names the calls but shows none of their paths: these are ours, beside the other onboarding paths.
export const caseStatusPaths = {
  triggerCase: '/api/2/onboarding/trigger-case',
  tasksWithActions: '/api/2/onboarding/tasks-with-actions',
  updateAction: '/api/2/onboarding/update-action',
  updateCase: '/api/2/onboarding/update-case',
} as const;

const isoCountry = z.string().regex(/^[A-Z]{2}$/);
const id = z.string().min(1).max(200);

/**
 * Task types (identification-routing-creation §3: residency, tax liability, tax residence), spelt as the other case
 * types of the brokerage contract (caseTypes RESIDENCY, TAX_RESIDENCE).
 */
export const taskTypes = ['RESIDENCY', 'TAX_LIABILITY', 'TAX_RESIDENCE'] as const;
export const taskType = z.enum(taskTypes);
export type TaskType = z.infer<typeof taskType>;

/** An action's status: OPEN means the bank waits for the person's input (identification-routing-creation §3). */
export const ACTION_OPEN = 'OPEN';
/** Our reading of an answered action's status; any status other than OPEN needs nothing from the person. */
export const ACTION_CLOSED = 'CLOSED';
export const taskAction = z.object({ actionId: id, status: z.string().min(1).max(50) });
export type TaskAction = z.infer<typeof taskAction>;

/** A file already on the task (not in the spec beyond "attachments": the id init-file-upload answered, and its name). */
export const taskAttachment = z.object({ attachmentId: id, fileName: z.string().max(200).optional() });

/**
 * Residency taskData (identification-routing-creation §3): the address abroad the bank asks about. Strict about what the
 * page uses (the address and the country); questionsAndAnswers and type are only handed back in update-case, so one
 * the brokerage shapes otherwise is left out rather than making the task unreadable.
 */
export const residencyTaskData = z.object({
  address: z.string().max(200).nullish(),
  city: z.string().max(100).nullish(),
  zipCode: z.string().max(20).nullish(),
  countryCode: isoCountry,
  questionsAndAnswers: z
    .array(z.object({ question: z.string().min(1).max(200), answer: z.string().max(2000) }))
    .max(20)
    .nullish()
    .catch(undefined),
  type: z.string().max(50).nullish().catch(undefined),
});
export type ResidencyTaskData = z.infer<typeof residencyTaskData>;

/** taskData of the tax tasks: not in the spec; kept as received (e.g. the countryCode asked about). */
export const otherTaskData = z.record(z.string(), z.unknown());

const taskBase = {
  nnxTaskId: id,
  customerId: id,
  // Not used by the page: files it cannot read do not make the task unreadable.
  attachments: z.array(taskAttachment).max(100).default([]).catch([]),
  actions: z.array(taskAction).max(50),
};
export const residencyTask = z.object({ ...taskBase, type: z.literal('RESIDENCY'), taskData: residencyTaskData });
export const uploadTask = z.object({ ...taskBase, type: z.enum(['TAX_LIABILITY', 'TAX_RESIDENCE']), taskData: otherTaskData.nullish() });
/** Task (identification-routing-creation §3): nnxTaskId, type, customerId, taskData, attachments, actions. */
export const statusTask = z.discriminatedUnion('type', [residencyTask, uploadTask]);
export type StatusTask = z.infer<typeof statusTask>;
export type ResidencyTask = z.infer<typeof residencyTask>;

/**
 * A task the page cannot answer: a type this contract does not name (the brokerage may add one any day), or a known
 * type whose data is not as the contract says. Only what shows it is read: its id and whether an action waits.
 */
export const otherTask = z
  .object({
    nnxTaskId: id.optional().catch(undefined),
    type: z.string().max(100).optional().catch(undefined),
    actions: z
      .array(z.object({ status: z.string().max(50).catch('') }).passthrough())
      .max(50)
      .catch([]),
  })
  .catch({ actions: [] });
export type OtherTask = z.infer<typeof otherTask>;

/**
 * GET task-with-actions list: the person's tasks (a 204 without a body means none). Each task is read on its own
 * (tasksOf), so one the contract does not describe never makes the list unreadable.
 */
export const tasksWithActionsResponse = z.object({ data: z.object({ tasks: z.array(z.unknown()).max(100) }) });

/** The tasks of a task list: those the page answers, and those it only names (otherTask). */
export interface TaskList {
  tasks: StatusTask[];
  others: OtherTask[];
}

export function tasksOf(listed: readonly unknown[]): TaskList {
  const list: TaskList = { tasks: [], others: [] };
  for (const raw of listed) {
    const known = statusTask.safeParse(raw);
    if (known.success) list.tasks.push(known.data);
    else list.others.push(otherTask.parse(raw));
  }
  return list;
}

/** POST trigger-case: creates a case for the prospect (identification-routing-creation §2 OnboardingTriggerCase). */
export const triggerCaseRequest = z.object({ prospectId: id });

/** The person's message with an action; the status page's comment is optional, so it may be empty. */
const message = z.string().max(2000);
/** PUT update-action (identification-routing-creation §7). */
export const updateActionRequest = z.object({ actionId: id, message });
export type UpdateActionRequest = z.infer<typeof updateActionRequest>;

/** Residency taskData as update-case sends it: the address, zip code and city the person confirmed (identification-routing-creation §5). */
export const answeredResidencyTaskData = residencyTaskData.extend({
  address: z.string().min(1).max(200),
  city: z.string().min(1).max(100),
  zipCode: z.string().min(1).max(20),
});
const taskUpdate = z.discriminatedUnion('type', [
  z.object({ customerId: id, type: z.literal('RESIDENCY'), taskData: answeredResidencyTaskData }),
  z.object({ customerId: id, type: z.enum(['TAX_LIABILITY', 'TAX_RESIDENCE']), taskData: otherTaskData.nullable() }),
]);
/** PUT update-case (identification-routing-creation §7): the action answered and the task's new data. */
export const updateCaseRequest = z.object({
  actionUpdate: z.object({ actionId: id, message }),
  taskUpdate,
});
export type UpdateCaseRequest = z.infer<typeof updateCaseRequest>;
