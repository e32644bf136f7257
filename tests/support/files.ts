// Real file bytes for upload tests: a small valid PDF (with its cross-reference table), a 1×1 PNG and a
// 1×1 JPEG, plus a PDF padded to an exact size.

/** A minimal, valid one-page PDF. */
export function samplePdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
    '<< /Length 35 >>\nstream\nBT /F1 12 Tf 20 100 Td (Pass) Tj ET\nendstream',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A PDF of exactly `size` bytes (the sample, padded with a comment before its end). */
export function pdfOfSize(size: number): Buffer {
  const pdf = samplePdf();
  return Buffer.concat([pdf, Buffer.from(`%${' '.repeat(size - pdf.length - 2)}\n`, 'latin1')]);
}

export const samplePng = (): Buffer =>
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export const sampleJpeg = (): Buffer =>
  Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  );

// CRC-32 (PNG chunk checksums), table-less: test files are tiny.
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A PNG of the given dimensions as far as its header says: signature, IHDR (8-bit RGBA), an empty IDAT
 * and IEND. Readers of dimensions (image-size) only look at IHDR, so 20000 × 20000 costs 57 bytes here;
 * an image viewer would try to allocate 1.6 GB for it.
 */
export function pngWithDimensions(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), pngChunk('IHDR', ihdr), pngChunk('IDAT', Buffer.alloc(0)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** PDF magic bytes followed by a web page: sniffed as a PDF, rendered as HTML by a browser that sniffs. */
export const pdfHtmlPolyglot = (): Buffer =>
  Buffer.from('%PDF-1.4\n<html><body><script>fetch("/onboarding").then((r) => r.text()).then(alert)</script></body></html>\n', 'latin1');

/** A valid one-page PDF that also carries a page in a comment right after its header. */
export function pdfWithHtmlComment(): Buffer {
  const pdf = samplePdf().toString('latin1');
  const html = '%<html><script>alert(1)</script></html>\n';
  // Shifting every object by the comment's length would need a new xref table; PDF readers (and
  // @cantoo/pdf-lib) find objects without it, so the comment goes after the header line as polyglots do.
  return Buffer.from(pdf.replace('%PDF-1.4\n', `%PDF-1.4\n${html}`), 'latin1');
}

/** A PDF whose page tree is empty. */
export const pdfWithoutPages = (): Buffer =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Size 3 /Root 1 0 R >>\n%%EOF\n',
    'latin1',
  );

/** JPEG magic bytes without any frame header: no dimensions to read. */
export const jpegWithoutFrame = (): Buffer => Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64, 0x20)]);

/**
 * The sample PDF's one page with more in it: `catalog` entries added to the catalogue (object 1), and `objects` added
 * as objects 5, 6, … (the sample's are 1–4), each with its offset in the cross-reference table.
 */
export function pdfWith({ catalog = '', objects = [] }: { catalog?: string; objects?: string[] }): Buffer {
  const all = [
    `<< /Type /Catalog /Pages 2 0 R ${catalog} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
    '<< /Length 35 >>\nstream\nBT /F1 12 Tf 20 100 Td (Pass) Tj ET\nendstream',
    ...objects,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  all.forEach((obj, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${all.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The sample PNG with a tEXt chunk after `padding` bytes of another ancillary chunk: text well past the first kilobyte. */
export function pngWithTextAfter(padding: number, text: string): Buffer {
  const png = samplePng();
  // Ancillary chunks go before IEND (its 12 bytes end the file).
  const end = png.length - 12;
  return Buffer.concat([
    png.subarray(0, end),
    pngChunk('zzZz', Buffer.alloc(padding, 0x41)),
    pngChunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1')),
    png.subarray(end),
  ]);
}
