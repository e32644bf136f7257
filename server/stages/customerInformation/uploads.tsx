// File uploads of the customer-information steps (customer-information.md §5 "Files", §7 init-file-upload,
// customer-information §8 storage failure): citizenship proof, proof of tax residence, residency documents.
//
// How it fits together:
// - customerInformationPage.tsx calls parseMultipart(req, res) for a multipart post to the step route, before the step's
//   submit: the text fields become req.body (so `step` and the module's zod schema work as for any
//   form), the file stays in memory (at most MAX_FILE_BYTES; never written to disk) for uploadFile.
//   A too-big file, a second file or a malformed body never answers 413/500: the module gets a
//   message to show instead.
// - The screen: uploadScreen (below) is the one upload screen every step uses. It renders
//   views/components/UploadScreen.tsx (a card per slot, each with FileUpload), posts `intent=upload`
//   with the slot (multipart), `intent=remove` with slot and attachmentId (with JS after a modal,
//   without JS from the ?remove=…&slot=… confirmation screen) and `intent=finish`, which continues
//   once every required slot has a file. A step only says what its slots are and what Continue does.
//
// The file is judged by its content (shared/files.ts: type, image dimensions, PDF structure), named
// safely, announced with init-file-upload and PUT to the answered URL as an attachment; both calls are
// tried 10 times (customer-information §9). Logs never carry the file name.
import type { Request, Response } from 'express';
import multer from 'multer';
import { z } from 'zod';
import type { ReactElement } from 'react';
import { RemoveFileScreen } from '../../../views/components/UploadScreen.tsx';
import { stepOf, type Screen, type ScreenOutcome, type StepContext } from './stepModule.ts';
import { judgeFile, MAX_FILE_BYTES, safeFileName, type AllowedFileType, type FileProblem } from '../../../shared/files.ts';
import type { AppDeps } from '../../deps.ts';
import type { UploadedFileRef } from '../../../shared/citizenship.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { withRetries } from '../../upstream/retry.ts';

export type { UploadedFileRef };

/** The form field of the file. */
export const FILE_FIELD = 'file';

interface ParsedUpload {
  file?: { originalName: string; bytes: Buffer };
  /** Why no usable file arrived: bigger than the limit, or a body we could not read. */
  problem?: 'size' | 'invalid';
}

const parsed = new WeakMap<Request, ParsedUpload>();

// One file per post, a handful of small text fields: a post can never hold much memory.
const parser = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 20, fieldSize: 2048, fieldNameSize: 100, parts: 22, headerPairs: 100 },
}).single(FILE_FIELD);

export function isMultipart(req: Request): boolean {
  return req.is('multipart/form-data') === 'multipart/form-data';
}

/** Parses a multipart post into req.body (text fields, plain object) and the file for uploadFile. Never rejects. */
export async function parseMultipart(req: Request, res: Response): Promise<void> {
  const error = await new Promise<unknown>((resolve) => parser(req, res, (err?: unknown) => resolve(err)));
  const result: ParsedUpload = {};
  if (error) result.problem = error instanceof multer.MulterError && error.code === 'LIMIT_FILE_SIZE' ? 'size' : 'invalid';
  else if (req.file) result.file = { originalName: req.file.originalname, bytes: req.file.buffer };
  // Multer's body has no prototype; the page's form check wants a plain record of strings.
  req.body = { ...(req.body as Record<string, unknown> | undefined) };
  parsed.set(req, result);
}

// customer-information §5 "Files" has two texts (type, size). An empty file gets its own, and so does one with
// active content (scripts, actions, attached files), which the person can save again without them; an image over
// the pixel budget or a file that only looks like an image or PDF is, for the person, a file of a kind we do not take.
export const verdictMessages: Record<FileProblem, string> = {
  empty: 'fileUpload.error.empty',
  size: 'fileUpload.error.tooBig',
  type: 'fileUpload.error.type',
  pixels: 'fileUpload.error.type',
  damaged: 'fileUpload.error.type',
  activeContent: 'fileUpload.error.activeContent',
};

export type UploadResult = { ok: true; file: UploadedFileRef } | { ok: false; message: string };

/** What storing a file needs: the person's init-file-upload, the object storage, the retry delay and the logger. */
export interface FileStore {
  initFileUpload(body: { fileName: string; contentType: AllowedFileType; taskId: string }): Promise<{ url: string; attachmentId: string }>;
  deps: Pick<AppDeps, 'objectStorage' | 'logger'> & { config: Pick<AppDeps['config'], 'FILE_RETRY_DELAY_MS'> };
}

/**
 * Judges a received file by its content and stores it for the upstream task `taskId` (init-file-upload, then the PUT of
 * the bytes, each tried 10 times): the stored file's reference, or the message key of why not. A 401/403 of
 * init-file-upload is thrown (the page shows session expired). The customer-information steps and the application status
 * page (server/stages/caseStatus/) both store files through it. Logs never carry the file name.
 */
export async function judgeAndStoreFile(
  store: FileStore,
  file: { originalName: string; bytes: Buffer },
  taskId: string,
  logFields: Record<string, unknown>,
): Promise<{ ok: true; file: UploadedFileRef } | { ok: false; messageKey: string }> {
  const { deps } = store;
  const verdict = await judgeFile(file.bytes);
  if (!verdict.ok) return { ok: false, messageKey: verdictMessages[verdict.problem] };
  const fileName = safeFileName(file.originalName, verdict.contentType);
  const delay = deps.config.FILE_RETRY_DELAY_MS;
  let target: { url: string; attachmentId: string };
  try {
    target = await withRetries(() => store.initFileUpload({ fileName, contentType: verdict.contentType, taskId }), delay);
  } catch (err) {
    if (err instanceof UpstreamError && (err.status === 401 || err.status === 403)) throw err;
    deps.logger.error({ ...logFields, status: err instanceof UpstreamError ? err.status : undefined }, 'init-file-upload failed');
    return { ok: false, messageKey: 'fileUpload.error.failed' };
  }
  try {
    await withRetries(() => deps.objectStorage.put(target.url, { bytes: file.bytes, contentType: verdict.contentType, fileName }), delay);
  } catch (err) {
    // customer-information §8: the spec's message, with the step and status only (no file name, no signed URL).
    deps.logger.error({ ...logFields, status: err instanceof UpstreamError ? err.status : undefined }, 'Failed to upload file to bucket');
    return { ok: false, messageKey: 'fileUpload.error.failed' };
  }
  return { ok: true, file: { attachmentId: target.attachmentId, name: fileName } };
}

/**
 * Checks and stores the posted file for the upstream task `taskId`. Answers the file's reference, or a
 * message for the page. A 401/403 of init-file-upload is thrown (the page shows session expired).
 */
export async function uploadFile(ctx: StepContext<string>, { taskId }: { taskId: string }): Promise<UploadResult> {
  const { t, deps } = ctx;
  const upload = parsed.get(ctx.req) ?? {};
  if (upload.problem === 'size') return { ok: false, message: t('fileUpload.error.tooBig') };
  if (upload.problem === 'invalid') return { ok: false, message: t('fileUpload.error.failed') };
  if (!upload.file) return { ok: false, message: t('fileUpload.error.noFile') };
  const stored = await judgeAndStoreFile({ initFileUpload: (body) => ctx.brokerage.initFileUpload(body), deps }, upload.file, taskId, {
    step: ctx.ci.steps[ctx.ci.current],
  });
  return stored.ok ? stored : { ok: false, message: t(stored.messageKey) };
}

/** The list without the file (removing only forgets the reference; the spec has no delete call). */
export function removeFile(files: readonly UploadedFileRef[], attachmentId: string | undefined): UploadedFileRef[] {
  return files.filter((f) => f.attachmentId !== attachmentId);
}

/** One place files go: a country's proof, the residency documents. */
export interface UploadSlot {
  key: string;
  /** The upstream task the files are uploaded to; a slot without one takes no upload (back to the screen). */
  taskId?: string;
  files: readonly UploadedFileRef[];
  /** Continue waits for a file here. */
  required: boolean;
}

export interface UploadScreenErrors {
  /** The slot an upload failed for, and why. */
  slot?: string;
  upload?: string;
  /** Continue pressed before every required slot had a file. */
  page?: string;
}

export interface UploadScreenSpec<S extends string> {
  slots(ctx: StepContext<S>): UploadSlot[];
  /** Stores the uploaded file's reference, or the list without the removed one, in the step's answers. */
  setFiles(ctx: StepContext<S>, slot: string, files: UploadedFileRef[]): void;
  /** The screen's view: views/components/UploadScreen.tsx with the step's texts. */
  view(ctx: StepContext<S>, errors: UploadScreenErrors): ReactElement | Promise<ReactElement>;
  /** The message when Continue comes before every required slot has a file. */
  missing(ctx: StepContext<S>): string;
  /** Continue with every required slot filled: submit the attachments and say where to go. */
  finish(ctx: StepContext<S>, input: { enhanced?: 'yes' }): Promise<ScreenOutcome<S>>;
  available?(ctx: StepContext<S>): boolean;
}

const slotKey = z.string().min(1).max(100);
const uploadScreenInput = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('upload'), slot: slotKey }),
  z.object({ intent: z.literal('remove'), slot: slotKey, attachmentId: z.string().min(1).max(100) }),
  // Set by the page's JavaScript (views/components/ScriptMarker.tsx), for steps whose refusal opens a modal.
  z.object({ intent: z.literal('finish'), enhanced: z.literal('yes').optional().catch(undefined) }),
]);

/** The no-JS "Do you want to remove this file?" screen: GET ?remove=<attachmentId>&slot=<key> (changes nothing). */
const removeQuery = z.object({ remove: z.string().min(1).max(100), slot: slotKey });

/** The file a removal link asks about, if it is one of this screen's. */
function fileToRemove(ctx: StepContext<string>, slots: readonly UploadSlot[]): { slot: string; file: UploadedFileRef } | null {
  const query = removeQuery.safeParse(ctx.req.query);
  if (!query.success) return null;
  const file = slots.find((s) => s.key === query.data.slot)?.files.find((f) => f.attachmentId === query.data.remove);
  return file ? { slot: query.data.slot, file } : null;
}

/** The no-JS removal link of a file on an upload screen. */
export const removeHref = (ctx: StepContext<string>) => (slot: string, attachmentId: string) =>
  `${ctx.basePath}?remove=${encodeURIComponent(attachmentId)}&slot=${encodeURIComponent(slot)}`;

/** The upload screen: pick, upload, remove, and Continue once every required slot has a file. */
export function uploadScreen<S extends string>(spec: UploadScreenSpec<S>): Screen<S> {
  const { screen, goTo, again } = stepOf<S>();
  return screen({
    input: uploadScreenInput,
    view(ctx) {
      // Without JavaScript, "Do you want to remove this file?" is asked on a screen of its own (GET ?remove=…&slot=…).
      const removal = fileToRemove(ctx, spec.slots(ctx));
      if (removal)
        return <RemoveFileScreen t={ctx.t} action={ctx.action} fields={ctx.fields()} slot={removal.slot} file={removal.file} keepHref={ctx.basePath} />;
      return spec.view(ctx, {});
    },
    // A post of the screen without a known intent: the screen with what Continue still waits for.
    invalid: async (ctx) => again(await spec.view(ctx, { page: spec.missing(ctx) })),
    ...(spec.available ? { available: spec.available } : {}),
    async submit(ctx, input) {
      const slots = spec.slots(ctx);
      const slot = 'slot' in input ? slots.find((s) => s.key === input.slot) : undefined;
      switch (input.intent) {
        case 'upload': {
          if (!slot?.taskId) return goTo(ctx.screen);
          const result = await uploadFile(ctx, { taskId: slot.taskId });
          if (!result.ok) return again(await spec.view(ctx, { slot: slot.key, upload: result.message }));
          spec.setFiles(ctx, slot.key, [...slot.files, result.file]);
          return goTo(ctx.screen);
        }
        case 'remove':
          if (slot) spec.setFiles(ctx, slot.key, removeFile(slot.files, input.attachmentId));
          return goTo(ctx.screen);
        case 'finish':
          if (slots.some((s) => s.required && s.files.length === 0)) return again(await spec.view(ctx, { page: spec.missing(ctx) }));
          return spec.finish(ctx, input);
      }
    },
  });
}
