// The application status page over HTTP (identification-routing-creation §2 "Application status page", §4 "Status page",
// §5, §7, §9; server/stages/caseStatus/): the task list's 204 and failure, the forms' refusals (nothing chosen, a file of
// another kind) keeping what was typed, the retried update-case, a double submit, another person's task id, and
// OnboardingTriggerCase for one's own and another's prospect.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { identifyOverHttp } from '../support/journey.ts';
import { samplePdf, samplePng } from '../support/files.ts';
import { answered, postTask, readOut, taskOf, toCaseStatus, stack, useCaseStatusStack } from '../support/caseStatus.ts';
import { decode } from '../support/serverHttp.ts';

type Agent = ReturnType<typeof request.agent>;

useCaseStatusStack();

const agentOf = (): Agent => request.agent(stack.webUrl);
const pdf = (name = 'statement.pdf') => ({ field: 'files', bytes: samplePdf(), name });

describe('the status page', () => {
  it('shows Pending and a form per open task for the open case; In progress without tasks (204)', async () => {
    const agent = agentOf();
    await toCaseStatus(agent, stack.sandboxUrl, 'openCase');
    const page = decode((await agent.get('/onboarding/case-status').expect(200)).text);
    expect(page).toContain('Your application has been received');
    expect(page).toMatch(/Application reviewed(<!-- -->)? <span class="badge">Pending/);
    expect(page).toContain('We need additional information');
    expect(page.match(/name="taskId"/g)).toHaveLength(3);
    // The residency form starts from the task's address; the country is shown, read-only.
    expect(page).toContain('value="Calle Mayor 5"');
    expect(page).toMatch(/readOnly=""|readonly=""/);
    expect(page).toContain('Housing contract');

    const empty = agentOf();
    await toCaseStatus(empty, stack.sandboxUrl, 'caseNoTasks');
    const none = decode((await empty.get('/onboarding/case-status').expect(200)).text);
    expect(none).toMatch(/Application reviewed(<!-- -->)? <span class="badge">In progress/);
    expect(none).not.toContain('We need additional information');
    expect(none).toContain('Return to site');
  });

  it('says on the page when the task list fails (no redirect: Onboarding would route back here), and sends a visitor without identification to Onboarding', async () => {
    const agent = agentOf();
    await toCaseStatus(agent, stack.sandboxUrl, 'caseTaskListFails');
    const page = decode((await agent.get('/onboarding/case-status').expect(502)).text);
    expect(page).toContain('Your application has been received');
    expect(page).toContain('We could not load what we may need from you just now');
    expect(page).toContain('<a href="/onboarding/case-status">Try again</a>');
    expect(page).toContain('Return to site');
    // Step two's status is not known without the list.
    expect(page).not.toMatch(/Application reviewed(<!-- -->)? <span class="badge">/);
    await agentOf().get('/onboarding/case-status').expect(303).expect('location', '/onboarding');
  });

  it('refuses an empty upload and a file of another kind with the spec text, keeping the comment; nothing is sent', async () => {
    const agent = agentOf();
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseTaxLiability');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    const empty = decode((await postTask(agent, { ...ids, comment: 'My note' }).expect(422)).text);
    expect(empty).toContain('Upload at least one attachment');
    expect(empty).toContain('My note');

    const foreign = decode(
      (await postTask(agent, { ...ids, comment: 'Second note' }, [{ field: 'files', bytes: Buffer.from('plain text'), name: 'a.txt' }]).expect(422)).text,
    );
    expect(foreign).toContain('We only support PDF, PNG and JPEG, please try again');
    expect(foreign).toContain('Second note');
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.uploads).toEqual([]);
    expect(out.actionUpdates).toEqual([]);
    expect(out.caseUpdates).toEqual([]);
  });

  it('refuses a residency answer without its fields and proof, then sends exactly what was given', async () => {
    const agent = agentOf();
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseResidency');
    const ids = await taskOf(stack.sandboxUrl, persona, 'RESIDENCY');
    const refused = decode((await postTask(agent, { ...ids, address: ' ', zipCode: '1000', city: 'Lisboa' }).expect(422)).text);
    expect(refused).toContain('Enter your address');
    expect(refused).toContain('Upload at least one document that proves your address abroad');
    expect(refused).toContain('value="Lisboa"');
    await postTask(agent, { ...ids, address: 'Rua Augusta 1', zipCode: '1100-048', city: 'Lisboa' }, [
      { field: 'file_housingContract', bytes: samplePdf(), name: 'lease.pdf' },
      { field: 'file_bankStatement', bytes: samplePng(), name: 'bank.png' },
    ])
      .expect(303)
      .expect('location', '/onboarding/case-status?sent=1#case-sent');
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.uploads.map((u) => u.fileName).sort()).toEqual(['bank.png', 'lease.pdf']);
    expect(out.actionUpdates).toEqual([{ status: 200, body: { actionId: ids.actionId, message: 'housingContract: lease.pdf\nbankStatement: bank.png' } }]);
    expect(out.caseUpdates).toHaveLength(1);
    expect(out.caseUpdates[0]).toMatchObject({
      status: 200,
      body: {
        actionUpdate: { actionId: ids.actionId },
        taskUpdate: { customerId: out.customerId, type: 'RESIDENCY', taskData: { address: 'Rua Augusta 1', zipCode: '1100-048', city: 'Lisboa' } },
      },
    });
    const page = decode((await agent.get('/onboarding/case-status').expect(200)).text);
    expect(page).toMatch(/Application reviewed(<!-- -->)? <span class="badge">In progress/);
    expect(page).toContain('Sent to us');
    expect(page).toContain('lease.pdf');
  });

  it('retries update-case until it goes through (three 500s, then 200), once per kind', async () => {
    const agent = agentOf();
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseUpdateFailsThrice');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    await postTask(agent, { ...ids, comment: 'Tax form attached' }, [pdf()]).expect(303);
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.caseUpdates.map((c) => c.status)).toEqual([500, 500, 500, 200]);
    expect(answered(out.actionUpdates)).toBe(1);
    expect(out.actionUpdates[0]!.body).toEqual({ actionId: ids.actionId, message: 'Tax form attached' });
    expect(out.uploads).toHaveLength(1);
  });

  it('a double submit (two posts at once) uploads and records each update exactly once', async () => {
    const agent = agentOf();
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseTaxResidence');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_RESIDENCE');
    const files = [pdf('one.pdf'), { field: 'files', bytes: samplePng(), name: 'two.png' }];
    const [a, b] = await Promise.all([postTask(agent, ids, files), postTask(agent, ids, files)]);
    expect([a.status, b.status]).toEqual([303, 303]);
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.uploads.map((u) => u.fileName).sort()).toEqual(['one.pdf', 'two.png']);
    expect(answered(out.actionUpdates)).toBe(1);
    expect(answered(out.caseUpdates)).toBe(1);
    expect(out.actionUpdates).toHaveLength(1);
    expect(out.caseUpdates).toHaveLength(1);
  });

  it('a send that failed resumes without uploading or recording again', async () => {
    const agent = agentOf();
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseTaxLiability');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    await request(stack.sandboxUrl)
      .post('/sandbox/faults')
      // Every one of the 10 tries fails: the answer is not sent this time.
      .send({ method: 'PUT', path: '/api/2/onboarding/update-case', status: 503, count: 10 })
      .expect(204);
    const failed = decode((await postTask(agent, { ...ids, comment: 'Kept' }, [pdf()]).expect(502)).text);
    expect(failed).toContain('We could not send this just now');
    expect(failed).toContain('Kept');
    expect(failed).toContain('statement.pdf');
    await postTask(agent, { ...ids, comment: 'Kept' }, [pdf()]).expect(303);
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.uploads).toHaveLength(1);
    expect(answered(out.actionUpdates)).toBe(1);
    expect(answered(out.caseUpdates)).toBe(1);
  });

  it("refuses another person's task id (two people in two browsers) and records nothing for it", async () => {
    const first = agentOf();
    const owner = await toCaseStatus(first, stack.sandboxUrl, 'caseTaxLiability');
    const ids = await taskOf(stack.sandboxUrl, owner, 'TAX_LIABILITY');
    const second = agentOf();
    await toCaseStatus(second, stack.sandboxUrl, 'caseTaxResidence');
    const refused = await postTask(second, { ...ids, comment: 'Not mine' }, [pdf()]).expect(403);
    expect(decode(refused.text)).toContain('We could not find this request among your open requests');
    const out = await readOut(stack.sandboxUrl, owner.nationalId);
    expect(out.uploads).toEqual([]);
    expect(out.actionUpdates).toEqual([]);
    expect(out.caseUpdates).toEqual([]);
    // The owner's page still asks for it.
    expect((await first.get('/onboarding/case-status').expect(200)).text).toContain(ids.taskId);
  });
});

describe('OnboardingTriggerCase', () => {
  it("creates a case for one's own prospect (its GET only shows a button), then shows the status page", async () => {
    const agent = agentOf();
    const { prospectId, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'citizenship');
    const url = `/onboarding/trigger-case/${encodeURIComponent(prospectId)}`;
    const page = decode((await agent.get(url).expect(200)).text);
    expect(page).toContain('Go to application status');
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).triggerCases).toEqual([]);
    await agent.post(url).set('sec-fetch-site', 'same-origin').type('form').send({}).expect(303).expect('location', '/onboarding/case-status');
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).triggerCases).toEqual([{ status: 204, body: { prospectId } }]);
    // Made once: a later click goes on to the status page without asking again.
    await agent.post(url).set('sec-fetch-site', 'same-origin').type('form').send({}).expect(303).expect('location', '/onboarding/case-status');
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).triggerCases).toHaveLength(1);
  });

  it('a failed case creation is only logged (the status page follows), and a later click asks again', async () => {
    const agent = agentOf();
    const { prospectId, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'citizenship');
    const url = `/onboarding/trigger-case/${encodeURIComponent(prospectId)}`;
    await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'POST', path: '/api/2/onboarding/trigger-case', status: 500 }).expect(204);
    await agent.post(url).set('sec-fetch-site', 'same-origin').type('form').send({}).expect(303).expect('location', '/onboarding/case-status');
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).triggerCases).toEqual([]);
    await agent.post(url).set('sec-fetch-site', 'same-origin').type('form').send({}).expect(303).expect('location', '/onboarding/case-status');
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).triggerCases).toEqual([{ status: 204, body: { prospectId } }]);
  });

  it("sends anyone else to Onboarding and creates nothing for another person's prospect", async () => {
    const owner = agentOf();
    const { prospectId, persona } = await identifyOverHttp(owner, stack.sandboxUrl, 'citizenship');
    const url = `/onboarding/trigger-case/${encodeURIComponent(prospectId)}`;
    const other = agentOf();
    await toCaseStatus(other, stack.sandboxUrl, 'caseNoTasks');
    await other.get(url).expect(303).expect('location', '/onboarding');
    await other.post(url).set('sec-fetch-site', 'same-origin').type('form').send({}).expect(303).expect('location', '/onboarding');
    await agentOf().post(url).set('sec-fetch-site', 'same-origin').type('form').send({}).expect(303).expect('location', '/onboarding');
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).triggerCases).toEqual([]);
  });
});

describe('the status page against a brokerage beyond our guesses', () => {
  const countForms = (page: string) => page.match(/name="taskId"/g)?.length ?? 0;

  it('names a task of a type it does not know ("we will contact you") and answers the tasks it knows, odd fields and all', async () => {
    const agent = agentOf();
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseUnknownTask');
    const page = decode((await agent.get('/onboarding/case-status').expect(200)).text);
    expect(page).toMatch(/Application reviewed(<!-- -->)? <span class="badge">Pending/);
    expect(page).toContain('Another request from us');
    expect(page).toContain('We cannot show this request here. We will contact you about it.');
    // The tax-liability and residency tasks carry fields the contract does not describe: their forms are shown all the same.
    expect(countForms(page)).toBe(2);
    expect(page).toContain('value="Calle Mayor 5"');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    await postTask(agent, { ...ids, comment: 'Tax form' }, [pdf()])
      .expect(303)
      .expect('location', '/onboarding/case-status?sent=1#case-sent');
    expect(answered((await readOut(stack.sandboxUrl, persona.nationalId)).caseUpdates)).toBe(1);
  });

  it('an answer the brokerage keeps OPEN is shown as sent from our record, and Send says it arrived', async () => {
    const agent = agentOf();
    const persona = await toCaseStatus(agent, stack.sandboxUrl, 'caseKeptOpen');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    const sent = await postTask(agent, { ...ids, comment: 'Tax form' }, [pdf()]).expect(303);
    const page = decode((await agent.get(sent.headers.location as string).expect(200)).text);
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).tasks[0]!.actions[0]!.status).toBe('OPEN');
    expect(page).toContain('Thank you. We have received what you sent and will continue reviewing your application.');
    expect(page).toContain('Sent to us');
    expect(page).toContain('statement.pdf');
    expect(countForms(page)).toBe(0);
    expect(page).toMatch(/Application reviewed(<!-- -->)? <span class="badge">In progress/);
    // Later views show it sent, without the confirmation; a second Send repeats nothing.
    const later = decode((await agent.get('/onboarding/case-status').expect(200)).text);
    expect(later).toContain('Sent to us');
    expect(later).not.toContain('Thank you. We have received');
    await postTask(agent, { ...ids, comment: 'Tax form' }, [pdf()])
      .expect(303)
      .expect('location', '/onboarding/case-status?sent=1#case-sent');
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.actionUpdates).toHaveLength(1);
    expect(out.caseUpdates).toHaveLength(1);
  });

  it('two browsers sending the same task at once: both are told it was sent (a 409 for an answer recorded is success)', async () => {
    const first = agentOf();
    const persona = await toCaseStatus(first, stack.sandboxUrl, 'caseTaxLiability');
    const second = agentOf();
    await toCaseStatus(second, stack.sandboxUrl, 'caseTaxLiability');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    const [a, b] = await Promise.all([
      postTask(first, { ...ids, comment: 'From the laptop' }, [pdf('laptop.pdf')]),
      postTask(second, { ...ids, comment: 'From the phone' }, [pdf('phone.pdf')]),
    ]);
    expect([a.status, a.headers.location, b.status, b.headers.location]).toEqual([
      303,
      '/onboarding/case-status?sent=1#case-sent',
      303,
      '/onboarding/case-status?sent=1#case-sent',
    ]);
    for (const agent of [first, second]) {
      expect(decode((await agent.get('/onboarding/case-status?sent=1').expect(200)).text)).toContain('Thank you. We have received what you sent');
    }
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(answered(out.actionUpdates)).toBe(1);
    expect(answered(out.caseUpdates)).toBe(1);
  });

  it('one browser after the other, the brokerage keeping the action OPEN: the second is told it was sent too', async () => {
    const first = agentOf();
    const persona = await toCaseStatus(first, stack.sandboxUrl, 'caseKeptOpen');
    const second = agentOf();
    await toCaseStatus(second, stack.sandboxUrl, 'caseKeptOpen');
    const ids = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
    await postTask(first, { ...ids, comment: 'From the laptop' }, [pdf('laptop.pdf')])
      .expect(303)
      .expect('location', '/onboarding/case-status?sent=1#case-sent');
    await postTask(second, { ...ids, comment: 'From the phone' }, [pdf('phone.pdf')])
      .expect(303)
      .expect('location', '/onboarding/case-status?sent=1#case-sent');
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.actionUpdates.map((c) => c.status)).toEqual([200, 409]);
    expect(out.caseUpdates.map((c) => c.status)).toEqual([200, 409]);
    expect(decode((await second.get('/onboarding/case-status').expect(200)).text)).toContain('Sent to us');
  });
});
