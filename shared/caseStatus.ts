// Rules of the application status page (identification-routing-creation §2 "Application status page", §4 "Status page",
// §5): step two's status, which form a task with an open action gets, what each form must hold, and the update-action and
// update-case bodies built from what the person sent (contract shared/contracts/caseStatusContract.ts).
import {
  ACTION_OPEN,
  type OtherTask,
  type StatusTask,
  type TaskAction,
  type TaskType,
  type UpdateActionRequest,
  type UpdateCaseRequest,
} from './contracts/caseStatusContract.ts';
import { RESIDENCY_LIMITS, trimAll } from './residency.ts';

// --- the steps --------------------------------------------------------------------------

/** Step two ("Application reviewed") reads "In progress", or "Pending" while any task has an OPEN action. */
export type StepTwoStatus = 'inProgress' | 'pending';

/** The task's action that waits for the person (status OPEN), if any. */
export const openActionOf = (task: Pick<StatusTask, 'actions'>): TaskAction | undefined => task.actions.find((a) => a.status === ACTION_OPEN);

/**
 * Whether this session's record has the task's action answered: the answer was sent, though the brokerage may list the
 * action OPEN a while longer. Such an action waits for nobody.
 */
export type AnsweredHere = (taskId: string, actionId: string) => boolean;
const answeredNowhere: AnsweredHere = () => false;

/** A task the page shows a form for ("We need additional information"), with the open action the form answers. */
export interface TaskNeedingInput {
  task: StatusTask;
  actionId: string;
}

/** The tasks with an open action not answered here, in the order the task list gave them. */
export const tasksNeedingInput = (tasks: readonly StatusTask[], answered: AnsweredHere = answeredNowhere): TaskNeedingInput[] =>
  tasks.flatMap((task) => {
    const action = openActionOf(task);
    return action && !answered(task.nnxTaskId, action.actionId) ? [{ task, actionId: action.actionId }] : [];
  });

/** Pending while a task waits for the person: one with an open action not answered here, or one the page only names (OtherTask). */
export const stepTwoStatus = (tasks: readonly StatusTask[], others: readonly OtherTask[] = [], answered: AnsweredHere = answeredNowhere): StepTwoStatus =>
  tasksNeedingInput(tasks, answered).length > 0 || others.some((o) => o.actions.some((a) => a.status === ACTION_OPEN)) ? 'pending' : 'inProgress';

// --- the forms ----------------------------------------------------------------------------

/** A residency task gets the residency form (with the proof of a foreign address); tax liability and tax residence the upload form. */
export type CaseForm = 'residency' | 'upload';
export const formFor = (type: TaskType): CaseForm => (type === 'RESIDENCY' ? 'residency' : 'upload');

export const residencyFormFields = ['address', 'zipCode', 'city'] as const;
export type ResidencyFormField = (typeof residencyFormFields)[number];
export type ResidencyFormInput = Record<ResidencyFormField, string>;
export type FieldProblem = 'required' | 'tooLong';

/** identification-routing-creation §5: address, zip code and city required (trimmed; the contract's limits). The country is not a field: it is the task's. */
export function checkResidencyForm(input: ResidencyFormInput): Partial<Record<ResidencyFormField, FieldProblem>> {
  const value = trimAll(input);
  const problems: Partial<Record<ResidencyFormField, FieldProblem>> = {};
  for (const field of residencyFormFields) {
    if (!value[field]) problems[field] = 'required';
    else if (value[field].length > RESIDENCY_LIMITS[field]) problems[field] = 'tooLong';
  }
  return problems;
}

/** What the residency form starts with: the task's address (the country is shown read-only from the task). */
export function residencyFormFromTask(task: Extract<StatusTask, { type: 'RESIDENCY' }>): ResidencyFormInput & { countryCode: string } {
  const { address, zipCode, city, countryCode } = task.taskData;
  return { address: address ?? '', zipCode: zipCode ?? '', city: city ?? '', countryCode };
}

/** The documents that prove a foreign address (identification-routing-creation §2): the person names one per file. */
export const proofOfAddressKinds = ['housingContract', 'bankStatement', 'officialTaxDocument'] as const;
export type ProofOfAddressKind = (typeof proofOfAddressKinds)[number];
export const isProofOfAddressKind = (value: unknown): value is ProofOfAddressKind => proofOfAddressKinds.includes(value as ProofOfAddressKind);

/** A file of the proof of address as chosen: its name and the kind chosen for it (none yet, or a value from a form). */
export interface ProofFile {
  fileName: string;
  kind?: string;
}

export interface ProofProblems {
  /** No file at all: at least one document is required. */
  files?: 'required';
  /** The positions of the files without a kind (or with one that is not a proof of address). */
  kindMissing: number[];
}

/** At least one file, and each file named as one of the three kinds of proof. Null when the proof is complete. */
export function checkProofOfAddress(files: readonly ProofFile[]): ProofProblems | null {
  const kindMissing = files.flatMap((f, i) => (isProofOfAddressKind(f.kind) ? [] : [i]));
  if (files.length > 0 && kindMissing.length === 0) return null;
  return { ...(files.length === 0 ? { files: 'required' as const } : {}), kindMissing };
}

/** The longest message (comment) the contract takes. */
export const MESSAGE_MAX = 2000;

export interface UploadFormInput {
  /** How many files are chosen (uploaded or about to be). */
  attachments: number;
  comment: string;
}

/** identification-routing-creation §5: at least one attachment; the comment is optional (but not over the limit). */
export function checkUploadForm(input: UploadFormInput): Partial<{ attachments: 'required'; comment: 'tooLong' }> {
  return {
    ...(input.attachments < 1 ? { attachments: 'required' as const } : {}),
    ...(input.comment.trim().length > MESSAGE_MAX ? { comment: 'tooLong' as const } : {}),
  };
}

// --- what is sent -------------------------------------------------------------------------

/**
 * The message of a residency answer: the kind of each proof file, one per line ("housingContract: lease.pdf"), so the bank
 * sees which document is which (the contract has no field for it; our choice). Cut to the contract's limit.
 */
export function proofOfAddressMessage(files: readonly { fileName: string; kind: ProofOfAddressKind }[]): string {
  return files
    .map((f) => `${f.kind}: ${f.fileName}`)
    .join('\n')
    .slice(0, MESSAGE_MAX);
}

export const updateActionBody = (actionId: string, message: string): UpdateActionRequest => ({ actionId, message: message.trim().slice(0, MESSAGE_MAX) });

/**
 * PUT update-case (identification-routing-creation §7): actionUpdate { actionId, message } and taskUpdate { customerId, taskData,
 * type } of the task. A residency task's taskData is the task's with the address, zip code and city the person confirmed
 * (trimmed); its country stays the task's. Other tasks send their taskData unchanged.
 */
export function updateCaseBody(task: StatusTask, actionId: string, message: string, residency?: ResidencyFormInput): UpdateCaseRequest {
  const actionUpdate = updateActionBody(actionId, message);
  if (task.type === 'RESIDENCY') {
    if (!residency) throw new Error('A residency task is updated with the residency form');
    const { address, zipCode, city } = trimAll(residency);
    return { actionUpdate, taskUpdate: { customerId: task.customerId, type: task.type, taskData: { ...task.taskData, address, zipCode, city } } };
  }
  return { actionUpdate, taskUpdate: { customerId: task.customerId, type: task.type, taskData: task.taskData ?? null } };
}
