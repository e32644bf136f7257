// A saved application at the sandbox as its tests drive it (tests/http/sandboxSavedApplications.test.ts,
// savedApplicationClient.test.ts): a prospect created (or answered again), a file uploaded to a task, and the read-out
// GET /sandbox/prospects (a person's prospects, how often each was resumed, each step's submits).
import request from 'supertest';
import {
  brokeragePaths,
  createProspectResponse,
  initFileUploadResponse,
  type CountryCode,
  type CreatedProspect,
} from '../../shared/contracts/brokerageContract.ts';
import type { ProspectStep } from '../../shared/contracts/savedApplicationContract.ts';
import { samplePdf } from './files.ts';
import { bearer, type Target } from './sandboxApi.ts';

export interface ProspectReadOut {
  prospectId: string;
  legacy: boolean;
  signed: boolean;
  createdAt: string;
  savedAt: string;
  keptUntil: string;
  resumed: number;
  steps: ProspectStep[];
  /** Per step name, the statuses answered to its submits in arrival order. */
  submits: Record<string, number[]>;
}

/** The person's prospects at the sandbox, in creation order. */
export async function prospectsOf(app: Target, nationalId: string): Promise<ProspectReadOut[]> {
  return ((await request(app).get('/sandbox/prospects').query({ nationalId }).expect(200)).body as { prospects: ProspectReadOut[] }).prospects;
}

/** Routing's calls up to the prospect (identification-routing-creation §4): intent, validation step, prospect creation. */
export async function routeToProspect(app: Target, jwt: string, country: CountryCode = 'SE', legacy = false): Promise<CreatedProspect> {
  const auth = bearer(jwt);
  await request(app).put(brokeragePaths.becomeCustomerIntent).set(auth).send({ customerType: 'PRIVATE', country }).expect(204);
  await request(app).post(brokeragePaths.validationStepV3).set(auth).send({ country }).expect(200);
  const created = await request(app)
    .post(legacy ? brokeragePaths.prospectsV2 : brokeragePaths.prospectsV3)
    .set(auth)
    .send({ country, customerType: 'PRIVATE' })
    .expect(200);
  return createProspectResponse.parse(created.body);
}

/** A PDF uploaded to the task or case `taskId` (init-file-upload, then the PUT to its URL); answers its attachment id. */
export async function uploadTo(app: Target, jwt: string, taskId: string, fileName: string): Promise<string> {
  const init = await request(app).post(brokeragePaths.initFileUpload).set(bearer(jwt)).send({ fileName, contentType: 'application/pdf', taskId }).expect(200);
  const { url, attachmentId } = initFileUploadResponse.parse(init.body).data;
  const target = new URL(url);
  await request(app).put(`${target.pathname}${target.search}`).set('Content-Type', 'application/pdf').send(samplePdf()).expect(200);
  return attachmentId;
}
