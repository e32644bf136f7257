// Storing a received file for an upstream task, the same for the customer-information steps and the status page: judged
// by its content (shared/files.ts: type, image dimensions, PDF structure), named safely, announced with init-file-upload
// and PUT to the answered URL, both calls tried 10 times (customer-information §9). Logs never carry the file name.
import { judgeFile, safeFileName, type AllowedFileType, type FileProblem } from '../../shared/files.ts';
import type { AppDeps } from '../deps.ts';
import type { UploadedFileRef } from '../../shared/citizenship.ts';
import { UpstreamError } from '../upstream/http.ts';
import { withRetries } from '../upstream/retry.ts';

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

/** What storing a file needs: the person's init-file-upload, the object storage, the retry delay and the logger. */
export interface FileStore {
  initFileUpload(body: { fileName: string; contentType: AllowedFileType; taskId: string }): Promise<{ url: string; attachmentId: string }>;
  deps: Pick<AppDeps, 'objectStorage' | 'logger'> & { config: Pick<AppDeps['config'], 'FILE_RETRY_DELAY_MS'> };
}

/**
 * Judges a received file and stores it for the upstream task `taskId`: the stored file's reference, or the message key
 * of why not. A 401/403 of init-file-upload is thrown (the page shows session expired).
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
