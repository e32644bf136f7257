// HTTP tests of the sandbox's application status page calls (sandbox/caseStatus.ts, personas sandbox/caseStatusTasks.ts;
// identification-routing-creation §3 "Task", §7): every persona in every market, 204, 500, the update-case failing three
// times, ownership refusals, once-only updates and the read-out GET /sandbox/status-page.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import {
  brokeragePaths,
  createProspectResponse,
  initFileUploadResponse,
  routingStatusResponse,
  type CountryCode,
} from '../../shared/contracts/brokerageContract.ts';
import { caseStatusPaths, tasksOf, tasksWithActionsResponse, type StatusTask, type TaskType } from '../../shared/contracts/caseStatusContract.ts';
import { CASE_SCENARIOS, type CaseScenario } from '../../sandbox/caseStatusTasks.ts';
import { PUBLIC_URL, bearer, loginWithShortcut, newApp, personaFor, type PublicPersona, type Target } from '../support/sandboxApi.ts';

const COUNTRIES: CountryCode[] = ['SE', 'NO', 'DK', 'FI'];
const PDF = Buffer.from('%PDF-1.4\n% status page test\n');

async function person(app: Target, scenario: CaseScenario, country: CountryCode = 'SE'): Promise<{ jwt: string; persona: PublicPersona }> {
  const persona = await personaFor(app, scenario, country);
  return { jwt: await loginWithShortcut(app, persona), persona };
}

async function taskList(app: Target, jwt: string): Promise<StatusTask[]> {
  const res = await request(app).get(caseStatusPaths.tasksWithActions).set(bearer(jwt)).expect(200);
  return tasksOf(tasksWithActionsResponse.parse(res.body).data.tasks).tasks;
}

/** init-file-upload with the task id, then the PUT of the bytes to the URL it answered. */
async function upload(app: Target, jwt: string, taskId: string, fileName: string, bytes: Buffer = PDF, contentType = 'application/pdf') {
  const init = await request(app).post(brokeragePaths.initFileUpload).set(bearer(jwt)).send({ fileName, contentType, taskId }).expect(200);
  const url = new URL(initFileUploadResponse.parse(init.body).data.url);
  expect(url.origin).toBe(PUBLIC_URL);
  await request(app)
    .put(url.pathname + url.search)
    .set('content-type', contentType)
    .send(bytes)
    .expect(200);
}

const readOut = async (app: Target, nationalId: string) => (await request(app).get('/sandbox/status-page').query({ nationalId }).expect(200)).body;

const updateAction = (app: Target, jwt: string, body: object) => request(app).put(caseStatusPaths.updateAction).set(bearer(jwt)).send(body);
const updateCase = (app: Target, jwt: string, body: object) => request(app).put(caseStatusPaths.updateCase).set(bearer(jwt)).send(body);

const caseBody = (task: StatusTask, message = '') => ({
  actionUpdate: { actionId: task.actions[0]!.actionId, message },
  taskUpdate: { customerId: task.customerId, type: task.type, taskData: task.taskData ?? null },
});

const expectedTasks: Record<Exclude<CaseScenario, 'caseNoTasks' | 'caseTaskListFails' | 'caseTriggerFails'>, [TaskType, string][]> = {
  openCase: [
    ['RESIDENCY', 'OPEN'],
    ['TAX_LIABILITY', 'OPEN'],
    ['TAX_RESIDENCE', 'OPEN'],
  ],
  caseResidency: [['RESIDENCY', 'OPEN']],
  caseTaxLiability: [['TAX_LIABILITY', 'OPEN']],
  caseTaxResidence: [['TAX_RESIDENCE', 'OPEN']],
  caseAnswered: [['RESIDENCY', 'CLOSED']],
  caseUpdateFailsThrice: [['TAX_LIABILITY', 'OPEN']],
  // Besides a task of a type the contract does not name (among the others).
  caseUnknownTask: [
    ['TAX_LIABILITY', 'OPEN'],
    ['RESIDENCY', 'OPEN'],
  ],
  caseKeptOpen: [['TAX_LIABILITY', 'OPEN']],
};

describe('status page personas, in every market', () => {
  it.each(COUNTRIES.flatMap((c) => (['openCase', ...CASE_SCENARIOS] as CaseScenario[]).map((s) => [c, s] as const)))(
    '%s %s: routed to the open case, with the tasks of the scenario',
    async (country, scenario) => {
      const app = newApp();
      const { jwt } = await person(app, scenario, country);
      const routing = routingStatusResponse.parse((await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(200)).body);
      expect(routing.customerRoutingStatus).toBe('ONBOARDING_OPEN_CASE');
      const res = await request(app).get(caseStatusPaths.tasksWithActions).set(bearer(jwt));
      if (scenario === 'caseTaskListFails') return void expect(res.status).toBe(500);
      if (scenario === 'caseNoTasks' || scenario === 'caseTriggerFails') {
        expect([res.status, res.text]).toEqual([204, '']);
        return;
      }
      expect(res.status).toBe(200);
      const { tasks, others } = tasksOf(tasksWithActionsResponse.parse(res.body).data.tasks);
      expect(others.map((o) => o.type)).toEqual(scenario === 'caseUnknownTask' ? ['SOURCE_OF_FUNDS'] : []);
      expect(tasks.map((t) => [t.type, t.actions.map((a) => a.status).join()])).toEqual(expectedTasks[scenario]);
      for (const task of tasks) expect(task.customerId).toBe(routing.customerId);
      const residency = tasks.find((t) => t.type === 'RESIDENCY');
      // The address abroad: a country other than the home market, with an address to confirm.
      if (residency?.type === 'RESIDENCY') {
        expect(residency.taskData.countryCode).not.toBe(country);
        expect(residency.taskData).toMatchObject({ address: expect.any(String), zipCode: expect.any(String), city: expect.any(String) });
      }
      if (scenario === 'caseAnswered') expect(tasks[0]!.attachments).toHaveLength(1);
      // The same list on every read: the ids are stable.
      expect(await taskList(app, jwt)).toEqual(tasks);
    },
  );

  it('every call needs a valid access token (401)', async () => {
    const app = newApp();
    for (const [method, path] of [
      ['get', caseStatusPaths.tasksWithActions],
      ['post', caseStatusPaths.triggerCase],
      ['put', caseStatusPaths.updateAction],
      ['put', caseStatusPaths.updateCase],
    ] as const) {
      await request(app)[method](path).expect(401);
      await request(app)[method](path).set(bearer('not-a-token')).send({}).expect(401);
    }
  });
});

describe('answering a task', () => {
  it('uploads, update-action and update-case close the action; the read-out holds exactly what was sent, in order', async () => {
    const app = newApp();
    const { jwt, persona } = await person(app, 'openCase', 'NO');
    const [residency, liability] = await taskList(app, jwt);
    await upload(app, jwt, residency!.nnxTaskId, 'lease.pdf');
    await upload(app, jwt, residency!.nnxTaskId, 'bank.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2]), 'image/png');
    const answered = { ...caseBody(residency!, 'housingContract: lease.pdf'), taskUpdate: { ...caseBody(residency!).taskUpdate } };
    answered.taskUpdate.taskData = { ...residency!.taskData, address: '1 New Street', zipCode: 'E1 6AN', city: 'London' };

    await updateAction(app, jwt, answered.actionUpdate).expect(200);
    // update-case of the action update-action closed is still taken, once.
    await updateCase(app, jwt, answered).expect(200);

    const after = await taskList(app, jwt);
    expect(after[0]!.actions[0]!.status).toBe('CLOSED');
    expect(after[0]!.attachments.map((a) => a.fileName)).toEqual(['lease.pdf', 'bank.png']);
    expect(after[0]!.taskData).toMatchObject({ address: '1 New Street', zipCode: 'E1 6AN', city: 'London', countryCode: 'GB' });
    expect(after[1]).toEqual(liability);

    // Once only: a second update of either kind is refused (409) and shows in the read-out as refused.
    await updateAction(app, jwt, answered.actionUpdate).expect(409);
    await updateCase(app, jwt, answered).expect(409);

    expect(await readOut(app, persona.nationalId)).toEqual({
      customerId: residency!.customerId,
      tasks: after.map((t) => ({ ...t, attachments: t.attachments.filter((a) => a.fileName !== 'lease.pdf' && a.fileName !== 'bank.png') })),
      uploads: [
        { taskId: residency!.nnxTaskId, fileName: 'lease.pdf', contentType: 'application/pdf', size: PDF.length },
        { taskId: residency!.nnxTaskId, fileName: 'bank.png', contentType: 'image/png', size: 6 },
      ],
      triggerCases: [],
      actionUpdates: [
        { status: 200, body: answered.actionUpdate },
        { status: 409, body: answered.actionUpdate },
      ],
      caseUpdates: [
        { status: 200, body: answered },
        { status: 409, body: answered },
      ],
    });
  });

  it('lists only files whose bytes arrived, and no other person’s', async () => {
    const app = newApp();
    const { jwt, persona } = await person(app, 'caseTaxResidence', 'DK');
    const other = await person(app, 'caseTaxResidence', 'FI');
    const [task] = await taskList(app, jwt);
    const [othersTask] = await taskList(app, other.jwt);
    await request(app)
      .post(brokeragePaths.initFileUpload)
      .set(bearer(jwt))
      .send({ fileName: 'never-sent.pdf', contentType: 'application/pdf', taskId: task!.nnxTaskId })
      .expect(200);
    await upload(app, jwt, task!.nnxTaskId, 'proof.pdf');
    await upload(app, other.jwt, othersTask!.nnxTaskId, 'theirs.pdf');
    expect((await readOut(app, persona.nationalId)).uploads).toEqual([
      { taskId: task!.nnxTaskId, fileName: 'proof.pdf', contentType: 'application/pdf', size: PDF.length },
    ]);
    // Nobody uploads to someone else's task.
    await request(app)
      .post(brokeragePaths.initFileUpload)
      .set(bearer(jwt))
      .send({ fileName: 'x.pdf', contentType: 'application/pdf', taskId: othersTask!.nnxTaskId })
      .expect(400);
  });

  it('update-case needs a file on the task, the task’s type and its country', async () => {
    const app = newApp();
    const { jwt } = await person(app, 'caseResidency');
    const [task] = await taskList(app, jwt);
    await updateCase(app, jwt, caseBody(task!)).expect(400);
    await upload(app, jwt, task!.nnxTaskId, 'lease.pdf');
    const body = caseBody(task!);
    await updateCase(app, jwt, { ...body, taskUpdate: { ...body.taskUpdate, type: 'TAX_LIABILITY', taskData: {} } }).expect(400);
    await updateCase(app, jwt, { ...body, taskUpdate: { ...body.taskUpdate, taskData: { ...task!.taskData, countryCode: 'SE' } } }).expect(400);
    // A residency update without the address is not one (the contract requires it).
    await updateCase(app, jwt, { ...body, taskUpdate: { ...body.taskUpdate, taskData: { ...task!.taskData, city: '' } } }).expect(400);
    await updateCase(app, jwt, body).expect(200);
    expect((await taskList(app, jwt))[0]!.actions[0]!.status).toBe('CLOSED');
  });

  it('caseUpdateFailsThrice: the first three update-case calls answer 500, the fourth closes the action', async () => {
    const app = newApp();
    const { jwt, persona } = await person(app, 'caseUpdateFailsThrice', 'FI');
    const [task] = await taskList(app, jwt);
    await upload(app, jwt, task!.nnxTaskId, 'tax.pdf');
    const body = caseBody(task!, 'My tax certificate');
    for (let i = 0; i < 3; i++) await updateCase(app, jwt, body).expect(500);
    await updateCase(app, jwt, body).expect(200);
    expect((await taskList(app, jwt))[0]!.actions[0]!.status).toBe('CLOSED');
    expect((await readOut(app, persona.nationalId)).caseUpdates.map((c: { status: number }) => c.status)).toEqual([500, 500, 500, 200]);
  });

  it('an Idempotency-Key makes a repeated update answer the first answer without recording it again', async () => {
    const app = newApp();
    const { jwt, persona } = await person(app, 'caseTaxLiability');
    const [task] = await taskList(app, jwt);
    const key = { 'idempotency-key': '"submit-1"' };
    const first = await updateAction(app, jwt, caseBody(task!).actionUpdate).set(key).expect(200);
    const again = await updateAction(app, jwt, caseBody(task!).actionUpdate).set(key).expect(200);
    expect(again.body).toEqual(first.body);
    expect((await readOut(app, persona.nationalId)).actionUpdates).toHaveLength(1);
  });
});

describe('ownership: an action, task or customer that is not the caller’s is refused', () => {
  it('403 for someone else’s action or customer id, 404 for an unknown action; nothing changes', async () => {
    const app = newApp();
    const me = await person(app, 'caseTaxLiability', 'SE');
    const them = await person(app, 'caseTaxLiability', 'NO');
    const [mine] = await taskList(app, me.jwt);
    const [theirs] = await taskList(app, them.jwt);
    await upload(app, me.jwt, mine!.nnxTaskId, 'mine.pdf');

    await updateAction(app, me.jwt, caseBody(theirs!).actionUpdate).expect(403);
    await updateCase(app, me.jwt, caseBody(theirs!)).expect(403);
    // My action with their customer id.
    await updateCase(app, me.jwt, { ...caseBody(mine!), taskUpdate: { ...caseBody(mine!).taskUpdate, customerId: theirs!.customerId } }).expect(403);
    await updateAction(app, me.jwt, { actionId: 'no-such-action', message: '' }).expect(404);
    await updateCase(app, me.jwt, { ...caseBody(mine!), actionUpdate: { actionId: 'no-such-action', message: '' } }).expect(404);
    await updateAction(app, me.jwt, { message: 'no action' }).expect(400);

    expect(await taskList(app, them.jwt)).toEqual([theirs]);
    expect((await taskList(app, me.jwt))[0]!.actions[0]!.status).toBe('OPEN');
    expect((await readOut(app, them.persona.nationalId)).actionUpdates).toEqual([]);
  });
});

describe('trigger-case', () => {
  async function prospectOf(app: Target, jwt: string, country: CountryCode): Promise<string> {
    const auth = bearer(jwt);
    await request(app).put(brokeragePaths.becomeCustomerIntent).set(auth).send({ customerType: 'PRIVATE', country }).expect(204);
    await request(app).post(brokeragePaths.validationStepV3).set(auth).send({ country }).expect(200);
    const created = await request(app).post(brokeragePaths.prospectsV3).set(auth).send({ country, customerType: 'PRIVATE' }).expect(200);
    return createProspectResponse.parse(created.body).prospect_id;
  }

  it('creates a case for one’s own prospect; refuses another person’s (403) and an unknown one (404)', async () => {
    const app = newApp();
    const me = await person(app, 'caseNoTasks', 'DK');
    const them = await person(app, 'openCase', 'DK');
    const mine = await prospectOf(app, me.jwt, 'DK');
    const theirs = await prospectOf(app, them.jwt, 'DK');
    const trigger = (body: object, key?: string) =>
      request(app)
        .post(caseStatusPaths.triggerCase)
        .set(bearer(me.jwt))
        .set(key ? { 'Idempotency-Key': `"${key}"` } : {})
        .send(body);
    await trigger({ prospectId: mine }, 'k1').expect(204);
    await trigger({ prospectId: theirs }, 'k2').expect(403);
    await trigger({ prospectId: 'nope' }, 'k3').expect(404);
    await trigger({}, 'k4').expect(400);
    // Without an Idempotency-Key: refused. The same key again: the first answer, and no second case.
    await trigger({ prospectId: mine }).expect(400);
    await trigger({ prospectId: mine }, 'k1').expect(204);
    expect((await readOut(app, me.persona.nationalId)).triggerCases).toEqual([
      { status: 204, body: { prospectId: mine } },
      { status: 403, body: { prospectId: theirs } },
      { status: 404, body: { prospectId: 'nope' } },
      { status: 400, body: {} },
      { status: 400, body: { prospectId: mine } },
    ]);
  });

  it.each(COUNTRIES)('caseTriggerFails (%s): trigger-case answers 500', async (country) => {
    const app = newApp();
    const { jwt } = await person(app, 'caseTriggerFails', country);
    const prospectId = await prospectOf(app, jwt, country);
    await request(app).post(caseStatusPaths.triggerCase).set(bearer(jwt)).set('Idempotency-Key', '"k1"').send({ prospectId }).expect(500);
  });
});

describe('read-out', () => {
  it('needs a national id and is empty for a person without calls; reset clears it', async () => {
    const app = newApp();
    await request(app).get('/sandbox/status-page').expect(400);
    const { jwt, persona } = await person(app, 'caseTaxLiability');
    const empty = { customerId: null, tasks: [], uploads: [], triggerCases: [], actionUpdates: [], caseUpdates: [] };
    expect(await readOut(app, persona.nationalId)).toEqual(empty);
    const [task] = await taskList(app, jwt);
    await updateAction(app, jwt, caseBody(task!).actionUpdate).expect(200);
    expect((await readOut(app, persona.nationalId)).actionUpdates).toHaveLength(1);
    await request(app).post('/sandbox/reset').expect(204);
    expect(await readOut(app, persona.nationalId)).toEqual(empty);
  });
});
