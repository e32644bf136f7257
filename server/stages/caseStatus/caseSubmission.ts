// Answering a task of the application status page (identification-routing-creation §4 "Status page", §5, §7, §9): the
// post's task, looked up in the person's own list; its files, stored once each; the answer, sent once (update-action,
// then update-case, each retried). What got done is kept per task in the session (server/journey.ts CaseTaskState) and,
// until sent, per person beyond it (a draft), so a double click, a second tab, a resend after a failure or identifying
// again stores and records nothing twice and loses nothing typed.
import { createHash, randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { z } from 'zod';
import {
  checkProofOfAddress,
  checkResidencyForm,
  checkUploadForm,
  isProofOfAddressKind,
  openActionOf,
  proofOfAddressMessage,
  residencyFormFields,
  updateActionBody,
  updateCaseBody,
  type ProofOfAddressKind,
} from '../../../shared/caseStatus.ts';
import type { StatusTask } from '../../../shared/contracts/caseStatusContract.ts';
import type { AsPerson } from '../../../shared/asPerson.ts';
import type { AppDeps } from '../../deps.ts';
import type { CaseDraft } from '../../infra/caseDrafts.ts';
import type { CaseFile, CaseTaskState, Journey } from '../../journey.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { withRetries } from '../../upstream/retry.ts';
import { filesReceived, type ReceiveProblem } from '../../uploads/receiveFiles.ts';
import { judgeAndStoreFile } from '../../uploads/storeFile.ts';

/** A file of a task's post, with the proof-of-address kind it was chosen for (residency): its input's name or the `kind` field. */
export interface TaskFile {
  originalName: string;
  bytes: Buffer;
  kind?: ProofOfAddressKind;
}

/** The files a task's post brought (server/uploads/receiveFiles.ts), each with its kind, and why any did not arrive. */
export function taskFilesOf(req: Request): { files: TaskFile[]; problem?: ReceiveProblem } {
  const { files, problem } = filesReceived(req);
  const kindField = (req.body as Record<string, unknown> | undefined)?.kind;
  const taskFiles = files.map((f): TaskFile => {
    const kind = f.field.startsWith('file_') ? f.field.slice('file_'.length) : kindField;
    return { originalName: f.originalName, bytes: f.bytes, ...(isProofOfAddressKind(kind) ? { kind } : {}) };
  });
  return { files: taskFiles, ...(problem ? { problem } : {}) };
}

const idField = z.string().trim().min(1).max(200);
const text = (max: number) => z.string().max(max).optional().catch(undefined);
/** What a task's form holds besides its intent: the task and action it answers, and what was typed. */
const taskForm = { taskId: idField, actionId: idField, address: text(400), zipCode: text(40), city: text(200), comment: text(4000) };

/** The intent a post asks for: the no-JS Remove button posts `remove=<attachmentId>` and no intent; Enter in a field, Send. */
function withIntent(body: unknown): unknown {
  const fields = { ...(body as Record<string, unknown> | undefined) };
  if (typeof fields.remove === 'string') return { ...fields, intent: 'remove', attachmentId: fields.remove };
  return { ...fields, intent: fields.intent === 'upload' || fields.intent === 'remove' ? fields.intent : 'send' };
}

/** A post of a task's form: upload a file (the island, one at a time), remove a stored one, or send the answer. */
export const taskPost = z.preprocess(
  withIntent,
  z.discriminatedUnion('intent', [
    z.object({ intent: z.literal('upload'), ...taskForm }),
    z.object({ intent: z.literal('remove'), attachmentId: z.string().max(200), ...taskForm }),
    z.object({ intent: z.literal('send'), ...taskForm }),
  ]),
);
export type TaskPost = z.infer<typeof taskPost>;

/** What the task and action a post names are now. */
export type PostTarget =
  /** The form the page shows for the task: its open action, or the one whose send this session began. */
  | { kind: 'open'; task: StatusTask }
  /** Sent from this session already (a double click, a second tab). */
  | { kind: 'sent' }
  /** The person's own action, answered from another browser: what they wanted is done. */
  | { kind: 'answeredElsewhere'; task: StatusTask }
  /** Another action of the task is the open one now (or being sent): the post comes from a page shown before it. */
  | { kind: 'stale' }
  /** No task or action of the person's list: the form's ids select nothing the list does not hold. */
  | { kind: 'notYours' };

/**
 * The stale-post rule of the status page: a post answers the action the page shows for its task, or the one this
 * session began to send (update-action may have closed it); a post naming any other action changes nothing.
 */
export function postTarget(tasks: readonly StatusTask[], post: Pick<TaskPost, 'taskId' | 'actionId'>, kept: CaseTaskState | undefined): PostTarget {
  const task = tasks.find((t) => t.nnxTaskId === post.taskId);
  const action = task?.actions.find((a) => a.actionId === post.actionId);
  if (!task || !action) return { kind: 'notYours' };
  const keptHere = kept?.actionId === action.actionId ? kept : undefined;
  if (keptHere?.sent) return { kind: 'sent' };
  if (keptHere?.attempt || openActionOf(task)?.actionId === action.actionId) return { kind: 'open', task };
  const sendingAnother = kept && !keptHere && kept.attempt && !kept.sent;
  return openActionOf(task) || sendingAnother ? { kind: 'stale' } : { kind: 'answeredElsewhere', task };
}

/** The session's state of a task's answer for `actionId`; a new action of the task starts afresh. */
export function taskStateOf(journey: Journey, taskId: string, actionId: string): CaseTaskState {
  const all = (journey.caseStatus ??= {});
  const kept = all[taskId];
  if (kept?.actionId === actionId) return kept;
  return (all[taskId] = { actionId, files: [] });
}

/** Keeps what the person typed in the task's form (shown again after any refusal or failure). */
export function keepTyped(state: CaseTaskState, post: TaskPost): void {
  const typed = { ...state.typed };
  for (const field of [...residencyFormFields, 'comment'] as const) if (post[field] !== undefined) typed[field] = post[field];
  state.typed = typed;
}

export interface StoreOutcome {
  /** Per file refused: its name as chosen and the message key. */
  refused: { name: string; messageKey: string }[];
}

/**
 * Stores the received files to the task, each once: a file with the same bytes and kind as one already stored for the
 * answer (a form sent again after a failure carries its files again) is not uploaded again.
 */
export async function storeFiles(deps: AppDeps, person: AsPerson, task: StatusTask, state: CaseTaskState, files: readonly TaskFile[]): Promise<StoreOutcome> {
  const refused: StoreOutcome['refused'] = [];
  for (const file of files) {
    const digest = createHash('sha256')
      .update(file.bytes)
      .update(`\0${file.kind ?? ''}`)
      .digest('base64url');
    if (state.files.some((f) => f.digest === digest)) continue;
    const stored = await judgeAndStoreFile(
      { initFileUpload: (body) => person.call('initFileUpload', (jwt) => deps.brokerage.initFileUpload(jwt, body)), deps },
      file,
      task.nnxTaskId,
      { page: 'caseStatus', taskType: task.type },
    );
    if (!stored.ok) {
      refused.push({ name: file.originalName.split(/[\\/]/).pop() ?? '', messageKey: stored.messageKey });
      continue;
    }
    const kept: CaseFile = { attachmentId: stored.file.attachmentId, fileName: stored.file.name, digest, ...(file.kind ? { kind: file.kind } : {}) };
    state.files.push(kept);
  }
  return { refused };
}

/** What the form still needs before it can be sent, as message keys per field (empty: ready). */
export function formProblems(task: StatusTask, state: CaseTaskState): Record<string, string> {
  const typed = state.typed ?? {};
  if (task.type === 'RESIDENCY') {
    const problems: Record<string, string> = {};
    const fields = checkResidencyForm({ address: typed.address ?? '', zipCode: typed.zipCode ?? '', city: typed.city ?? '' });
    for (const [field, problem] of Object.entries(fields)) problems[field] = `caseStatus.error.${field}.${problem}`;
    const proof = checkProofOfAddress(state.files.map((f) => ({ fileName: f.fileName, ...(f.kind ? { kind: f.kind } : {}) })));
    if (proof) problems.files = 'caseStatus.error.proofRequired';
    return problems;
  }
  const upload = checkUploadForm({ attachments: state.files.length, comment: typed.comment ?? '' });
  return {
    ...(upload.attachments ? { files: 'caseStatus.error.attachmentRequired' } : {}),
    ...(upload.comment ? { comment: 'caseStatus.error.comment.tooLong' } : {}),
  };
}

/** Saves the session now (under the lock), so what it holds survives this request dying in the next call. */
export const saveSession = (req: Request) => new Promise<void>((resolve, reject) => req.session.save((err?: Error) => (err ? reject(err) : resolve())));

/** A draft kept beyond the session replaces this session's state of the task unless that is sent or of another action. */
const takesDraft = (mine: CaseTaskState | undefined, draft: CaseDraft | null): draft is CaseDraft =>
  draft !== null && !(mine && (mine.sent === true || mine.actionId !== draft.actionId));

/**
 * The session's task states with the person's unsent answers kept beyond it (server/infra/caseDrafts.ts) taken up: they
 * may have identified again (a new session), or answered in another browser since. The journey is not changed.
 */
export async function withDrafts(deps: Pick<AppDeps, 'caseDrafts'>, journey: Journey, taskIds: readonly string[]): Promise<Record<string, CaseTaskState>> {
  const kept = { ...journey.caseStatus };
  if (!journey.natregno) return kept;
  const drafts = deps.caseDrafts.of(journey.natregno);
  await Promise.all(
    taskIds.map(async (taskId) => {
      const draft = await drafts.read(taskId);
      if (takesDraft(kept[taskId], draft)) kept[taskId] = draft;
    }),
  );
  return kept;
}

/** Keeps the task's answer beyond the session while it is not sent; forgets it once sent. */
export async function keepDraft(deps: Pick<AppDeps, 'caseDrafts'>, journey: Journey, taskId: string): Promise<void> {
  const state = journey.caseStatus?.[taskId];
  if (!journey.natregno || !state) return;
  const drafts = deps.caseDrafts.of(journey.natregno);
  if (state.sent) return drafts.drop(taskId);
  const { sent: _sent, ...draft } = state;
  await drafts.keep(taskId, draft);
}

/**
 * Sends the answer: update-action, then update-case, each retried (identification-routing-creation §9), each skipped when
 * this answer already got it through. The attempt id is kept (`checkpoint`: the session and the draft saved) before the first call.
 */
export async function sendAnswer(checkpoint: () => Promise<void>, deps: AppDeps, person: AsPerson, task: StatusTask, state: CaseTaskState): Promise<void> {
  if (state.sent) return;
  if (!state.attempt) {
    state.attempt = randomUUID();
    await checkpoint();
  }
  const attempt = state.attempt;
  const message =
    task.type === 'RESIDENCY'
      ? proofOfAddressMessage(state.files.flatMap((f) => (isProofOfAddressKind(f.kind) ? [{ fileName: f.fileName, kind: f.kind }] : [])))
      : (state.typed?.comment ?? '');
  const delay = deps.config.FILE_RETRY_DELAY_MS;
  if (!state.actionUpdated) {
    const body = updateActionBody(state.actionId, message);
    await recordedOnce(withRetries(() => person.call('updateAction', (jwt) => deps.brokerage.updateAction(jwt, body, `${attempt}:action`)), delay));
    state.actionUpdated = true;
    await checkpoint();
  }
  const typed = state.typed ?? {};
  const residency = { address: typed.address ?? '', zipCode: typed.zipCode ?? '', city: typed.city ?? '' };
  const body = updateCaseBody(task, state.actionId, message, task.type === 'RESIDENCY' ? residency : undefined);
  await recordedOnce(withRetries(() => person.call('updateCase', (jwt) => deps.brokerage.updateCase(jwt, body, `${attempt}:case`)), delay));
  state.sent = true;
}

/**
 * A 409 answers an update the brokerage has recorded already (the same task sent from another browser, or the answer
 * of a call whose reply was lost): what the person wanted is done, so it is a success, never "it failed".
 */
async function recordedOnce(update: Promise<void>): Promise<void> {
  try {
    await update;
  } catch (err) {
    if (!(err instanceof UpstreamError && err.status === 409)) throw err;
  }
}

/** A failed call as the person sees it: the session has ended (identify again), or anything else (try again). */
export type SendFailure = 'sessionExpired' | 'tryAgain';
export const sendFailureOf = (err: unknown): SendFailure =>
  err instanceof UpstreamError && (err.status === 401 || err.status === 403) ? 'sessionExpired' : 'tryAgain';
