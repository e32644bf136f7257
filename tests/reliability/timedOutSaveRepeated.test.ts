// A save call that timed out but completed upstream was repeated: the next "Sign agreements" sent a second regulation,
// and a timed-out signature request left a second signing session. Now every save call that creates something carries
// an Idempotency-Key kept in the session before the call, so the next Sign sends the same key and the brokerage answers
// what the first call created. The sandbox answers late and completes the call after the web process gave up; its
// read-outs say what it created. Nothing asserts a speed.
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { atMilestoneThreeOverHttp, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp, postStep, type Persona } from '../support/journey.ts';
import { LEGACY_SIGN, legacyFormBody, postLegacy } from '../support/legacyForm.ts';
import { legacyPaths } from '../../shared/contracts/legacyContract.ts';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import en from '../../locales/en.json' with { type: 'json' };

type Agent = ReturnType<typeof request.agent>;

const UPSTREAM_TIMEOUT_MS = 500;
/** Later than the upstream timeout: the web process gives up, the sandbox completes the call later. */
const LATE_MS = 1500;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack({ UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS) });
});
afterAll(async () => stack?.stop());
beforeEach(async () => {
  await request(stack.sandboxUrl).post('/sandbox/reset').expect(204);
});

const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
const TRY_AGAIN = html(en['customerInformation.error.TRY_AGAIN_ERROR.text']);

const late = (method: string, path: string) => request(stack.sandboxUrl).post('/sandbox/faults').send({ method, path, delayMs: LATE_MS, count: 1 }).expect(204);

interface LegacyReadOut {
  regulations: Array<{ regulation_id: string | null }>;
  updates: unknown[];
  signatures: unknown[];
}
const legacyReadOut = async (prospectId: string) =>
  (
    await request(stack.sandboxUrl)
      .get(`/sandbox/legacy?prospectId=${encodeURIComponent(prospectId)}`)
      .expect(200)
  ).body as LegacyReadOut;
const signingSessions = async (prospectId: string) =>
  (
    (
      await request(stack.sandboxUrl)
        .get(`/sandbox/signatures?prospectId=${encodeURIComponent(prospectId)}`)
        .expect(200)
    ).body as { signatures: unknown[] }
  ).signatures;

/** Waits (no time budget asserted) until the sandbox has completed the call the web process gave up on. */
const completedUpstream = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 100 });

// --- the legacy form (as tests/http/legacyForm.test.ts posts it) ---

/** At the legacy review with the form filled in; answers the page and the prospect id. */
async function atLegacyReview(agent: Agent, email = 'prospect@example.se'): Promise<{ page: string; prospectId: string; persona: Persona }> {
  const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'legacyFlow');
  // The legacy flow's page carries ?shouldUseLegacyFlow=true.
  const path = page.split('?')[0]!;
  const prospectId = decodeURIComponent(path.split('/').pop()!);
  await postLegacy(agent, path, legacyFormBody(persona, { email })).expect(303);
  expect(screenOf((await agent.get(path).expect(200)).text)).toEqual(['EXISTING_STEP', 'review']);
  return { page: path, prospectId, persona };
}

/** The first "Sign agreements" times out: the try-again text, still on the review. */
async function signTimesOut(agent: Agent, page: string): Promise<void> {
  const refused = await postLegacy(agent, page, LEGACY_SIGN).expect(502);
  expect(refused.text).toContain(TRY_AGAIN);
}

async function signsOnce(agent: Agent, page: string): Promise<string> {
  const signing = (await postLegacy(agent, page, LEGACY_SIGN).expect(303)).headers.location as string;
  expect(signing).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
  return signing;
}

describe('a save call that timed out but completed upstream is repeated', () => {
  it('legacy form: a late regulation call is reused by the next Sign, not created again', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await atLegacyReview(agent);
    await late('POST', legacyPaths.regulation);
    await signTimesOut(agent, page);
    // The sandbox creates the regulation after the web process gave up.
    await completedUpstream(async () => expect((await legacyReadOut(prospectId)).regulations).toHaveLength(1));
    await signsOnce(agent, page);
    const saved = await legacyReadOut(prospectId);
    expect({ regulations: saved.regulations.length, signatures: saved.signatures.length }).toEqual({ regulations: 1, signatures: 1 });
    expect(await signingSessions(prospectId)).toHaveLength(1);
  });

  it('legacy form: a late signature request is reused by the next Sign, and the regulation is not sent again', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await atLegacyReview(agent);
    await late('POST', legacyPaths.signatures(prospectId));
    await signTimesOut(agent, page);
    await completedUpstream(async () => expect(await signingSessions(prospectId)).toHaveLength(1));
    await signsOnce(agent, page);
    const saved = await legacyReadOut(prospectId);
    expect({ regulations: saved.regulations.length, signatures: saved.signatures.length }).toEqual({ regulations: 1, signatures: 1 });
    expect(await signingSessions(prospectId)).toHaveLength(1);
  });

  it('legacy form: answers changed after a late regulation call update that regulation instead of creating a second', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId, persona } = await atLegacyReview(agent);
    await late('POST', legacyPaths.regulation);
    await signTimesOut(agent, page);
    await completedUpstream(async () => expect((await legacyReadOut(prospectId)).regulations).toHaveLength(1));
    // A Change: another e-mail address, then Sign again.
    await postLegacy(agent, page, 'step=EXISTING_STEP&screen=review&intent=change&section=contact').expect(303);
    await postLegacy(agent, page, legacyFormBody(persona, { email: 'changed@example.se' })).expect(303);
    await signsOnce(agent, page);
    const saved = await legacyReadOut(prospectId);
    // The one regulation created, then updated under its id; one signing session, of the changed answers.
    expect(saved.regulations.map((r) => r.regulation_id === null)).toEqual([true, false]);
    expect(saved.updates.at(-1)).toMatchObject({ email: 'changed@example.se' });
    expect(await signingSessions(prospectId)).toHaveLength(1);
  });

  it("step flow: a late signing-session request is reused by the next 'Sign with BankID'", async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'accounts');
    const prospectId = decodeURIComponent(page.split('/').pop()!);
    const SIGN = 'step=MILESTONE_THREE_STEP&screen=milestone';
    await late('POST', brokeragePaths.signatures(prospectId));
    const refused = await postStep(agent, page, SIGN).expect(502);
    expect(refused.text).toContain(TRY_AGAIN);
    await completedUpstream(async () => expect(await signingSessions(prospectId)).toHaveLength(1));
    const signing = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    const sessions = (await signingSessions(prospectId)) as Array<{ id: string }>;
    expect(sessions).toHaveLength(1);
    expect(signing).toBe(`${stack.sandboxUrl}/sandbox/signing/${sessions[0]!.id}`);
  });
});
