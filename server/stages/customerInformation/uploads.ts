// File uploads of the customer-information steps (customer-information.md §5 "Files", §7 init-file-upload,
// §8 storage failure): citizenship proof, proof of tax residence, residency documents.
//
// How it fits together:
// - steps.tsx calls parseMultipart(req, res) for a multipart post to the step route, before the step's
//   submit: the text fields become req.body (so `step` and the module's zod schema work as for any
//   form), the file stays in memory (at most MAX_FILE_BYTES; never written to disk) for uploadFile.
//   A too-big file, a second file or a malformed body never answers 413/500: the module gets a
//   message to show instead.
// - The form: views/components/FileUpload.tsx renders it (enctype multipart/form-data, field `file`,
//   hidden `step`, `intent=upload` plus the step's own hidden fields); removal posts `intent=remove`
//   with `attachmentId` (with JS after a modal, without JS from the confirmation screen).
// - In the module's submit:
//
//     const form = z.object({ intent: z.enum(['upload', 'remove']), attachmentId: z.string().max(100).optional(), … });
//     if (form.intent === 'upload') {
//       const result = await uploadFile(ctx, { taskId });
//       if (!result.ok) return { kind: 'render', status: 400, view: myView(ctx, { uploadError: result.message }) };
//       answers.files.push(result.file);           // keep { attachmentId, name } in ci.answers
//       return { kind: 'subStep', subStep: ctx.ci.subStep ?? 0 };
//     }
//     answers.files = removeFile(answers.files, form.attachmentId);
//
// The file is judged by its content (shared/files.ts: type, image dimensions, PDF structure), named
// safely, announced with init-file-upload and PUT to the answered URL as an attachment; both calls are
// tried 10 times (customer-information §9). Logs never carry the file name.
import type { Request, Response } from 'express';
import multer from 'multer';
import type { StepContext } from './stepModule.ts';
import { judgeFile, MAX_FILE_BYTES, safeFileName, type FileProblem } from '../../../shared/files.ts';
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

// customer-information §5 "Files" has two texts (type, size). An empty file gets its own; an image over
// the pixel budget or a file that only looks like an image or PDF is, for the person, a file of a kind we
// do not take.
const verdictMessages: Record<FileProblem, string> = {
  empty: 'fileUpload.error.empty',
  size: 'fileUpload.error.tooBig',
  type: 'fileUpload.error.type',
  pixels: 'fileUpload.error.type',
  damaged: 'fileUpload.error.type',
};

export type UploadResult = { ok: true; file: UploadedFileRef } | { ok: false; message: string };

/**
 * Checks and stores the posted file for the upstream task `taskId`. Answers the file's reference, or a
 * message for the page. A 401/403 of init-file-upload is thrown (the page shows session expired).
 */
export async function uploadFile(ctx: StepContext, { taskId }: { taskId: string }): Promise<UploadResult> {
  const { t, deps } = ctx;
  const upload = parsed.get(ctx.req) ?? {};
  if (upload.problem === 'size') return { ok: false, message: t('fileUpload.error.tooBig') };
  if (upload.problem === 'invalid') return { ok: false, message: t('fileUpload.error.failed') };
  if (!upload.file) return { ok: false, message: t('fileUpload.error.noFile') };
  const verdict = await judgeFile(upload.file.bytes);
  if (!verdict.ok) return { ok: false, message: t(verdictMessages[verdict.problem]) };
  const fileName = safeFileName(upload.file.originalName, verdict.contentType);
  const delay = deps.config.FILE_RETRY_DELAY_MS;
  const step = ctx.ci.steps[ctx.ci.current];
  let target: { url: string; attachmentId: string };
  try {
    target = await withRetries(() => deps.brokerage.initFileUpload(ctx.jwt, { fileName, contentType: verdict.contentType, taskId }), delay);
  } catch (err) {
    if (err instanceof UpstreamError && (err.status === 401 || err.status === 403)) throw err;
    deps.logger.error({ step, status: err instanceof UpstreamError ? err.status : undefined }, 'init-file-upload failed');
    return { ok: false, message: t('fileUpload.error.failed') };
  }
  try {
    await withRetries(() => deps.objectStorage.put(target.url, { bytes: upload.file!.bytes, contentType: verdict.contentType, fileName }), delay);
  } catch (err) {
    // §8: the spec's message, with the step and status only (no file name, no signed URL).
    deps.logger.error({ step, status: err instanceof UpstreamError ? err.status : undefined }, 'Failed to upload file to bucket');
    return { ok: false, message: t('fileUpload.error.failed') };
  }
  return { ok: true, file: { attachmentId: target.attachmentId, name: fileName } };
}

/** The list without the file (removing only forgets the reference; the spec has no delete call). */
export function removeFile(files: readonly UploadedFileRef[], attachmentId: string | undefined): UploadedFileRef[] {
  return files.filter((f) => f.attachmentId !== attachmentId);
}
