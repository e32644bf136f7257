// Object storage (customer-information.md §7): the bytes of an uploaded file are PUT to the pre-signed
// URL that init-file-upload answered, with their Content-Type and a Content-Disposition the storage keeps
// and answers when the file is fetched. The spec says inline; we send attachment (shared/files.ts
// contentDisposition, a deliberate departure) so a stored file is downloaded, never rendered as a page.
import { request } from 'undici';
import { callBudget, deadlinePassed, UpstreamError, type CallObserver } from './http.ts';
import { contentDisposition, type AllowedFileType } from '../../shared/files.ts';

export interface ObjectStorageOptions {
  timeoutMs: number;
  /** Each PUT's time and status (server/infra/metrics.ts); its URL, signed, is never a label. */
  observe?: CallObserver;
}

export interface StoredObject {
  bytes: Uint8Array;
  contentType: AllowedFileType;
  /** Already sanitised (shared/files.ts safeFileName). */
  fileName: string;
}

export function createObjectStorageClient(options: ObjectStorageOptions) {
  return {
    /** PUT to a pre-signed URL; a non-2xx answer throws UpstreamError (status 0: unreachable). */
    async put(url: string, object: StoredObject): Promise<void> {
      let status = 0;
      // At most what is left of the request's deadline (server/infra/deadline.ts).
      const budget = callBudget(options.timeoutMs);
      if (!budget) throw deadlinePassed('objectStorage', 'PUT');
      const started = performance.now();
      try {
        const res = await request(url, {
          method: 'PUT',
          headers: { 'content-type': object.contentType, 'content-disposition': contentDisposition(object.fileName) },
          body: object.bytes,
          headersTimeout: budget.timeoutMs,
          bodyTimeout: budget.timeoutMs,
          signal: budget.signal,
        });
        await res.body.dump();
        status = res.statusCode;
      } catch (err) {
        if (budget.signal?.aborted) throw deadlinePassed('objectStorage', 'PUT');
        // The URL carries a signature: never put it (nor the file name) in a message that may be logged.
        throw new UpstreamError('objectStorage', 0, undefined, `objectStorage unreachable: ${(err as Error).name}`);
      } finally {
        options.observe?.({ upstream: 'objectStorage', call: 'put', seconds: (performance.now() - started) / 1000, status });
      }
      if (status < 200 || status >= 300) throw new UpstreamError('objectStorage', status, undefined, `objectStorage PUT answered ${status}`);
    },
  };
}
export type ObjectStorageClient = ReturnType<typeof createObjectStorageClient>;
