// Uploads over HTTP against the embedded stack (customer-information.md §5 "Files", §7): the citizenship
// step's proof upload as a plain multipart form post, judged by content, retried against a flaky
// object storage, and the stored bytes equal to the ones sent.
import request from 'supertest';
import { citizenshipProofUpload, screenOf } from '../support/customerInformation.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { pdfOfSize, samplePdf, samplePng } from '../support/files.ts';
import { identifyOverHttp } from '../support/journey.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;

beforeAll(async () => {
  stack = await startEmbeddedStack({ FILE_RETRY_DELAY_MS: '5' });
});
afterAll(async () => stack?.stop());

interface StoredInfo {
  key: string;
  attachmentId: string;
  fileName: string;
  contentType: string | null;
  contentDisposition: string | null;
  size: number | null;
}
const objects = async () => (await request(stack.sandboxUrl).get('/sandbox/storage/objects').expect(200)).body as StoredInfo[];

/** BankID over HTTP as the citizenship persona, through routing, to the citizenship step. */
async function toCitizenship(agent: Agent): Promise<string> {
  const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'citizenship');
  expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['CITIZENSHIP_STEP', 'choice']);
  return page;
}

async function toProof(agent: Agent, page: string, countries: string[]): Promise<void> {
  await agent
    .post(`${page}/step`)
    .set('sec-fetch-site', 'same-origin')
    .type('form')
    .send('step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=otherCitizenships')
    .expect(303)
    .expect('location', page);
  const dialog = await agent.get(page).expect(200);
  expect(screenOf(dialog.text)).toEqual(['CITIZENSHIP_STEP', 'dialog']);
  expect(dialog.text).toContain('We need more information about your citizenship');
  expect(dialog.text).toContain('exit=CITIZENSHIP');
  await agent
    .post(`${page}/step`)
    .set('sec-fetch-site', 'same-origin')
    .type('form')
    .send('step=CITIZENSHIP_STEP&screen=dialog&intent=choose&choice=otherCitizenships&confirmed=yes')
    .expect(303);
  expect(screenOf((await agent.get(page)).text)).toEqual(['CITIZENSHIP_STEP', 'countries']);
  await agent
    .post(`${page}/step`)
    .set('sec-fetch-site', 'same-origin')
    .type('form')
    .send(['step=CITIZENSHIP_STEP&screen=countries&intent=countries', ...countries.map((c) => `countries=${c}`)].join('&'))
    .expect(303);
  expect(screenOf((await agent.get(page)).text)).toEqual(['CITIZENSHIP_STEP', 'proof']);
}

const upload = (agent: Agent, page: string, country: string, bytes: Buffer, name: string, type = 'application/pdf') =>
  citizenshipProofUpload(agent.post(`${page}/step`), { country, bytes, name, type });

describe('citizenship proof uploads', () => {
  it('refuses bad files with the spec texts, stores good ones after retries, and finishes', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toCitizenship(agent);
    await toProof(agent, page, ['SE', 'NO']);
    const proof = await agent.get(page).expect(200);
    expect(proof.text).toContain('Proof of citizenship');
    expect(proof.text).toContain('Norway');
    expect(proof.text).not.toContain('proof-SE');
    // Continue stays disabled until Norway has a file; the server refuses it too.
    expect(proof.text).toMatch(/<button type="submit" class="btn" disabled=""/);
    await agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send('step=CITIZENSHIP_STEP&screen=proof&intent=finish').expect(400);

    // Judged by content: text named .pdf is refused, a PNG named .pdf is taken as a PNG.
    const text = await upload(agent, page, 'NO', Buffer.from('not a pdf\n'), 'passport.pdf').expect(400);
    expect(text.text).toContain('We only support PDF, PNG and JPEG, please try again');
    const tooBig = await upload(agent, page, 'NO', pdfOfSize(3_145_729), 'big.pdf').expect(400);
    expect(tooBig.text).toContain('The file selected is too big, please try again');
    expect(await objects()).toEqual([]);

    await upload(agent, page, 'NO', samplePng(), 'scan.pdf').expect(303);
    // The storage fails 3 times, then takes the PDF (retried, 10 attempts at most).
    await request(stack.sandboxUrl).post('/sandbox/storage/fail-next').send({ count: 3 }).expect(204);
    const pdf = pdfOfSize(3_145_728);
    await upload(agent, page, 'NO', pdf, 'Pass "port".pdf').expect(303);

    const stored = await objects();
    expect(stored.map((o) => [o.fileName, o.contentType, o.size])).toEqual([
      ['scan.png', 'image/png', samplePng().length],
      ['Pass _port_.pdf', 'application/pdf', pdf.length],
    ]);
    // Stored as an attachment (a deliberate departure: the spec said inline).
    expect(stored[1]!.contentDisposition).toBe('attachment; filename="Pass _port_.pdf"');
    const bytes = await request(stack.sandboxUrl)
      .get(`/sandbox/storage/${stored[1]!.key}`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(Buffer.compare(bytes.body as Buffer, pdf)).toBe(0);

    const listed = await agent.get(page).expect(200);
    expect(listed.text).toContain('scan.png');
    expect(listed.text).toContain('Pass _port_.pdf');

    // Removing asks first (its own screen without JS), then forgets the file.
    const removeScreen = await agent.get(`${page}?remove=${stored[0]!.attachmentId}&slot=NO`).expect(200);
    expect(removeScreen.text).toContain('Do you want to remove this file?');
    expect(removeScreen.text).toContain('Yes, remove');
    expect(removeScreen.text).toContain('No, keep it');
    await agent
      .post(`${page}/step`)
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send(`step=CITIZENSHIP_STEP&screen=proof&slot=NO&intent=remove&attachmentId=${stored[0]!.attachmentId}`)
      .expect(303);
    const after = await agent.get(page).expect(200);
    expect(after.text).not.toContain('scan.png');

    await agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send('step=CITIZENSHIP_STEP&screen=proof&intent=finish').expect(303);
    expect(screenOf((await agent.get(page)).text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    const tasks = (await request(stack.sandboxUrl).get('/sandbox/citizenship/tasks').expect(200)).body as Array<{ countryCode: string; attachments: string[] }>;
    expect(tasks).toEqual([expect.objectContaining({ countryCode: 'NO', attachments: [stored[1]!.attachmentId] })]);
  });

  it('shows an upload failure when the storage keeps failing, and stays on the step', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toCitizenship(agent);
    await toProof(agent, page, ['DK']);
    await request(stack.sandboxUrl).post('/sandbox/storage/fail-next').send({ count: 10 }).expect(204);
    const failed = await upload(agent, page, 'DK', samplePdf(), 'id.pdf').expect(400);
    expect(failed.text).toContain('The file could not be uploaded, please try again');
    expect(screenOf(failed.text)).toEqual(['CITIZENSHIP_STEP', 'proof']);
    // The 11th PUT goes through again.
    await upload(agent, page, 'DK', samplePdf(), 'id.pdf').expect(303);
  });

  // On a slow phone a person picks the second country's file while the first is still uploading: the
  // browser drops the first request, the server still finishes it. Each must see the other's file.
  it('keeps both files when two uploads overlap', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toCitizenship(agent);
    await toProof(agent, page, ['NO', 'DK']);
    await request(stack.sandboxUrl)
      .post('/sandbox/faults')
      .send({ method: 'POST', path: '/api/2/onboarding/init-file-upload', delayMs: 800, count: 1 })
      .expect(204);
    const first = upload(agent, page, 'NO', samplePdf(), 'passport-no.pdf').then((r) => r);
    await new Promise((r) => setTimeout(r, 200));
    const second = await upload(agent, page, 'DK', samplePdf(), 'passport-dk.pdf');
    expect(second.status).toBe(303);
    expect((await first).status).toBe(303);
    const listed = await agent.get(page).expect(200);
    expect(listed.text).toContain('passport-no.pdf');
    expect(listed.text).toContain('passport-dk.pdf');
  });

  it('never answers 500 to a broken multipart body', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toCitizenship(agent);
    const res = await agent
      .post(`${page}/step`)
      .set('sec-fetch-site', 'same-origin')
      .set('content-type', 'multipart/form-data; boundary=xyz')
      .send(
        '--xyz\r\nContent-Disposition: form-data; name="step"\r\n\r\nCITIZENSHIP_STEP\r\n--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-',
      );
    expect(res.status).toBeLessThan(500);
  });
});
