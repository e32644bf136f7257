// Simulated citizenship and file calls (customer-information.md §7): submit-citizenship v3, init-file-upload
// and the object storage that init-file-upload's pre-signed URL points at. The storage keeps the bytes in
// memory, serves an object with the Content-Disposition stored with it, and has test-only endpoints: list
// objects, make the next PUTs fail.
import { randomBytes, randomUUID } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import {
  brokeragePaths,
  initFileUploadRequest,
  initFileUploadResponse,
  submitCitizenshipRequest,
  submitCitizenshipResponse,
} from '../shared/contracts/brokerageContract.ts';
import { olderCitizenshipPath, olderCitizenshipRequest, olderCitizenshipResponse } from '../shared/contracts/citizenshipContract.ts';
import { MAX_FILE_BYTES } from '../shared/files.ts';
import { authenticate, ownedProspectOf, sendBrokerageError } from './brokerage.ts';
import { caseProspect, savedSteps } from './savedSteps.ts';
import type { SandboxContext, Session } from './state.ts';
import { statusTaskOwner } from './caseStatus.ts';

export const STORAGE_BASE = '/sandbox/storage';

const failNextBody = z.object({ count: z.coerce.number().int().min(0).max(100) });
const storageKey = z.string().regex(/^[\w-]{8,64}$/);

export function citizenshipRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();
  const { state } = ctx;

  const sessionOf = (req: Request, res: Response): Session | undefined => authenticate(state, req, res);
  const parseOr400 = <S extends z.ZodType>(schema: S, input: unknown, res: Response): z.output<S> | undefined => {
    const parsed = schema.safeParse(input ?? {});
    if (parsed.success) return parsed.data;
    // A key of the other variant (strict shapes) is named itself.
    const fields = parsed.error.issues.flatMap((i) =>
      i.code === 'unrecognized_keys' ? i.keys.map((k) => [...i.path, k].join('.')) : [i.path.join('.') || '(body)'],
    );
    sendBrokerageError(res, 400, 'Invalid request', [...new Set(fields)]);
    return undefined;
  };
  /** A submit-citizenship body (either shape) and the bearer's prospect it names; undefined after answering 401, 400 or 403. */
  const citizenshipCall = <S extends z.ZodType<{ prospectId: string }>>(schema: S, req: Request, res: Response) => {
    const session = sessionOf(req, res);
    const body = session && parseOr400(schema, req.body, res);
    const prospect = body && ownedProspectOf(state, session, body.prospectId, res);
    return prospect ? { body: body as z.output<S>, prospect } : undefined;
  };

  router.post(brokeragePaths.submitCitizenshipV3, (req, res) => {
    const call = citizenshipCall(submitCitizenshipRequest, req, res);
    if (!call) return;
    const { body, prospect } = call;
    if (!body.isCitizenInTld && body.citizenshipInformationList.length === 0) {
      return sendBrokerageError(res, 400, 'A citizenship is required', ['citizenshipInformationList']);
    }
    // Check everything before changing anything, so a refused submit leaves no half-made tasks.
    const bad: string[] = [];
    body.citizenshipInformationList.forEach((entry, i) => {
      const task = entry.taskId ? state.citizenshipTasks.get(entry.taskId) : undefined;
      if (entry.taskId && (!task || task.prospectId !== prospect.id || task.countryCode !== entry.countryCode))
        bad.push(`citizenshipInformationList.${i}.taskId`);
      const stored = [...state.storedObjects.values()];
      if (entry.attachments.some((id) => !stored.some((o) => o.attachmentId === id && o.taskId === entry.taskId && o.bytes))) {
        bad.push(`citizenshipInformationList.${i}.attachments`);
      }
    });
    if (bad.length > 0) return sendBrokerageError(res, 400, 'Invalid citizenship information', bad);
    const tasks = body.citizenshipInformationList.map((entry) => {
      const taskId = entry.taskId ?? randomUUID();
      state.citizenshipTasks.set(taskId, { taskId, prospectId: prospect.id, countryCode: entry.countryCode, attachments: entry.attachments });
      return { countryCode: entry.countryCode, taskId };
    });
    savedSteps(prospect).citizenship = {
      isCitizenInTld: body.isCitizenInTld,
      entries: body.citizenshipInformationList.map((entry, i) => ({
        countryCode: entry.countryCode,
        taskId: tasks[i]!.taskId,
        attachments: entry.attachments,
      })),
    };
    res.json(submitCitizenshipResponse.parse({ data: { tasks } }));
  });

  // The older variant (shared/contracts/citizenshipContract.ts): only whether another citizenship is held; complete as sent.
  router.post(olderCitizenshipPath, (req, res) => {
    const call = citizenshipCall(olderCitizenshipRequest, req, res);
    if (!call) return;
    const { body, prospect } = call;
    savedSteps(prospect).citizenship = { isCitizenInTld: !body.citizenOutsideOfTld, entries: [], citizenOutsideOfTld: body.citizenOutsideOfTld };
    res.json(olderCitizenshipResponse.parse({ data: { saved: true } }));
  });

  router.post(brokeragePaths.initFileUpload, (req, res) => {
    const session = sessionOf(req, res);
    if (!session) return;
    const body = parseOr400(initFileUploadRequest, req.body, res);
    if (!body) return;
    // Files go to a citizenship task, to a case (POST create case: residency, tax residence) or to a task of the
    // application status page (sandbox/caseStatus.ts).
    const task = state.citizenshipTasks.get(body.taskId);
    const prospect = task ? state.prospects.get(task.prospectId) : caseProspect(state, body.taskId);
    const owner = prospect ? prospect.owner.nationalId : statusTaskOwner(state, body.taskId);
    if (owner !== session.persona.nationalId) {
      return sendBrokerageError(res, 400, 'Unknown task', ['taskId']);
    }
    const key = randomUUID();
    const signature = randomBytes(16).toString('hex');
    const attachmentId = randomUUID();
    state.storedObjects.set(key, { taskId: body.taskId, attachmentId, signature, fileName: body.fileName, contentType: body.contentType });
    res.json(initFileUploadResponse.parse({ data: { url: `${ctx.publicUrl}${STORAGE_BASE}/${key}?signature=${signature}`, attachmentId } }));
  });

  // --- object storage ---

  router.put(`${STORAGE_BASE}/:key`, express.raw({ type: () => true, limit: MAX_FILE_BYTES + 1024 }), (req, res) => {
    const key = storageKey.safeParse(req.params.key);
    const object = key.success ? state.storedObjects.get(key.data) : undefined;
    if (!object || req.query.signature !== object.signature) return res.status(403).type('text/plain').send('SignatureDoesNotMatch');
    const failures = state.storageFailures.get('put') ?? 0;
    if (failures > 0) {
      state.storageFailures.set('put', failures - 1);
      return res.status(503).type('text/plain').send('SlowDown');
    }
    if (req.get('content-type') !== object.contentType) return res.status(400).type('text/plain').send('Content-Type differs from the signed one');
    object.bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    object.storedContentType = req.get('content-type');
    object.contentDisposition = req.get('content-disposition');
    res.status(200).end();
  });

  // Test-only: what the storage holds (no bytes), one object's bytes, and failing the next PUTs.
  router.get(`${STORAGE_BASE}/objects`, (_req, res) => {
    res.json(
      [...state.storedObjects.entries()].map(([key, o]) => ({
        key,
        taskId: o.taskId,
        attachmentId: o.attachmentId,
        fileName: o.fileName,
        contentType: o.storedContentType ?? null,
        contentDisposition: o.contentDisposition ?? null,
        size: o.bytes?.length ?? null,
      })),
    );
  });
  router.get(`${STORAGE_BASE}/:key`, (req, res) => {
    const key = storageKey.safeParse(req.params.key);
    const object = key.success ? state.storedObjects.get(key.data) : undefined;
    if (!object?.bytes) return res.status(404).end();
    // As a bucket does: the Content-Disposition stored with the object (attachment when none was sent),
    // and nosniff so a browser never takes the bytes for another type than the stored one.
    res
      .set('content-disposition', object.contentDisposition ?? 'attachment')
      .set('x-content-type-options', 'nosniff')
      .type(object.storedContentType ?? 'application/octet-stream')
      .send(object.bytes);
  });
  router.post(`${STORAGE_BASE}/fail-next`, (req, res) => {
    const body = failNextBody.safeParse(req.body);
    if (!body.success) return res.status(400).json({ error: 'count is a number 0–100' });
    state.storageFailures.set('put', body.data.count);
    res.status(204).end();
  });
  router.get('/sandbox/citizenship/tasks', (_req, res) => {
    res.json([...state.citizenshipTasks.values()]);
  });

  return router;
}
