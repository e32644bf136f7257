// The status page's unsent answer outlives the session (server/infra/caseDrafts.ts): the comment and files a person
// entered are there again after identifying again, in a fresh browser and after their session ended, until sent (once);
// another person identifying in the same browser never sees them.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../support/files.ts';
import { answered, postTask, readOut, taskOf, toCaseStatus, stack, useCaseStatusStack } from '../support/caseStatus.ts';
import { decode } from '../support/serverHttp.ts';

type Agent = ReturnType<typeof request.agent>;

useCaseStatusStack();

const agentOf = (): Agent => request.agent(stack.webUrl);
const COMMENT = 'Kept across identifications';
const expire = (nationalId: string) => request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId, refresh: true }).expect(200);
const pageOf = async (agent: Agent, status = 200) => decode((await agent.get('/onboarding/case-status').expect(status)).text);

describe('the status page after identifying again', () => {
  it('shows the comment and the uploaded file again (a fresh browser, an ended session), then sends the answer once', async () => {
    const first = agentOf();
    const persona = await toCaseStatus(first, stack.sandboxUrl, 'openCase');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    // Typed, refused for want of a file (nothing sent), then a file uploaded by the island.
    await postTask(first, { ...ids, comment: COMMENT }).expect(422);
    await postTask(first, { ...ids, intent: 'upload' }, [{ field: 'files', bytes: samplePdf(), name: 'kept.pdf' }])
      .set('accept', 'application/json')
      .expect(200);

    const second = agentOf();
    await toCaseStatus(second, stack.sandboxUrl, 'openCase');
    const again = await pageOf(second);
    expect(again).toContain(COMMENT);
    expect(again).toContain('kept.pdf');

    // The brokerage session ends; identifying again in the same browser finds it all still there.
    await expire(persona.nationalId);
    expect(await pageOf(second, 401)).toContain('Your session has expired');
    await toCaseStatus(second, stack.sandboxUrl, 'openCase');
    const afterExpiry = await pageOf(second);
    expect(afterExpiry).toContain(COMMENT);
    expect(afterExpiry).toContain('kept.pdf');

    // Send carries the comment as the form shows it and no file: the kept file is the answer's.
    await postTask(second, { ...ids, comment: COMMENT })
      .expect(303)
      .expect('location', '/onboarding/case-status?sent=1#case-sent');
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.uploads.map((u) => u.fileName)).toEqual(['kept.pdf']);
    expect(out.actionUpdates).toEqual([{ status: 200, body: { actionId: ids.actionId, message: COMMENT } }]);
    expect(answered(out.caseUpdates)).toEqual(1);

    // Sent: the draft is gone; the first browser (its brokerage session ended) records nothing again.
    const third = agentOf();
    await toCaseStatus(third, stack.sandboxUrl, 'openCase');
    expect(await pageOf(third)).not.toContain(COMMENT);
    await postTask(first, { ...ids, comment: COMMENT }).expect(401);
    const after = await readOut(stack.sandboxUrl, persona.nationalId);
    expect([answered(after.actionUpdates), answered(after.caseUpdates)]).toEqual([1, 1]);
  });

  it('keeps a residency answer’s typed address and its proof', async () => {
    const first = agentOf();
    const persona = await toCaseStatus(first, stack.sandboxUrl, 'caseResidency');
    const ids = await taskOf(stack.sandboxUrl, persona, 'RESIDENCY');
    await postTask(first, { ...ids, intent: 'upload', kind: 'housingContract' }, [{ field: 'files', bytes: samplePdf(), name: 'lease.pdf' }])
      .set('accept', 'application/json')
      .expect(200);
    await postTask(first, { ...ids, address: ' ', zipCode: '1100-048', city: 'Porto' }).expect(422);
    const second = agentOf();
    await toCaseStatus(second, stack.sandboxUrl, 'caseResidency');
    const page = await pageOf(second);
    expect(page).toContain('value="Porto"');
    expect(page).toContain('value="1100-048"');
    expect(page).toContain('lease.pdf');
  });

  it('another person identifying in the same browser never sees the first one’s draft; the first finds it again', async () => {
    const shared = agentOf();
    const persona = await toCaseStatus(shared, stack.sandboxUrl, 'openCase');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    await postTask(shared, { ...ids, comment: COMMENT }, [{ field: 'files', bytes: Buffer.from('plain text'), name: 'a.txt' }]).expect(422);
    await postTask(shared, { ...ids, intent: 'upload' }, [{ field: 'files', bytes: samplePdf(), name: 'private.pdf' }])
      .set('accept', 'application/json')
      .expect(200);

    await toCaseStatus(shared, stack.sandboxUrl, 'caseTaxLiability');
    const other = await pageOf(shared);
    expect(other).not.toContain(COMMENT);
    expect(other).not.toContain('private.pdf');
    // Nor does a post naming the first person's task reach it.
    await postTask(shared, { ...ids, comment: 'not mine' }).expect(403);

    await toCaseStatus(shared, stack.sandboxUrl, 'openCase');
    const back = await pageOf(shared);
    expect(back).toContain(COMMENT);
    expect(back).toContain('private.pdf');
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).actionUpdates).toEqual([]);
  });
});
