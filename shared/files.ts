// Uploaded files (customer-information.md §5 "Files", §9): only JPEG, PNG and PDF, at most 3,145,728 bytes, judged by
// content, never by the declared type or the name. Magic bytes alone are not enough: an image must have readable
// dimensions within a pixel budget, a PDF must load with at least one page, and no file may carry active content (HTML or
// script anywhere, or in a PDF JavaScript, a launch, form-submit or import action, or an embedded file). Pure. The three
// parsers load with the first file judged, not at start: the PDF library alone is a tenth of the server bundle.

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
 * by its content), `pixels` (an image over MAX_IMAGE_PIXELS), `damaged` (claims to be an image or PDF but its
 * dimensions or PDF structure cannot be read, or a PDF without pages), `activeContent` (HTML or script anywhere
 * in it; in a PDF JavaScript, an action that launches, submits or imports, or an embedded file).
 */
export type FileProblem = 'empty' | 'size' | 'type' | 'pixels' | 'damaged' | 'activeContent';
export type FileVerdict = { ok: true; contentType: AllowedFileType } | { ok: false; problem: FileProblem };

// Markup a browser would run if it ever took the file for HTML (content sniffing, an old viewer), looked for in
// the whole file: a reader that sniffs may look past the first kilobyte, and a polyglot can put its page anywhere.
// A real JPEG, PNG or PDF has no reason to carry it; XMP metadata (<x:xmpmeta>, <rdf:…>) does not match, and a tag
// name with the character after it is long enough that compressed data matches it by chance about once in ten
// thousand 3 MB files (5–9 fixed bytes among ~3 million positions).
const htmlMarkup = /<(?:!doctype\s+html|html|head|body|script|iframe|object|embed|svg|meta|form)[\s>/]/i;

const imageTypes: Partial<Record<AllowedFileType, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/** Judges a file by its size and its content. `size` is the real byte count (the upload may have been cut at the limit). */
export async function judgeFile(bytes: Uint8Array, size = bytes.byteLength): Promise<FileVerdict> {
  if (size > MAX_FILE_BYTES) return { ok: false, problem: 'size' };
  if (size === 0 || bytes.byteLength === 0) return { ok: false, problem: 'empty' };
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = (await fileTypeFromBuffer(bytes))?.mime as string | undefined;
  if (!allowedFileTypes.includes(sniffed as AllowedFileType)) return { ok: false, problem: 'type' };
  const contentType = sniffed as AllowedFileType;
  if (htmlMarkup.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'))) return { ok: false, problem: 'activeContent' };
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
    if (doc.getPageCount() === 0) return 'damaged';
    return hasActiveContent(doc.context.enumerateIndirectObjects().map(([, object]) => object)) ? 'activeContent' : null;
  } catch {
    // No trailer or catalogue, a broken page tree (a cyclic one overflows the stack): not a usable PDF.
    return 'damaged';
  }
}

// What a PDF reader may run or hand to the system (ISO 32000-1 §12.6 actions, §7.11.4 embedded files): a JavaScript
// action or name tree (/JS, /JavaScript), an embedded file (/EmbeddedFiles, /EF, Type /EmbeddedFile), rich media and
// XFA forms (which carry scripts), and the actions that run, launch, submit or import something. Whatever triggers them
// (/OpenAction, /AA, a link annotation) is then refused with them; a plain /OpenAction to a page is not active. Names are
// compared as the parser decodes them (#xx escapes), in every object: the catalogue's, a page's, an object stream's.
// Encrypted files keep their dictionaries' keys and names in the clear, so they are judged the same.
const activeKeys = new Set(['JS', 'JavaScript', 'EmbeddedFiles', 'EF', 'RichMedia', 'RichMediaContent', 'XFA']);
const activeActions = new Set(['JavaScript', 'Launch', 'SubmitForm', 'ImportData', 'GoToE', 'RichMediaExecute', 'Rendition', 'Sound', 'Movie']);
const activeTypes = new Set(['EmbeddedFile']);
/** How deep direct objects are followed inside one indirect object (an indirect one is judged on its own). */
const MAX_PDF_NESTING = 32;

interface PdfValue {
  /** pdf-lib's PDFDict and PDFStream (its dict): their entries. */
  dict?: { entries(): [{ decodeText(): string }, PdfValue][] };
  entries?(): [{ decodeText(): string }, PdfValue][];
  asArray?(): PdfValue[];
  decodeText?(): string;
}

/** The entries of a dictionary (or a stream's), the items of an array, else nothing. */
function childrenOf(value: PdfValue): { entries: [string, PdfValue][]; items: PdfValue[] } {
  const dict = typeof value.entries === 'function' ? value : value.dict;
  if (dict && typeof dict.entries === 'function') return { entries: dict.entries().map(([k, v]) => [k.decodeText(), v]), items: [] };
  if (typeof value.asArray === 'function') return { entries: [], items: value.asArray() };
  return { entries: [], items: [] };
}

const nameOf = (value: PdfValue | undefined): string | undefined => (value && typeof value.decodeText === 'function' ? value.decodeText() : undefined);

function isActive(value: PdfValue, depth: number): boolean {
  if (depth > MAX_PDF_NESTING) return true;
  const { entries, items } = childrenOf(value);
  for (const [key, item] of entries) {
    if (activeKeys.has(key)) return true;
    if (key === 'S' && activeActions.has(nameOf(item) ?? '')) return true;
    if (key === 'Type' && activeTypes.has(nameOf(item) ?? '')) return true;
    if (isActive(item, depth + 1)) return true;
  }
  return items.some((item) => isActive(item, depth + 1));
}

/** Whether any of a PDF's objects holds active content (pdf-lib's objects, read through the few methods used). */
function hasActiveContent(objects: unknown[]): boolean {
  return objects.some((object) => isActive(object as PdfValue, 0));
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
 * (customer-information §7, init-file-upload) says inline; we deliberately differ:
 * an attachment is saved, never rendered in our origin's context, so a file that slipped through the
 * checks still cannot run as a page.
 */
export function contentDisposition(fileName: string): string {
  return `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`;
}
