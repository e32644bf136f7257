// The application status page's calls, simulated (identification-routing-creation §7: trigger-case, the task list,
// update-action, update-case; contract shared/contracts/caseStatusContract.ts), and the read-out GET /sandbox/status-page.
// Every call needs the person's access token (401 without). A persona's tasks come from its plan (sandbox/caseStatusTasks.ts)
// on first use and live in state.caseStatus until POST /sandbox/reset; files reach a task through init-file-upload
// (sandbox/citizenship.ts, taskId = nnxTaskId) and the PUT.
import { createHash, randomUUID } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import {
  ACTION_CLOSED,
  ACTION_OPEN,
  caseStatusPaths,
  statusTask,
  tasksWithActionsResponse,
  triggerCaseRequest,
  updateActionRequest,
  updateCaseRequest,
  type StatusTask,
} from '../shared/contracts/caseStatusContract.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../shared/contracts/brokerageContract.ts';
import { authenticate, sendBrokerageError } from './brokerage.ts';
import type { Persona } from './personas.ts';
import { oddFieldsOf, seedTaskData, unknownTypeTask } from './caseStatusTasks.ts';
import type { SandboxState, CaseStatusCall, CaseStatusRecord } from './state.ts';

const nationalIdQuery = z.object({ nationalId: z.string().min(1).max(32) });

/** The customer id of a person routed to an open case: the persona's own, or a stable one derived from the national id. */
const customerIdOf = (persona: Persona): string =>
  persona.customerId ?? `C${parseInt(createHash('sha256').update(persona.nationalId).digest('hex').slice(0, 8), 16) % 10_000_000}`;

function newTasks(persona: Persona, customerId: string): StatusTask[] {
  return (persona.behaviour.caseStatus?.tasks ?? []).map((seed) =>
    statusTask.parse({
      nnxTaskId: randomUUID(),
      type: seed.type,
      customerId,
      taskData: seedTaskData(seed.type, persona.country),
      attachments: seed.answered ? [{ attachmentId: randomUUID(), fileName: 'housing-contract.pdf' }] : [],
      actions: [{ actionId: randomUUID(), status: seed.answered ? ACTION_CLOSED : ACTION_OPEN }],
    }),
  );
}

/** The person's record, made from the persona's plan on first use. */
export function caseStatusRecord(state: SandboxState, persona: Persona): CaseStatusRecord {
  let record = state.caseStatus.get(persona.nationalId);
  if (!record) {
    const customerId = customerIdOf(persona);
    const tasks = newTasks(persona, customerId);
    const seeds = persona.behaviour.caseStatus?.tasks ?? [];
    const oddFields = new Map(tasks.flatMap((t, i) => (seeds[i]?.oddFields ? [[t.nnxTaskId, oddFieldsOf(t.type)] as const] : [])));
    const unknownTasks = (persona.behaviour.caseStatus?.unknownTypes ?? []).map((type) =>
      unknownTypeTask(type, customerId, { task: randomUUID(), action: randomUUID() }),
    );
    record = {
      customerId,
      tasks,
      oddFields,
      unknownTasks,
      answeredActions: new Set(),
      caseUpdateCalls: 0,
      caseUpdated: new Set(),
      triggerCases: [],
      actionUpdates: [],
      caseUpdates: [],
    };
    state.caseStatus.set(persona.nationalId, record);
  }
  return record;
}

/** The national id of the person a case-status task belongs to (init-file-upload accepts files for it), or undefined. */
export function statusTaskOwner(state: SandboxState, taskId: string): string | undefined {
  for (const [nationalId, record] of state.caseStatus) if (record.tasks.some((t) => t.nnxTaskId === taskId)) return nationalId;
  return undefined;
}

/** The files uploaded to a task (init-file-upload, then the PUT of the bytes), in the order they were announced. */
const uploadsOf = (state: SandboxState, taskId: string) => [...state.storedObjects.values()].filter((o) => o.taskId === taskId && o.bytes);

/** Where an action is: the caller's task, someone else's (403) or nobody's (404). */
function findAction(state: SandboxState, nationalId: string, actionId: string): { task: StatusTask } | { refused: 403 | 404 } {
  for (const [owner, record] of state.caseStatus) {
    const task = record.tasks.find((t) => t.actions.some((a) => a.actionId === actionId));
    if (task) return owner === nationalId ? { task } : { refused: 403 };
  }
  return { refused: 404 };
}

function closeAction(task: StatusTask, actionId: string): void {
  for (const action of task.actions) if (action.actionId === actionId) action.status = ACTION_CLOSED;
}

/**
 * update-action closes its action (409 once it is answered); update-case is accepted once per action (409 after), needs a
 * file uploaded to the task, keeps the type and (residency) the country of the task, and closes the action too. A persona
 * that keepsActionsOpen lists an answered action OPEN still, and refuses a second answer all the same. An action, task or
 * customer id that is not the caller's answers 403 (someone else's) or 404 (nobody's). With an Idempotency-Key
 * (sandbox/idempotency.ts) a repeated update answers the first answer without reaching this router; trigger-case needs
 * one (400 without): a repeat of the attempt answers the first answer and makes no second case.
 */
export function caseStatusRouter(state: SandboxState): express.Router {
  const router = express.Router();

  /** Authenticates, then records the call with the status it answers; `handle` answers through `answer`. */
  const recorded =
    (log: (record: CaseStatusRecord) => CaseStatusCall<unknown>[], handle: (req: Request, record: CaseStatusRecord, persona: Persona) => Answer) =>
    (req: Request, res: Response) => {
      const session = authenticate(state, req, res);
      if (!session) return;
      const record = caseStatusRecord(state, session.persona);
      const answer = handle(req, record, session.persona);
      log(record).push({ status: answer.status, body: req.body as unknown });
      if (answer.status === 204) return void res.status(204).end();
      if (answer.status >= 400) return sendBrokerageError(res, answer.status, answer.message ?? 'Refused', answer.fields);
      res.status(answer.status).json(answer.body ?? { data: {} });
    };

  router.post(
    caseStatusPaths.triggerCase,
    recorded(
      (r) => r.triggerCases,
      (req, _record, persona) => {
        // A case is made once per application: a call must say which attempt it is (sandbox/idempotency.ts answers a repeat).
        if (req.get(IDEMPOTENCY_KEY_HEADER) === undefined) return { status: 400, message: 'Idempotency-Key is required', fields: [IDEMPOTENCY_KEY_HEADER] };
        const body = triggerCaseRequest.safeParse(req.body ?? {});
        if (!body.success) return { status: 400, message: 'prospectId is required', fields: ['prospectId'] };
        const prospect = state.prospects.get(body.data.prospectId);
        if (!prospect) return { status: 404, message: 'No such prospect' };
        if (prospect.owner.nationalId !== persona.nationalId) return { status: 403, message: 'The prospect belongs to another customer' };
        if (persona.behaviour.caseStatus?.triggerCaseFails) return { status: 500, message: 'The case could not be created' };
        return { status: 204 };
      },
    ),
  );

  router.get(caseStatusPaths.tasksWithActions, (req, res) => {
    const session = authenticate(state, req, res);
    if (!session) return;
    if (session.persona.behaviour.caseStatus?.taskListFails) return sendBrokerageError(res, 500, 'The tasks could not be read');
    const record = caseStatusRecord(state, session.persona);
    const { tasks, unknownTasks } = record;
    if (tasks.length === 0 && unknownTasks.length === 0) return void res.status(204).end();
    // A task's attachments: those it came with, then the files uploaded to it since; then what goes beyond the contract.
    const listed = tasks.map((t) => ({
      ...t,
      attachments: [...t.attachments, ...uploadsOf(state, t.nnxTaskId).map((o) => ({ attachmentId: o.attachmentId, fileName: o.fileName }))],
      ...record.oddFields.get(t.nnxTaskId),
    }));
    res.json(tasksWithActionsResponse.parse({ data: { tasks: [...listed, ...unknownTasks] } }));
  });

  router.put(
    caseStatusPaths.updateAction,
    recorded(
      (r) => r.actionUpdates,
      (req, record, persona) => {
        const body = updateActionRequest.safeParse(req.body ?? {});
        if (!body.success) return invalid(body.error);
        const found = findAction(state, persona.nationalId, body.data.actionId);
        if ('refused' in found) return refusedAction(found.refused);
        if (record.answeredActions.has(body.data.actionId) || !found.task.actions.some((a) => a.actionId === body.data.actionId && a.status === ACTION_OPEN)) {
          return { status: 409, message: 'The action is already answered' };
        }
        record.answeredActions.add(body.data.actionId);
        if (!persona.behaviour.caseStatus?.keepsActionsOpen) closeAction(found.task, body.data.actionId);
        return { status: 200, body: { data: { actionId: body.data.actionId, status: ACTION_CLOSED } } };
      },
    ),
  );

  router.put(
    caseStatusPaths.updateCase,
    recorded(
      (r) => r.caseUpdates,
      (req, record, persona) => {
        record.caseUpdateCalls += 1;
        if (record.caseUpdateCalls <= (persona.behaviour.caseStatus?.caseUpdateFailures ?? 0)) return { status: 500, message: 'The case could not be updated' };
        const body = updateCaseRequest.safeParse(req.body ?? {});
        if (!body.success) return invalid(body.error);
        const { actionUpdate, taskUpdate } = body.data;
        const found = findAction(state, persona.nationalId, actionUpdate.actionId);
        if ('refused' in found) return refusedAction(found.refused);
        const { task } = found;
        if (taskUpdate.customerId !== task.customerId) return { status: 403, message: 'The customer is not the task’s', fields: ['taskUpdate.customerId'] };
        if (taskUpdate.type !== task.type) return { status: 400, message: 'The type differs from the task’s', fields: ['taskUpdate.type'] };
        if (task.type === 'RESIDENCY' && taskUpdate.type === 'RESIDENCY' && taskUpdate.taskData.countryCode !== task.taskData.countryCode) {
          return { status: 400, message: 'The country of the task cannot change', fields: ['taskUpdate.taskData.countryCode'] };
        }
        if (record.caseUpdated.has(actionUpdate.actionId)) return { status: 409, message: 'The case is already updated for this action' };
        if (uploadsOf(state, task.nnxTaskId).length === 0) return { status: 400, message: 'No file uploaded to the task', fields: ['actionUpdate.actionId'] };
        record.caseUpdated.add(actionUpdate.actionId);
        record.answeredActions.add(actionUpdate.actionId);
        Object.assign(task, { taskData: taskUpdate.taskData });
        if (!persona.behaviour.caseStatus?.keepsActionsOpen) closeAction(task, actionUpdate.actionId);
        return { status: 200, body: { data: { actionId: actionUpdate.actionId, status: ACTION_CLOSED } } };
      },
    ),
  );

  // Test-only read-out of one person: their tasks now, exactly the files uploaded to them (announced and PUT), and
  // every trigger-case, update-action and update-case call received with what it answered, in arrival order.
  router.get('/sandbox/status-page', (req, res) => {
    const query = nationalIdQuery.safeParse(req.query);
    if (!query.success) return void res.status(400).json({ error: 'nationalId is required' });
    const record = state.caseStatus.get(query.data.nationalId);
    if (!record) return void res.json({ customerId: null, tasks: [], uploads: [], triggerCases: [], actionUpdates: [], caseUpdates: [] });
    const taskIds = new Set(record.tasks.map((t) => t.nnxTaskId));
    const uploads = [...state.storedObjects.values()]
      .filter((o) => taskIds.has(o.taskId) && o.bytes)
      .map((o) => ({ taskId: o.taskId, fileName: o.fileName, contentType: o.storedContentType ?? null, size: o.bytes!.length }));
    const { customerId, tasks, triggerCases, actionUpdates, caseUpdates } = record;
    res.json({ customerId, tasks, uploads, triggerCases, actionUpdates, caseUpdates });
  });

  return router;
}

interface Answer {
  status: number;
  message?: string;
  fields?: string[];
  body?: unknown;
}

const invalid = (error: z.ZodError): Answer => ({
  status: 400,
  message: 'Invalid request',
  fields: [...new Set(error.issues.map((i) => i.path.join('.') || '(body)'))],
});

const refusedAction = (status: 403 | 404): Answer =>
  status === 403 ? { status, message: 'The action belongs to another customer' } : { status, message: 'No such action' };
