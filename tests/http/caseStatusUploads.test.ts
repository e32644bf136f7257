// The status page's files and failures over HTTP (identification-routing-creation §2 "Application status page", §7, §9;
// server/stages/caseStatus/): the island's one-file uploads and removals (JSON), a file over the size limit, an expired
// token renewed on the way, and a brokerage session that has ended (session expired, what was typed kept).
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pdfOfSize, samplePdf, samplePng } from '../support/files.ts';
import { answered, postTask, readOut, taskOf, toCaseStatus, stack, useCaseStatusStack } from '../support/caseStatus.ts';
import { decode } from '../support/serverHttp.ts';

useCaseStatusStack();

const expire = (nationalId: string, refresh: boolean) => request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId, refresh }).expect(200);

describe('the status page with JavaScript (JSON answers)', () => {
  it('uploads one file per request with its kind, lists the stored files, and removes one before sending', async () => {
    const agent = request.agent(stack.webUrl);
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseResidency');
    const ids = await taskOf(stack.sandboxUrl, persona, 'RESIDENCY');
    const upload = (name: string, bytes: Buffer, kind: string) =>
      postTask(agent, { ...ids, intent: 'upload', kind }, [{ field: 'files', bytes, name }]).set('accept', 'application/json');
    const first = await upload('lease.pdf', samplePdf(), 'housingContract').expect(200);
    expect(first.body).toEqual({ files: [{ attachmentId: expect.any(String), fileName: 'lease.pdf', kind: 'housingContract' }] });
    const second = await upload('bank.png', samplePng(), 'bankStatement').expect(200);
    expect((second.body as { files: unknown[] }).files).toHaveLength(2);
    const refused = await upload('a.txt', Buffer.from('plain text'), 'bankStatement').expect(422);
    expect(refused.body).toEqual({ error: 'We only support PDF, PNG and JPEG, please try again' });

    const removed = await agent
      .post('/onboarding/case-status/task')
      .set('sec-fetch-site', 'same-origin')
      .set('accept', 'application/json')
      .type('form')
      .send({ ...ids, intent: 'remove', attachmentId: (second.body as { files: { attachmentId: string }[] }).files[1]!.attachmentId })
      .expect(200);
    expect(removed.body).toEqual(first.body);

    // Send carries no file: the stored ones are the answer's.
    await postTask(agent, { ...ids, intent: 'send', address: 'Gran Vía 1', zipCode: '28013', city: 'Madrid' }).expect(303);
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.actionUpdates).toEqual([{ status: 200, body: { actionId: ids.actionId, message: 'housingContract: lease.pdf' } }]);
    expect(answered(out.caseUpdates)).toBe(1);
  });

  it('refuses a file over 3,145,728 bytes with the spec text', async () => {
    const agent = request.agent(stack.webUrl);
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseTaxResidence');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_RESIDENCE');
    const page = decode(
      (await postTask(agent, { ...ids, comment: 'Big one' }, [{ field: 'files', bytes: pdfOfSize(3_145_729), name: 'big.pdf' }]).expect(422)).text,
    );
    expect(page).toContain('The file selected is too big, please try again');
    expect(page).toContain('Big one');
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).uploads).toEqual([]);
  });
});

describe('the status page when the brokerage session runs out', () => {
  it('renews an expired access token on the way (the page and the send work)', async () => {
    const agent = request.agent(stack.webUrl);
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseTaxLiability');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    await expire(persona.nationalId, false);
    expect((await agent.get('/onboarding/case-status').expect(200)).text).toContain(ids.taskId);
    await expire(persona.nationalId, false);
    await postTask(agent, ids, [{ field: 'files', bytes: samplePdf(), name: 'tax.pdf' }]).expect(303);
    expect(answered((await readOut(stack.sandboxUrl, persona.nationalId)).caseUpdates)).toBe(1);
  });

  it('an ended session: a post says so and offers to identify again; so does the page', async () => {
    const agent = request.agent(stack.webUrl);
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseTaxLiability');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    // Stored first, then the session ends before Send.
    await postTask(agent, { ...ids, intent: 'upload' }, [{ field: 'files', bytes: samplePdf(), name: 'tax.pdf' }])
      .set('accept', 'application/json')
      .expect(200);
    await expire(persona.nationalId, true);
    // The task list itself cannot be read any more: the post says so and offers to identify again; so does the page.
    const said = decode((await postTask(agent, { ...ids, comment: 'Typed before' }).expect(401)).text);
    expect(said).toContain('Your session has expired');
    expect(said).toContain('href="/onboarding"');
    const page = decode((await agent.get('/onboarding/case-status').expect(401)).text);
    expect(page).toContain('Your session has expired');
    expect(page).toContain('<a href="/onboarding">Identify again</a>');
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).actionUpdates).toEqual([]);
  });

  it('a send refused with 401 after the list was read shows session expired with the typed comment kept', async () => {
    const agent = request.agent(stack.webUrl);
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseTaxLiability');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'PUT', path: '/api/2/onboarding/update-action', status: 403, count: 1 }).expect(204);
    const page = decode(
      (await postTask(agent, { ...ids, comment: 'Typed before' }, [{ field: 'files', bytes: samplePdf(), name: 'tax.pdf' }]).expect(401)).text,
    );
    expect(page).toContain('Your session has expired');
    expect(page).toContain('Identify again');
    expect(page).toContain('Typed before');
    expect(page).toContain('tax.pdf');
  });
});
