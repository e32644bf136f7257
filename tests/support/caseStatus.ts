// The application status page over HTTP (server/stages/caseStatus/): a person of a case-status persona identified and
// routed to the page, the sandbox's read-out of what reached the brokerage, and the task form's multipart post.
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startEmbeddedStack, type Stack } from './stack.ts';
import { identifyBeforeRouting, type Persona } from './journey.ts';
import type { StatusTask } from '../../shared/contracts/caseStatusContract.ts';

type Agent = ReturnType<typeof request.agent>;

/** The running stack of a case-status HTTP test file (a live binding, from the file's beforeAll on). */
export let stack: Stack;

/** The one setup of a case-status HTTP test file: the embedded stack (short retry waits), the sandbox reset before each test. */
export function useCaseStatusStack(): void {
  beforeAll(async () => {
    stack = await startEmbeddedStack({ FILE_RETRY_DELAY_MS: '5' });
  });
  afterAll(async () => stack?.stop());
  beforeEach(async () => {
    await request(stack.sandboxUrl).post('/sandbox/reset').expect(204);
  });
}

export interface CaseStatusCall {
  status: number;
  body: unknown;
}

export interface CaseStatusReadOut {
  customerId: string | null;
  tasks: StatusTask[];
  uploads: { taskId: string; fileName: string; contentType: string | null; size: number }[];
  triggerCases: CaseStatusCall[];
  actionUpdates: CaseStatusCall[];
  caseUpdates: CaseStatusCall[];
}

export const readOut = async (sandboxUrl: string, nationalId: string): Promise<CaseStatusReadOut> =>
  (await request(sandboxUrl).get('/sandbox/status-page').query({ nationalId }).expect(200)).body as CaseStatusReadOut;

/** How many calls of a kind were answered 200 (the ones that recorded something). */
export const answered = (calls: readonly CaseStatusCall[]) => calls.filter((c) => c.status === 200).length;

/** Identifies as the scenario's (Swedish) persona; routing sends an open case to the status page, which is opened. */
export async function toCaseStatus(agent: Agent, sandboxUrl: string, scenario: string): Promise<Persona> {
  const persona = await identifyBeforeRouting(agent, sandboxUrl, scenario);
  await agent.get('/onboarding/routing').expect(303).expect('location', '/onboarding/case-status');
  // The page's first view fetches the tasks (the sandbox makes them on the person's first call).
  await agent.get('/onboarding/case-status');
  return persona;
}

/**
 * The open-case persona's tasks answered as the status page tests answer them (the address in Porto, its two proofs,
 * two tax files with a comment, one without): exactly that reached the brokerage, each update once.
 */
export async function expectOpenCaseAnswered(sandboxUrl: string, nationalId: string): Promise<void> {
  const out = await readOut(sandboxUrl, nationalId);
  expect(out.uploads.map((u) => u.fileName).sort()).toEqual(['lease.pdf', 'page-1.pdf', 'page-2.jpg', 'residence.pdf', 'statement.png']);
  expect([answered(out.actionUpdates), answered(out.caseUpdates)]).toEqual([3, 3]);
  expect(out.actionUpdates.map((c) => (c.body as { message: string }).message)).toEqual([
    'housingContract: lease.pdf\nbankStatement: statement.png',
    'My tax certificate, both pages',
    '',
  ]);
  expect(out.caseUpdates[0]!.body).toMatchObject({
    taskUpdate: { type: 'RESIDENCY', taskData: { address: 'Rua das Flores 12', zipCode: '4050-262', city: 'Porto' } },
  });
}

/** The person's task of `type` with its open action, from the sandbox. */
export async function taskOf(sandboxUrl: string, persona: Persona, type: StatusTask['type']): Promise<{ taskId: string; actionId: string }> {
  const task = (await readOut(sandboxUrl, persona.nationalId)).tasks.find((t) => t.type === type);
  expect(task, `a ${type} task`).toBeDefined();
  return { taskId: task!.nnxTaskId, actionId: task!.actions[0]!.actionId };
}

export interface TaskFile {
  field: string;
  bytes: Buffer;
  name: string;
}

/**
 * The task form's multipart post as a browser without JavaScript sends it (fields first, then the files), on the
 * market's `host` if given.
 */
export function postTask(agent: Agent, fields: Record<string, string>, files: readonly TaskFile[] = [], host?: string) {
  let post = agent.post('/onboarding/case-status/task').set('sec-fetch-site', 'same-origin');
  if (host) post = post.set('host', host);
  for (const [name, value] of Object.entries(fields)) post = post.field(name, value);
  for (const file of files) post = post.attach(file.field, file.bytes, file.name);
  return post;
}
