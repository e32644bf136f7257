// Uploaded files (customer-information.md §5 "Files", §9): only JPEG, PNG and PDF, at most 3,145,728
// bytes. The type is judged by the file's content, never by the declared type or the name, which the
// browser takes from the user's file system. Magic bytes alone are not enough (issue "Hardening what
// exists", item 10): an image must have readable dimensions within a pixel budget, a PDF must load as a
// PDF with at least one page, and no file may carry HTML in its first bytes (a PDF/HTML polyglot). Pure:
// the libraries only parse the bytes in memory.
// The three parsers load with the first file judged, not at every web process's start (issue 23 item 2: the PDF
// library alone is a tenth of the server bundle).

export const MAX_FILE_BYTES = 3_145_728;
export const allowedFileTypes = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type AllowedFileType = (typeof allowedFileTypes)[number];

/**
 * At most 40 megapixels per image. An A4 page scanned at 600 dpi is 35 MP and phone cameras save 12–24 MP
 * by default (a larger photo does not fit in 3 MB anyway), so no real document is refused; above it a
 * small, highly compressed file decodes into hundreds of megabytes for whoever opens it (a 20000 × 20000
 * PNG is 1.6 GB of pixels).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * Why a file is refused: `empty` (no bytes), `size` (over MAX_FILE_BYTES), `type` (not JPEG, PNG or PDF
 * by its content, or HTML inside), `pixels` (an image over MAX_IMAGE_PIXELS), `damaged` (claims to be an
 * image or PDF but its dimensions or PDF structure cannot be read, or a PDF without pages).
 */
export type FileProblem = 'empty' | 'size' | 'type' | 'pixels' | 'damaged';
export type FileVerdict = { ok: true; contentType: AllowedFileType } | { ok: false; problem: FileProblem };

// Markup a browser would run if it ever took the file for HTML (content sniffing, an old viewer). A real
// JPEG, PNG or PDF has no reason to carry it near its start; XMP metadata (<x:xmpmeta>, <rdf:…>) does not
// match, and a tag name with the character after it is too long to turn up in binary data by chance.
const htmlMarkup = /<(?:!doctype\s+html|html|head|body|script|iframe|object|embed|svg|meta|form)[\s>/]/i;
const HTML_SCAN_BYTES = 1024;

const imageTypes: Partial<Record<AllowedFileType, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/** Judges a file by its size and its content. `size` is the real byte count (the upload may have been cut at the limit). */
export async function judgeFile(bytes: Uint8Array, size = bytes.byteLength): Promise<FileVerdict> {
  if (size > MAX_FILE_BYTES) return { ok: false, problem: 'size' };
  if (size === 0 || bytes.byteLength === 0) return { ok: false, problem: 'empty' };
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = (await fileTypeFromBuffer(bytes))?.mime as string | undefined;
  if (!allowedFileTypes.includes(sniffed as AllowedFileType)) return { ok: false, problem: 'type' };
  const contentType = sniffed as AllowedFileType;
  if (htmlMarkup.test(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HTML_SCAN_BYTES)).toString('latin1'))) {
    return { ok: false, problem: 'type' };
  }
  const problem = contentType === 'application/pdf' ? await pdfProblem(bytes) : await imageProblem(bytes, imageTypes[contentType]!);
  return problem ? { ok: false, problem } : { ok: true, contentType };
}

async function imageProblem(bytes: Uint8Array, expectedType: string): Promise<FileProblem | null> {
  const { imageSize } = await import('image-size');
  let dimensions: { width: number; height: number; type?: string };
  try {
    // A copy of its own: image-size reads a truncated header past the end of a view into whatever
    // shares its memory (Node's buffer pool); on an exact-size buffer it throws instead.
    dimensions = imageSize(Uint8Array.from(bytes));
  } catch {
    return 'damaged';
  }
  const { width, height, type } = dimensions;
  if (type !== expectedType || !(width > 0) || !(height > 0)) return 'damaged';
  return width * height > MAX_IMAGE_PIXELS ? 'pixels' : null;
}

async function pdfProblem(bytes: Uint8Array): Promise<FileProblem | null> {
  const { PDFDocument } = await import('@cantoo/pdf-lib');
  try {
    // Encrypted PDFs are taken when their structure reads: bank statements are often owner-password
    // protected (printing, copying) and open without a password. Their pages are still counted.
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    return doc.getPageCount() > 0 ? null : 'damaged';
  } catch {
    // No trailer or catalogue, a broken page tree (a cyclic one overflows the stack): not a usable PDF.
    return 'damaged';
  }
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

/**
 * The header the object storage keeps with the object and answers when the file is fetched. The spec
 * (customer-information §7, init-file-upload) says inline; the hardening issue (item 10) overrides it:
 * an attachment is saved, never rendered in our origin's context, so a file that slipped through the
 * checks still cannot run as a page.
 */
export function contentDisposition(fileName: string): string {
  return `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`;
}
