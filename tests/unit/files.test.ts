// shared/files.ts: files are judged by their content and size (customer-information.md §5, §9).
import { describe, expect, it } from 'vitest';
import { contentDisposition, judgeFile, MAX_FILE_BYTES, safeFileName } from '../../shared/files.ts';
import { pdfOfSize, sampleJpeg, samplePdf, samplePng } from '../support/files.ts';

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
  ])('%s', async (_name, bytes, verdict) => {
    expect(await judgeFile(bytes)).toEqual(verdict);
  });

  it('counts the real size when the bytes were cut at the limit', async () => {
    expect(await judgeFile(samplePdf(), MAX_FILE_BYTES + 1)).toEqual({ ok: false, problem: 'size' });
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

  it('quotes the name inline', () => {
    expect(contentDisposition('pass port.pdf')).toBe('inline; filename="pass port.pdf"');
    expect(contentDisposition('a"b.pdf')).toBe('inline; filename="a_b.pdf"');
  });
});
