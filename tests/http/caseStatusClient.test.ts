// The typed brokerage client's case-status calls (server/upstream/brokerageCaseStatusCalls.ts; identification-routing-creation §7,
// §9) against a listening sandbox: every answer parsed, 204 as no tasks, failures as UpstreamError, the Idempotency-Key of a
// submit attempt, and update-case retried 10 times at a short delay through withRetries (server/upstream/retry.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import type { StatusTask } from '../../shared/contracts/caseStatusContract.ts';
import { updateCaseBody } from '../../shared/caseStatus.ts';
import type { BrokerageClient } from '../../server/upstream/brokerageClient.ts';
import { FILE_CALL_ATTEMPTS, withRetries } from '../../server/upstream/retry.ts';
import type { CaseScenario } from '../../sandbox/caseStatusTasks.ts';
import { listeningSandboxWithClient, personaFor } from '../support/sandboxApi.ts';
import { upstreamRejection } from '../support/upstreamRejection.ts';

const sandbox = listeningSandboxWithClient();
let client: BrokerageClient;
beforeAll(() => {
  client = sandbox.client;
});

async function jwtOf(scenario: CaseScenario, country: CountryCode = 'SE'): Promise<{ jwt: string; nationalId: string }> {
  const persona = await personaFor(sandbox.url, scenario, country);
  const session = await request(sandbox.url).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  return { jwt: (await client.refreshToken(session.body.refreshToken as string)).jwt, nationalId: persona.nationalId };
}

const readOut = async (nationalId: string) => (await request(sandbox.url).get('/sandbox/status-page').query({ nationalId }).expect(200)).body;

async function uploadTo(jwt: string, task: StatusTask): Promise<void> {
  const { url } = await client.initFileUpload(jwt, { fileName: 'proof.pdf', contentType: 'application/pdf', taskId: task.nnxTaskId });
  await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4\n' }).then((r) => expect(r.status).toBe(200));
}

describe('tasksWithActions', () => {
  it('parses the tasks of the person', async () => {
    const { jwt } = await jwtOf('openCase', 'FI');
    const { tasks } = await client.tasksWithActions(jwt);
    expect(tasks.map((t) => t.type)).toEqual(['RESIDENCY', 'TAX_LIABILITY', 'TAX_RESIDENCE']);
    expect(tasks[0]!.type === 'RESIDENCY' && tasks[0]!.taskData.countryCode).toBe('EE');
  });

  it('answers [] for a 204', async () => {
    const { jwt } = await jwtOf('caseNoTasks');
    expect(await client.tasksWithActions(jwt)).toEqual({ tasks: [], others: [] });
  });

  it('throws UpstreamError with the status for a failing list, and for a refused token', async () => {
    const { jwt } = await jwtOf('caseTaskListFails');
    expect((await upstreamRejection(client.tasksWithActions(jwt))).status).toBe(500);
    expect((await upstreamRejection(client.tasksWithActions('not-a-token'))).status).toBe(401);
  });
});

describe('updateAction and updateCase', () => {
  it('send the contract bodies; a retry of the same attempt is answered once (Idempotency-Key)', async () => {
    const { jwt, nationalId } = await jwtOf('caseTaxResidence', 'NO');
    const [task] = (await client.tasksWithActions(jwt)).tasks;
    await uploadTo(jwt, task!);
    const body = updateCaseBody(task!, task!.actions[0]!.actionId, 'Certificate of residence');
    await client.updateAction(jwt, body.actionUpdate, 'attempt-1');
    await client.updateAction(jwt, body.actionUpdate, 'attempt-1');
    await client.updateCase(jwt, body, 'attempt-1');
    await client.updateCase(jwt, body, 'attempt-1');
    const seen = await readOut(nationalId);
    expect(seen.actionUpdates).toEqual([{ status: 200, body: body.actionUpdate }]);
    expect(seen.caseUpdates).toEqual([{ status: 200, body }]);
    expect((await client.tasksWithActions(jwt)).tasks[0]!.actions[0]!.status).toBe('CLOSED');
    // Another attempt is another key: the brokerage refuses the action answered already.
    expect((await upstreamRejection(client.updateAction(jwt, body.actionUpdate, 'attempt-2'))).status).toBe(409);
  });

  it('refuse to send a body outside the contract', async () => {
    const { jwt } = await jwtOf('caseTaxLiability');
    await expect(client.updateAction(jwt, { actionId: '', message: '' }, 'a')).rejects.toThrow();
  });

  it('update-case failing three times succeeds on the fourth of the 10 tries (identification-routing-creation §9)', async () => {
    const { jwt, nationalId } = await jwtOf('caseUpdateFailsThrice', 'DK');
    const [task] = (await client.tasksWithActions(jwt)).tasks;
    await uploadTo(jwt, task!);
    const body = updateCaseBody(task!, task!.actions[0]!.actionId, '');
    let tries = 0;
    await withRetries(() => {
      tries += 1;
      return client.updateCase(jwt, body, 'attempt-1');
    }, 5);
    expect(tries).toBe(4);
    expect(FILE_CALL_ATTEMPTS).toBe(10);
    expect((await readOut(nationalId)).caseUpdates.map((c: { status: number }) => c.status)).toEqual([500, 500, 500, 200]);
  });
});

describe('triggerCase', () => {
  it('resolves for one’s own prospect and throws the status when case creation fails', async () => {
    for (const [scenario, expected] of [
      ['caseNoTasks', null],
      ['caseTriggerFails', 500],
    ] as const) {
      const { jwt } = await jwtOf(scenario);
      await client.becomeCustomerIntent(jwt, 'SE');
      await client.submitValidationStep(jwt, 'SE', true);
      const { prospect_id: prospectId } = await client.createProspect(jwt, 'SE', false);
      const outcome = client.triggerCase(jwt, prospectId, 'attempt-1');
      if (expected === null) await expect(outcome).resolves.toBeUndefined();
      else expect((await upstreamRejection(outcome)).status).toBe(expected);
    }
    // The same attempt again carries the same Idempotency-Key: the brokerage answers it without making a second case.
    const { jwt, nationalId } = await jwtOf('caseNoTasks', 'FI');
    await client.becomeCustomerIntent(jwt, 'FI');
    await client.submitValidationStep(jwt, 'FI', true);
    const { prospect_id: prospectId } = await client.createProspect(jwt, 'FI', false);
    await client.triggerCase(jwt, prospectId, 'attempt-1');
    await client.triggerCase(jwt, prospectId, 'attempt-1');
    expect((await readOut(nationalId)).triggerCases).toEqual([{ status: 204, body: { prospectId } }]);
  });
});
