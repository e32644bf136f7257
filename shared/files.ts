// Uploaded files (customer-information.md §5 "Files", §9): only JPEG, PNG and PDF, at most 3,145,728
// bytes. The type is judged by the file's content (magic bytes), never by the declared type or the name,
// which the browser takes from the user's file system.
import { fileTypeFromBuffer } from 'file-type';

export const MAX_FILE_BYTES = 3_145_728;
export const allowedFileTypes = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type AllowedFileType = (typeof allowedFileTypes)[number];

export type FileVerdict = { ok: true; contentType: AllowedFileType } | { ok: false; problem: 'type' | 'size' | 'empty' };

/** Judges a file by its size and its content. `size` is the real byte count (the upload may have been cut at the limit). */
export async function judgeFile(bytes: Uint8Array, size = bytes.byteLength): Promise<FileVerdict> {
  if (size > MAX_FILE_BYTES) return { ok: false, problem: 'size' };
  if (size === 0) return { ok: false, problem: 'empty' };
  const sniffed = await fileTypeFromBuffer(bytes);
  const mime = sniffed?.mime as string | undefined;
  return allowedFileTypes.includes(mime as AllowedFileType) ? { ok: true, contentType: mime as AllowedFileType } : { ok: false, problem: 'type' };
}

const extensions: Record<AllowedFileType, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'application/pdf': '.pdf' };

/**
 * A file name safe to send upstream and to put in a Content-Disposition header: no path, only letters,
 * digits, dot, dash, underscore and space (other characters become _), at most 100 characters, and an
 * extension that matches the sniffed content.
 */
export function safeFileName(original: string, contentType: AllowedFileType): string {
  const base = original.split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ._-]/g, '_')
    .replace(/^[ .]+|[ .]+$/g, '')
    .slice(0, 90);
  return `${stem || 'file'}${extensions[contentType]}`;
}

/** The header the object storage keeps with the object, so the browser shows it inline (§7). */
export function contentDisposition(fileName: string): string {
  return `inline; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`;
}
