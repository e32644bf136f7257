// Object storage (customer-information.md §7): the bytes of an uploaded file are PUT to the pre-signed
// URL that init-file-upload answered, with their Content-Type and an inline Content-Disposition.
import { request } from 'undici';
import { UpstreamError } from './http.ts';
import { contentDisposition, type AllowedFileType } from '../../shared/files.ts';

export interface ObjectStorageOptions {
  timeoutMs: number;
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
      let status: number;
      try {
        const res = await request(url, {
          method: 'PUT',
          headers: { 'content-type': object.contentType, 'content-disposition': contentDisposition(object.fileName) },
          body: object.bytes,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        status = res.statusCode;
        await res.body.dump();
      } catch (err) {
        // The URL carries a signature: never put it (nor the file name) in a message that may be logged.
        throw new UpstreamError('objectStorage', 0, undefined, `objectStorage unreachable: ${(err as Error).name}`);
      }
      if (status < 200 || status >= 300) throw new UpstreamError('objectStorage', status, undefined, `objectStorage PUT answered ${status}`);
    },
  };
}
export type ObjectStorageClient = ReturnType<typeof createObjectStorageClient>;
