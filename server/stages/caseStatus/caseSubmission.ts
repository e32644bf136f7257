// Answering a task of the application status page (identification-routing-creation §2 "Application status page", §4
// "Status page", §5, §7, §9): the multipart post, the task it names (looked up in the person's own task list, never taken
// from the form), the files stored to the task (init-file-upload, then the PUT of the bytes), and sending the answer
// (update-action, then update-case, each tried 10 times at 500 ms within the request's deadline).
//
// Once only: the whole post runs under the session lock (server/app.ts), and what got done is kept in the session per task
// (server/journey.ts CaseTaskState): the files stored, the attempt id kept before the first update call (the calls'
// Idempotency-Keys derive from it), whether update-action was answered, whether the answer is sent. A double click or a
// second tab waits for the lock and then finds the answer sent; a resend after a partial failure stores no file twice
// (same bytes, same kind: same digest) and repeats no update that was answered.
import { createHash, randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { MAX_FILE_BYTES } from '../../../shared/files.ts';
import {
  checkProofOfAddress,
  checkResidencyForm,
  checkUploadForm,
  isProofOfAddressKind,
  proofOfAddressMessage,
  residencyFormFields,
  updateActionBody,
  updateCaseBody,
  type ProofOfAddressKind,
} from '../../../shared/caseStatus.ts';
import { ACTION_OPEN, type StatusTask } from '../../../shared/contracts/statusPageContract.ts';
import type { AsPerson } from '../../../shared/asPerson.ts';
import type { AppDeps } from '../../deps.ts';
import type { CaseFile, CaseTaskState, Journey } from '../../journey.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { withRetries } from '../../upstream/retry.ts';
import { judgeAndStoreFile } from '../customerInformation/uploads.tsx';

/** At most this many files in one post (several per form; a handful of text fields besides). */
export const MAX_FILES_PER_POST = 10;
/** The file inputs: `file_<kind>` for a residency task's proof of address, `files` for the upload form. */
export const UPLOAD_FIELD = 'files';
export const proofField = (kind: ProofOfAddressKind) => `file_${kind}`;

const parser = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES_PER_POST, fields: 20, fieldSize: 4096, fieldNameSize: 100, parts: 40, headerPairs: 100 },
}).any();

export interface ReceivedFile {
  originalName: string;
  bytes: Buffer;
  /** The proof-of-address kind the file was chosen for (residency), from its input's name or the `kind` field. */
  kind?: ProofOfAddressKind;
}

/** Why a post's files did not all arrive: one over the size limit (the post was cut there), or a body we could not read. */
export type ReceiveProblem = 'size' | 'invalid';

/**
 * Parses a multipart post: the text fields become req.body (those before a refused file still arrive: the form puts them
 * first, so what was typed is kept), the files stay in memory. Empty file inputs (nothing chosen) are no file. Never rejects.
 */
export async function receiveFiles(req: Request, res: Response): Promise<{ files: ReceivedFile[]; problem?: ReceiveProblem }> {
  if (req.is('multipart/form-data') !== 'multipart/form-data') return { files: [] };
  const error = await new Promise<unknown>((resolve) => parser(req, res, (err?: unknown) => resolve(err)));
  req.body = { ...(req.body as Record<string, unknown> | undefined) };
  if (error) return { files: [], problem: error instanceof multer.MulterError && error.code === 'LIMIT_FILE_SIZE' ? 'size' : 'invalid' };
  const kindField = (req.body as Record<string, unknown>).kind;
  const files = ((req.files as Express.Multer.File[] | undefined) ?? [])
    .filter((f) => f.originalname !== '' || f.size > 0)
    .map((f): ReceivedFile => {
      const kind = f.fieldname.startsWith('file_') ? f.fieldname.slice('file_'.length) : kindField;
      return { originalName: f.originalname, bytes: f.buffer, ...(isProofOfAddressKind(kind) ? { kind } : {}) };
    });
  return { files };
}

const idField = z.string().trim().min(1).max(200);
const text = (max: number) => z.string().max(max).optional().catch(undefined);
/** The form of a task: which task and action it answers, what to do, and what was typed. */
export const taskPost = z.object({
  taskId: idField,
  actionId: idField,
  intent: z.enum(['send', 'upload', 'remove']).catch('send'),
  /** The no-JS Remove button posts the whole form with the file to forget. */
  remove: z.string().max(200).optional().catch(undefined),
  attachmentId: z.string().max(200).optional().catch(undefined),
  address: text(400),
  zipCode: text(40),
  city: text(200),
  comment: text(4000),
});
export type TaskPost = z.infer<typeof taskPost>;

/**
 * The person's own task that a post names, and whether its action still waits for an answer: open, or the one this
 * session already began to send (its action may be closed by the update-action that went through). An action of the
 * person's that is answered already (from another browser, say) is `answered`. Anything else (a task or action of
 * someone else, an unknown one) is null: the form's ids select nothing the task list does not hold.
 */
export function ownTaskFor(
  tasks: readonly StatusTask[],
  post: Pick<TaskPost, 'taskId' | 'actionId'>,
  kept: CaseTaskState | undefined,
): { task: StatusTask; answered: boolean } | null {
  const task = tasks.find((t) => t.nnxTaskId === post.taskId);
  const action = task?.actions.find((a) => a.actionId === post.actionId);
  if (!task || !action) return null;
  if (action.status === ACTION_OPEN) return { task, answered: false };
  return { task, answered: !(kept?.actionId === action.actionId && kept.attempt) };
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
export async function storeFiles(
  deps: AppDeps,
  person: AsPerson,
  task: StatusTask,
  state: CaseTaskState,
  files: readonly ReceivedFile[],
): Promise<StoreOutcome> {
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

/**
 * Sends the answer: update-action, then update-case, each retried (identification-routing-creation §9), each skipped when
 * this answer already got it through. The attempt id is kept (and the session saved) before the first call.
 */
export async function sendAnswer(req: Request, deps: AppDeps, person: AsPerson, task: StatusTask, state: CaseTaskState): Promise<void> {
  if (state.sent) return;
  if (!state.attempt) {
    state.attempt = randomUUID();
    await saveSession(req);
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
    await saveSession(req);
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
