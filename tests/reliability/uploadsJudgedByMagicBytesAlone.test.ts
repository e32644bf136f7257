// Uploads were judged by magic bytes alone: a PDF/HTML polyglot
// (%PDF- then a web page) and a 20000 × 20000 PNG were stored and served inline; an empty file was told
// it had the wrong type. Now images must have readable dimensions within 40 megapixels and a PDF must
// load as one with at least one page (shared/files.ts); a stored file is PUT and served as an
// attachment with X-Content-Type-Options: nosniff; an empty file gets its own message. Over HTTP.
import request from 'supertest';
import { citizenshipProofUpload } from '../support/customerInformation.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { pdfHtmlPolyglot, pdfWith, pngWithDimensions, pngWithTextAfter, samplePdf } from '../support/files.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startEmbeddedStack({ FILE_RETRY_DELAY_MS: '5' });
});
afterAll(async () => stack?.stop());

type Agent = ReturnType<typeof request.agent>;

interface StoredInfo {
  key: string;
  fileName: string;
  contentType: string | null;
  contentDisposition: string | null;
  size: number | null;
}
const storedObjects = async () =>
  ((await request(stack.sandboxUrl).get('/sandbox/storage/objects').expect(200)).body as StoredInfo[]).filter((o) => o.size !== null);

async function toProof(agent: Agent): Promise<string> {
  const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'citizenship');
  const post = (body: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303);
  await post('step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=otherCitizenships&confirmed=yes');
  await post('step=CITIZENSHIP_STEP&screen=countries&intent=countries&countries=NO');
  return page;
}

const upload = (agent: Agent, page: string, bytes: Buffer, name: string, type: string) =>
  citizenshipProofUpload(agent.post(`${page}/step`), { country: 'NO', bytes, name, type });

const TYPE_MESSAGE = 'We only support PDF, PNG and JPEG, please try again';
const ACTIVE_MESSAGE = 'This file contains active content, such as scripts or attached files, which we cannot accept.';

describe('uploads judged by magic bytes alone', () => {
  it('refuses a PDF/HTML polyglot and a 20000 × 20000 PNG without storing them, tells an empty file so, and serves a stored file as a nosniff attachment', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toProof(agent);

    // Before: both answered 303 ("uploaded") and were stored.
    const polyglot = await upload(agent, page, pdfHtmlPolyglot(), 'passport.pdf', 'application/pdf');
    expect(polyglot.status).toBe(400);
    expect(polyglot.text).toContain(ACTIVE_MESSAGE);
    const huge = await upload(agent, page, pngWithDimensions(20_000, 20_000), 'scan.png', 'image/png');
    expect(huge.status).toBe(400);
    expect(huge.text).toContain(TYPE_MESSAGE);
    expect(await storedObjects()).toEqual([]);
    expect((await agent.get(page).expect(200)).text).not.toMatch(/passport\.pdf|scan\.png/);

    // Before: the type message.
    const empty = await upload(agent, page, Buffer.alloc(0), 'empty.pdf', 'application/pdf');
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('The file is empty. Choose another file.');
    expect(empty.text).not.toContain(TYPE_MESSAGE);

    // A real PDF is stored, and fetched from the storage it is a download the browser may not sniff.
    await upload(agent, page, samplePdf(), 'Pass port.pdf', 'application/pdf').expect(303);
    const stored = await storedObjects();
    expect(stored.map((o) => [o.fileName, o.contentType, o.contentDisposition])).toEqual([
      ['Pass port.pdf', 'application/pdf', 'attachment; filename="Pass port.pdf"'],
    ]);
    const served = await request(stack.sandboxUrl).get(`/sandbox/storage/${stored[0]!.key}`).expect(200);
    expect(served.headers['content-type']).toMatch(/^application\/pdf/);
    expect(served.headers['content-disposition']).toBe('attachment; filename="Pass port.pdf"');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a PDF that runs JavaScript when opened, and a PNG with a page after its first kilobyte, with their own message', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toProof(agent);
    const before = (await storedObjects()).length;
    const openAction = pdfWith({ catalog: '/OpenAction 5 0 R', objects: ['<< /S /JavaScript /JS (app.launchURL("https://evil.example")) >>'] });
    for (const [bytes, name, type] of [
      [openAction, 'passport.pdf', 'application/pdf'],
      [pngWithTextAfter(4096, '<html><body><script>alert(1)</script></body></html>'), 'passport.png', 'image/png'],
    ] as const) {
      const refused = await upload(agent, page, bytes, name, type);
      expect(refused.status, name).toBe(400);
      expect(refused.text, name).toContain(ACTIVE_MESSAGE);
    }
    expect((await storedObjects()).length).toBe(before);
    // A plain PDF still goes through.
    await upload(agent, page, samplePdf(), 'passport.pdf', 'application/pdf').expect(303);
  });
});
