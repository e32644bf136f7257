// The typed brokerage client's calls for a saved application (server/upstream/brokerageResumeCalls.ts) against a
// listening sandbox that keeps applications: prospect creation answered again (resumed), GET steps, GET related data of
// every step, GET onboarding ready, each parsed by its contract; the owner check, an unknown prospect and a bad token as
// UpstreamError with the status.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../server/upstream/http.ts';
import { stepIds, type StepId } from '../../shared/contracts/brokerageContract.ts';
import { listeningSandboxWithClient, personaFor } from '../support/sandboxApi.ts';
import { prospectsOf } from '../support/savedApplication.ts';

const sandbox = listeningSandboxWithClient({ prospectKeepDays: 90 });

/** A session of the scenario's persona and its prospect, through the client's own calls (routing's order). */
async function routed(scenario: string) {
  const { client, url } = sandbox;
  const persona = await personaFor(url, scenario);
  const session = await request(url).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  const { jwt } = await client.refreshToken(session.body.refreshToken as string);
  await client.becomeCustomerIntent(jwt, 'SE');
  await client.submitValidationStep(jwt, 'SE', true);
  return { jwt, persona, prospect: await client.createProspect(jwt, 'SE', false) };
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => {
      if (!(err instanceof UpstreamError)) throw err;
      return err.status;
    },
  );

describe('typed brokerage client: a saved application', () => {
  it('createProspect answers resumed; the steps, every step’s related data and readiness parse; answers saved through the client show up', async () => {
    const { client } = sandbox;
    const { jwt, persona, prospect } = await routed('halfFinished');
    expect(prospect.resumed).toBe(true);
    const prospectId = prospect.prospect_id;

    const { steps, keptUntil } = await client.prospectSteps(jwt, prospectId);
    expect(steps.find((s) => !s.completed)).toEqual({ stepName: 'CITIZENSHIP_STEP', completed: false, subStep: 0 });
    expect(Date.parse(keptUntil)).toBeGreaterThan(Date.now() + 80 * 24 * 3600 * 1000);
    // Every step name, each parsed by its own shape.
    for (const step of stepIds) expect(await client.stepRelatedData(jwt, prospectId, step)).toBeTypeOf('object');
    expect(await client.stepRelatedData(jwt, prospectId, 'ACCOUNT_ALIAS_STEP')).toEqual({
      accountTypeAliases: [
        { accountTypeWithCountry: 'ISK_SE', alias: 'Långsiktigt' },
        { accountTypeWithCountry: 'DEP_SE', alias: 'Buffert' },
      ],
    });
    // The contact step's own call reads the same data.
    expect(await client.contactRelatedData(jwt, prospectId)).toMatchObject({ email: 'klara.forsberg@example.com', mobilePhoneNumber: '+46701234567' });
    expect(await client.onboardingReady(jwt, prospectId)).toEqual({ isReady: false, missingSteps: ['CITIZENSHIP_STEP', 'TAX_INFO_STEP', 'KYC_STEP'] });

    // Only Swedish, taxable only at home, the questionnaire answered: ready.
    await client.submitCitizenship(jwt, { prospectId, isCitizenInTld: true, citizenshipInformationList: [] });
    expect(await client.stepRelatedData(jwt, prospectId, 'CITIZENSHIP_STEP')).toEqual({ isCitizenInTld: true, citizenshipInformationList: [] });
    expect(await client.submitTaxInfo(jwt, prospectId, { taxableInTld: true, taxInformationListOutsideOfTld: [] })).toEqual({ ok: true });
    const started = await client.startAnswerSession(jwt, prospectId, 'sv-SE');
    if (started.kind !== 'started') throw new Error(`expected a session, got ${started.kind}`);
    let page = started.session.answerSessionPage;
    while (page) {
      const answers = page.questions.map((q) => ({ questionId: q.id, answerIds: [q.id === 84 ? 223 : q.options[0]!.id] }));
      page = (await client.answerSessionNext(jwt, started.session.answerSessionId, answers)).answerSessionPage;
    }
    expect(await client.submitKycStep(jwt, prospectId)).toEqual({ ok: true });
    expect(await client.onboardingReady(jwt, prospectId)).toEqual({ isReady: true, missingSteps: [] });

    // Still the one application, each answer sent once.
    const [only, ...others] = await prospectsOf(sandbox.url, persona.nationalId);
    expect(others).toEqual([]);
    expect(only!.prospectId).toBe(prospectId);
    expect(Object.values(only!.submits).every((statuses) => statuses.length === 1)).toBe(true);
  });

  it('someone else’s prospect 403, an unknown prospect or step 404, a bad token 401: thrown as UpstreamError with the status', async () => {
    const { client } = sandbox;
    const owner = await routed('halfFinished');
    const stranger = await routed('onboarding');
    const id = owner.prospect.prospect_id;
    expect(await rejection(client.prospectSteps(stranger.jwt, id))).toBe(403);
    expect(await rejection(client.stepRelatedData(stranger.jwt, id, 'CONTACT_INFORMATION_STEP'))).toBe(403);
    expect(await rejection(client.onboardingReady(stranger.jwt, id))).toBe(403);
    expect(await rejection(client.prospectSteps(owner.jwt, 'no-such-prospect'))).toBe(404);
    expect(await rejection(client.stepRelatedData(owner.jwt, id, 'NOT_A_STEP' as StepId))).toBe(404);
    expect(await rejection(client.onboardingReady('not-a-token', id))).toBe(401);
  });
});
