// The sandbox's saved applications (brokerageContract.ts createProspectResponse, savedApplicationContract.ts): one
// application per person kept for its keep time on the sandbox's clock, GET steps / related data by step name / onboarding
// ready answered from what each step saved, strictly (401, the owner check with two personas, unknown step 404), the
// half-finished persona, and the read-out counting a person's prospects and each step's submits.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { DAY_MS, keepDaysOption } from '../../sandbox/keptProspects.ts';
import { brokerageErrorBody, brokeragePaths, stepIds, unauthorizedBody, type StepId } from '../../shared/contracts/brokerageContract.ts';
import { answerSessionResponse, kycPaths, PRIVATE_QUESTIONNAIRE_ALIAS, X_LOCALE_HEADER } from '../../shared/contracts/kycContract.ts';
import {
  onboardingReadyResponse,
  prospectStepsResponse,
  savedApplicationPaths,
  stepRelatedDataResponse,
  type StepRelatedData,
} from '../../shared/contracts/savedApplicationContract.ts';
import { answersFor } from '../support/kycSandbox.ts';
import { bearer, loginWithBankid, newApp, PUBLIC_URL, signatureBody, type Target } from '../support/sandboxApi.ts';
import { prospectsOf, routeToProspect, uploadTo } from '../support/savedApplication.ts';

const KEEP = { prospectKeepDays: 90 };

async function stepsOf(app: Target, jwt: string, prospectId: string) {
  const res = await request(app).get(savedApplicationPaths.prospectSteps(prospectId)).set(bearer(jwt)).expect(200);
  return prospectStepsResponse.parse(res.body).data;
}
async function relatedData<S extends StepId>(app: Target, jwt: string, prospectId: string, step: S): Promise<StepRelatedData<S>> {
  const res = await request(app).get(brokeragePaths.stepRelatedData(prospectId, step)).set(bearer(jwt)).expect(200);
  const parsed = stepRelatedDataResponse(step).parse(res.body);
  expect(parsed.data.stepName).toBe(step);
  return parsed.data.stepRelatedData;
}
async function readinessOf(app: Target, jwt: string, prospectId: string) {
  const res = await request(app).get(savedApplicationPaths.onboardingReady(prospectId)).set(bearer(jwt)).expect(200);
  return onboardingReadyResponse.parse(res.body).data;
}
const completedOf = (steps: { stepName: StepId; completed: boolean; subStep: number }[]) =>
  Object.fromEntries(steps.map((s) => [s.stepName, s.completed ? 'done' : `open@${s.subStep}`]));

/** Every GET of a saved application, with the step names it is asked for. */
const readCalls = (prospectId: string) => [
  savedApplicationPaths.prospectSteps(prospectId),
  savedApplicationPaths.onboardingReady(prospectId),
  ...stepIds.map((step) => brokeragePaths.stepRelatedData(prospectId, step)),
];

describe('one application per person', () => {
  it('answers the unfinished prospect again (resumed) for the same flow; another person, the other flow and a signed one get their own', async () => {
    const app = newApp(undefined, KEEP);
    const { jwt, persona } = await loginWithBankid(app, 'onboarding');
    const first = await routeToProspect(app, jwt);
    expect(first.resumed).toBe(false);
    // Identifying again (a new session, another device): the same prospect.
    const again = await loginWithBankid(app, 'onboarding');
    expect(await routeToProspect(app, again.jwt)).toEqual({ prospect_id: first.prospect_id, resumed: true });
    expect(await routeToProspect(app, jwt)).toEqual({ prospect_id: first.prospect_id, resumed: true });

    const other = await loginWithBankid(app, 'accounts');
    expect((await routeToProspect(app, other.jwt)).resumed).toBe(false);
    // The legacy form (v2) is an application of its own, resumed the same way.
    const legacy = await routeToProspect(app, jwt, 'SE', true);
    expect(legacy).toEqual({ prospect_id: expect.not.stringMatching(first.prospect_id) as string, resumed: false });
    expect((await routeToProspect(app, jwt, 'SE', true)).prospect_id).toBe(legacy.prospect_id);

    let prospects = await prospectsOf(app, persona.nationalId);
    expect(prospects.map((p) => [p.legacy, p.resumed])).toEqual([
      [false, 2],
      [true, 1],
    ]);

    // Signed: the application is finished, the next identification starts a new one.
    await request(app)
      .post(brokeragePaths.accountPickerStep(first.prospect_id))
      .set(bearer(jwt))
      .send({ accountTypesWithCountry: ['DEP_SE'] })
      .expect(200);
    const signature = await request(app).post(brokeragePaths.signatures(first.prospect_id)).set(bearer(jwt)).send(signatureBody).expect(200);
    await request(app)
      .post(`${new URL(signature.body.data.url as string).pathname}/sign`)
      .expect(303);
    const next = await routeToProspect(app, jwt);
    expect(next.resumed).toBe(false);
    expect(next.prospect_id).not.toBe(first.prospect_id);
    prospects = await prospectsOf(app, persona.nationalId);
    expect(prospects.filter((p) => !p.legacy).map((p) => p.signed)).toEqual([true, false]);
  });

  it('keeps it 90 days (the default) after it was last saved to, on the sandbox clock; then a new one', async () => {
    let now = Date.parse('2025-03-01T08:00:00Z');
    const app = createSandboxApp({ publicUrl: PUBLIC_URL, now: () => now });
    const { jwt, persona } = await loginWithBankid(app, 'onboarding');
    const { prospect_id: prospectId } = await routeToProspect(app, jwt);
    expect((await stepsOf(app, jwt, prospectId)).keptUntil).toBe('2025-05-30T08:00:00.000Z');

    // A step submit is a save: kept 90 days from then.
    now += 90 * DAY_MS - 1;
    await request(app)
      .post(brokeragePaths.accountPickerStep(prospectId))
      .set(bearer(jwt))
      .send({ accountTypesWithCountry: ['DEP_SE', 'ISK_SE'] })
      .expect(200);
    expect((await stepsOf(app, jwt, prospectId)).keptUntil).toBe(new Date(now + 90 * DAY_MS).toISOString());
    now += 90 * DAY_MS - 1;
    expect(await routeToProspect(app, jwt)).toEqual({ prospect_id: prospectId, resumed: true });
    // A refused submit saves nothing.
    await request(app)
      .post(brokeragePaths.accountPickerStep(prospectId))
      .set(bearer(jwt))
      .send({ accountTypesWithCountry: ['ISK_SE'] })
      .expect(400);

    now += 1;
    const later = await routeToProspect(app, jwt);
    expect(later.resumed).toBe(false);
    expect(later.prospect_id).not.toBe(prospectId);
    const prospects = await prospectsOf(app, persona.nationalId);
    expect(prospects.map((p) => p.prospectId)).toEqual([prospectId, later.prospect_id]);
    expect(prospects[0]!.submits).toEqual({ ACCOUNT_PICKER_STEP: [200, 400] });
  });

  it('keeps none with 0 days (the tests’ default): each creation is a new prospect', async () => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'onboarding');
    const one = await routeToProspect(app, jwt);
    const two = await routeToProspect(app, jwt);
    expect([one.resumed, two.resumed]).toEqual([false, false]);
    expect(two.prospect_id).not.toBe(one.prospect_id);
  });

  it('reads SANDBOX_PROSPECT_KEEP_DAYS: days, 0 or more; refuses anything else', () => {
    expect(keepDaysOption({})).toEqual({});
    expect(keepDaysOption({ SANDBOX_PROSPECT_KEEP_DAYS: '' })).toEqual({});
    expect(keepDaysOption({ SANDBOX_PROSPECT_KEEP_DAYS: '0' })).toEqual({ prospectKeepDays: 0 });
    expect(keepDaysOption({ SANDBOX_PROSPECT_KEEP_DAYS: '0.5' })).toEqual({ prospectKeepDays: 0.5 });
    expect(() => keepDaysOption({ SANDBOX_PROSPECT_KEEP_DAYS: '-1' })).toThrow(/0 or more/);
    expect(() => keepDaysOption({ SANDBOX_PROSPECT_KEEP_DAYS: 'ninety' })).toThrow(/0 or more/);
  });
});

describe('the saved application’s calls are strict', () => {
  it('401 without a token, with an unknown one and with an expired one (EXPIRED_ACCESS_TOKEN)', async () => {
    const app = newApp(undefined, KEEP);
    const { jwt, persona } = await loginWithBankid(app, 'halfFinished');
    const { prospect_id: prospectId } = await routeToProspect(app, jwt);
    for (const path of readCalls(prospectId)) {
      expect(unauthorizedBody.parse((await request(app).get(path).expect(401)).body).code).toBe('INVALID_ACCESS_TOKEN');
      expect(unauthorizedBody.parse((await request(app).get(path).set(bearer('not-a-token')).expect(401)).body).code).toBe('INVALID_ACCESS_TOKEN');
    }
    await request(app).post('/sandbox/sessions/expire').send({ nationalId: persona.nationalId }).expect(200);
    for (const path of readCalls(prospectId)) {
      expect(unauthorizedBody.parse((await request(app).get(path).set(bearer(jwt)).expect(401)).body).code).toBe('EXPIRED_ACCESS_TOKEN');
    }
  });

  it('the owner check: another person’s prospect answers 403 on every call, an unknown one 404, and neither reveals anything', async () => {
    const app = newApp(undefined, KEEP);
    const owner = await loginWithBankid(app, 'halfFinished');
    const { prospect_id: prospectId } = await routeToProspect(app, owner.jwt);
    const stranger = await loginWithBankid(app, 'onboarding');
    const strangers = await routeToProspect(app, stranger.jwt);
    for (const path of readCalls(prospectId)) {
      const res = await request(app).get(path).set(bearer(stranger.jwt)).expect(403);
      expect(brokerageErrorBody.parse(res.body).data?.message).toBe('The prospect belongs to another customer');
      expect(JSON.stringify(res.body)).not.toContain('example.com');
    }
    // And the other way round: the owner of the half-finished application cannot read the stranger's.
    for (const path of readCalls(strangers.prospect_id)) await request(app).get(path).set(bearer(owner.jwt)).expect(403);
    for (const path of readCalls('00000000-0000-4000-8000-000000000000')) await request(app).get(path).set(bearer(owner.jwt)).expect(404);
    // Nobody's prospect changed hands: each still answers its own person.
    expect((await routeToProspect(app, stranger.jwt)).prospect_id).toBe(strangers.prospect_id);
    expect((await routeToProspect(app, owner.jwt)).prospect_id).toBe(prospectId);
  });

  it('an unknown step name answers 404; each known one answers its shape, empty before anything is saved', async () => {
    const app = newApp(undefined, KEEP);
    const { jwt } = await loginWithBankid(app, 'livesAbroad');
    const { prospect_id: prospectId } = await routeToProspect(app, jwt);
    for (const name of ['NOT_A_STEP', 'kyc_step', 'KYC', 'KYC_STEP ', '..']) {
      const res = await request(app)
        .get(brokeragePaths.stepRelatedData(prospectId, name as StepId))
        .set(bearer(jwt))
        .expect(404);
      expect(brokerageErrorBody.parse(res.body).data?.message).toMatch(/No such step|No route/);
    }
    expect(await relatedData(app, jwt, prospectId, 'CITIZENSHIP_STEP')).toEqual({ isCitizenInTld: null, citizenshipInformationList: [] });
    expect(await relatedData(app, jwt, prospectId, 'ACCOUNT_ALIAS_STEP')).toEqual({ accountTypeAliases: null });
    expect(await relatedData(app, jwt, prospectId, 'MILESTONE_ONE_STEP')).toEqual({ passedAt: null });
    expect(await relatedData(app, jwt, prospectId, 'TAX_INFO_STEP')).toEqual({ taxableInTld: null, taxInformationListOutsideOfTld: null, taxResidence: null });
    expect(await relatedData(app, jwt, prospectId, 'KYC_STEP')).toMatchObject({ answerSessionId: null, pagesAnswered: 0, answers: [], submitted: false });
  });
});

describe('the half-finished persona', () => {
  it('starts with an application: accounts, names and contact information saved (each once), the rest open; a reset makes it afresh', async () => {
    const app = newApp(undefined, KEEP);
    const { jwt, persona } = await loginWithBankid(app, 'halfFinished');
    const [seeded] = await prospectsOf(app, persona.nationalId);
    expect(seeded).toMatchObject({ legacy: false, signed: false, resumed: 0 });
    expect(await routeToProspect(app, jwt)).toEqual({ prospect_id: seeded!.prospectId, resumed: true });
    const prospectId = seeded!.prospectId;

    expect(completedOf((await stepsOf(app, jwt, prospectId)).steps)).toEqual({
      MILESTONE_ONE_STEP: 'done',
      ACCOUNT_PICKER_STEP: 'done',
      ACCOUNT_ALIAS_STEP: 'done',
      MILESTONE_TWO_STEP: 'done',
      CONTACT_INFORMATION_STEP: 'done',
      CITIZENSHIP_STEP: 'open@0',
      TAX_INFO_STEP: 'open@0',
      KYC_STEP: 'open@0',
      MILESTONE_THREE_STEP: 'open@0',
    });
    expect(await relatedData(app, jwt, prospectId, 'ACCOUNT_PICKER_STEP')).toEqual({ accountTypesWithCountry: ['ISK_SE', 'DEP_SE'] });
    expect(await relatedData(app, jwt, prospectId, 'ACCOUNT_ALIAS_STEP')).toEqual({
      accountTypeAliases: [
        { accountTypeWithCountry: 'ISK_SE', alias: 'Långsiktigt' },
        { accountTypeWithCountry: 'DEP_SE', alias: 'Buffert' },
      ],
    });
    expect(await relatedData(app, jwt, prospectId, 'CONTACT_INFORMATION_STEP')).toEqual({
      email: 'klara.forsberg@example.com',
      mobilePhoneNumber: '+46701234567',
      address: 'Drottninggatan 12',
      zipCode: '111 51',
      city: 'Stockholm',
    });
    expect((await relatedData(app, jwt, prospectId, 'MILESTONE_TWO_STEP')).passedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await readinessOf(app, jwt, prospectId)).toEqual({ isReady: false, missingSteps: ['CITIZENSHIP_STEP', 'TAX_INFO_STEP', 'KYC_STEP'] });
    expect((await prospectsOf(app, persona.nationalId))[0]!.submits).toEqual({
      MILESTONE_ONE_STEP: [200],
      ACCOUNT_PICKER_STEP: [200],
      ACCOUNT_ALIAS_STEP: [200],
      MILESTONE_TWO_STEP: [200],
      CONTACT_INFORMATION_STEP: [200],
    });

    await request(app).post('/sandbox/reset').expect(204);
    const [afresh] = await prospectsOf(app, persona.nationalId);
    expect(afresh).toMatchObject({ resumed: 0, signed: false });
    expect(afresh!.prospectId).not.toBe(prospectId);
  });
});

describe('each step’s saved answers are read back', () => {
  it('every step of a person living abroad: completed and sub-step as answered, related data as submitted, files by name; then ready', async () => {
    const app = newApp(undefined, KEEP);
    const { jwt, persona } = await loginWithBankid(app, 'livesAbroad');
    const { prospect_id: prospectId } = await routeToProspect(app, jwt);
    const auth = bearer(jwt);
    const post = (path: string, body: object, status = 200) => request(app).post(path).set(auth).send(body).expect(status);
    const state = async () => completedOf((await stepsOf(app, jwt, prospectId)).steps);

    await post(brokeragePaths.milestoneStep(prospectId, 'one'), {});
    await post(brokeragePaths.accountPickerStep(prospectId), { accountTypesWithCountry: ['DEP_SE', 'ISK_SE'] });
    // A refused alias submit is counted, and saves nothing.
    await post(brokeragePaths.accountAliasStep(prospectId), { accountTypeAliases: [{ accountTypeWithCountry: 'ISK_SE', alias: 'x' }] }, 400);
    expect(await relatedData(app, jwt, prospectId, 'ACCOUNT_ALIAS_STEP')).toEqual({ accountTypeAliases: null });
    await post(brokeragePaths.accountAliasStep(prospectId), { accountTypeAliases: [{ accountTypeWithCountry: 'ISK_SE', alias: 'Resor 2026' }] });
    await post(brokeragePaths.milestoneStep(prospectId, 'two'), {});
    await post(brokeragePaths.contactInfoStep(prospectId), { mobilePhoneNumber: '+46709876543', email: 'walk@example.org' });
    expect(await state()).toMatchObject({ ACCOUNT_ALIAS_STEP: 'done', CONTACT_INFORMATION_STEP: 'done', CITIZENSHIP_STEP: 'open@0' });
    expect(await relatedData(app, jwt, prospectId, 'ACCOUNT_PICKER_STEP')).toEqual({ accountTypesWithCountry: ['DEP_SE', 'ISK_SE'] });
    expect(await relatedData(app, jwt, prospectId, 'ACCOUNT_ALIAS_STEP')).toEqual({
      accountTypeAliases: [{ accountTypeWithCountry: 'ISK_SE', alias: 'Resor 2026' }],
    });
    expect(await relatedData(app, jwt, prospectId, 'CONTACT_INFORMATION_STEP')).toMatchObject({ email: 'walk@example.org', mobilePhoneNumber: '+46709876543' });

    // Citizenship: Swedish and Norwegian. The countries first (a task per country), the proof is open: sub-step 2.
    const citizenship = await post(brokeragePaths.submitCitizenshipV3, {
      prospectId,
      isCitizenInTld: true,
      citizenshipInformationList: [{ countryCode: 'NO', attachments: [] }],
    });
    const taskId = (citizenship.body as { data: { tasks: { taskId: string }[] } }).data.tasks[0]!.taskId;
    expect((await state()).CITIZENSHIP_STEP).toBe('open@2');
    const passport = await uploadTo(app, jwt, taskId, 'norsk-pass.pdf');
    // Uploaded, not submitted yet: listed by name already (the page shows it after the person comes back).
    expect(await relatedData(app, jwt, prospectId, 'CITIZENSHIP_STEP')).toEqual({
      isCitizenInTld: true,
      citizenshipInformationList: [
        { countryCode: 'NO', taskId, attachments: [{ attachmentId: passport, fileName: 'norsk-pass.pdf', contentType: 'application/pdf' }] },
      ],
    });
    await post(brokeragePaths.submitCitizenshipV3, {
      prospectId,
      isCitizenInTld: true,
      citizenshipInformationList: [{ countryCode: 'NO', taskId, attachments: [passport] }],
    });
    expect((await state()).CITIZENSHIP_STEP).toBe('done');

    // Residency: the case after the address and the questions (sub-step 2), its document, then the submit.
    const address = { addressCountry: 'NO', address: 'Storgata 1', zipCode: '0155', city: 'Oslo' };
    const answers = { applicationPurpose: 'Saving', reasonForLivingAbroad: 'Work', durationAbroad: 'Two years' };
    const residencyCase = await post(brokeragePaths.createCase, { prospectId, type: 'RESIDENCY', taskData: { ...address, ...answers }, attachments: [] });
    const nnxTaskId = (residencyCase.body as { data: { taskId: string } }).data.taskId;
    expect((await state()).RESIDENCY_STEP).toBe('open@2');
    const lease = await uploadTo(app, jwt, nnxTaskId, 'hyresavtal.pdf');
    const questionsAndAnswers = Object.entries(answers).map(([question, answer]) => ({ question, answer }));
    const openResidency = { ...address, questionsAndAnswers, nnxTaskId };
    const leaseFile = { attachmentId: lease, fileName: 'hyresavtal.pdf', contentType: 'application/pdf' };
    expect(await relatedData(app, jwt, prospectId, 'RESIDENCY_STEP')).toEqual({ ...openResidency, attachments: [leaseFile], submitted: false });
    await post(brokeragePaths.residencyStep(prospectId), { ...openResidency, attachments: [{ attachmentId: lease }] });
    expect(await relatedData(app, jwt, prospectId, 'RESIDENCY_STEP')).toEqual({ ...openResidency, attachments: [leaseFile], submitted: true });
    expect((await state()).RESIDENCY_STEP).toBe('done');

    // Tax: the proof of tax residence's case, the numbers, then the proof (sub-step 3 until it is submitted).
    const taxCase = await post(brokeragePaths.createCase, { prospectId, type: 'TAX_RESIDENCE', taskData: { countryCode: 'NO' }, attachments: [] });
    const taxTaskId = (taxCase.body as { data: { taskId: string } }).data.taskId;
    const certificate = await uploadTo(app, jwt, taxTaskId, 'skattebevis.pdf');
    const numbers = [{ countryCode: 'NO', taxIdentificationNumber: '01019012345', startDate: '2021-06-01' }];
    await post(brokeragePaths.taxInfoStepV3(prospectId), { taxableInTld: true, taxInformationListOutsideOfTld: numbers });
    expect((await state()).TAX_INFO_STEP).toBe('open@3');
    await post(brokeragePaths.taxResidence, {
      prospectId,
      type: 'TAX_RESIDENCE',
      nnxTaskId: taxTaskId,
      taskData: { countryCode: 'NO' },
      attachments: [{ attachmentId: certificate }],
    });
    expect(await relatedData(app, jwt, prospectId, 'TAX_INFO_STEP')).toEqual({
      taxableInTld: true,
      taxInformationListOutsideOfTld: numbers,
      taxResidence: {
        countryCode: 'NO',
        nnxTaskId: taxTaskId,
        attachments: [{ attachmentId: certificate, fileName: 'skattebevis.pdf', contentType: 'application/pdf' }],
        submitted: true,
      },
    });
    expect((await state()).TAX_INFO_STEP).toBe('done');
    expect(await readinessOf(app, jwt, prospectId)).toEqual({ isReady: false, missingSteps: ['KYC_STEP'] });

    // KYC: two pages answered, the session carries on at the third (its page in the related data); then all of it.
    const start = await request(app)
      .post(kycPaths.answerSessions)
      .set(auth)
      .set(X_LOCALE_HEADER, 'sv-SE')
      .send({ targetCustomerId: prospectId, questionnaireAlias: PRIVATE_QUESTIONNAIRE_ALIAS })
      .expect(200);
    let session = answerSessionResponse.parse(start.body);
    const next = async () =>
      (session = answerSessionResponse.parse(
        (await post(kycPaths.answerSessionNext(session.answerSessionId), { answers: answersFor(session.answerSessionPage!) })).body,
      ));
    await next();
    await next();
    const midway = await relatedData(app, jwt, prospectId, 'KYC_STEP');
    expect(midway).toMatchObject({ answerSessionId: session.answerSessionId, pagesAnswered: 2, pageCount: 10, questionnaireAnswered: false, submitted: false });
    expect(midway.answerSessionPage).toEqual(session.answerSessionPage);
    expect(midway.answers.map((a) => a.questionId)).toEqual([83, 87]);
    while (session.answerSessionPage) await next();
    await request(app).post(kycPaths.kycStep(prospectId)).set(auth).expect(204);
    expect(await relatedData(app, jwt, prospectId, 'KYC_STEP')).toMatchObject({
      answerSessionId: null,
      pagesAnswered: 10,
      questionnaireAnswered: true,
      submitted: true,
    });

    // Ready: every step that holds answers is done (milestone three is the signing itself).
    expect(await readinessOf(app, jwt, prospectId)).toEqual({ isReady: true, missingSteps: [] });
    expect(await state()).toMatchObject({ KYC_STEP: 'done', MILESTONE_THREE_STEP: 'open@0' });
    const [readOut] = await prospectsOf(app, persona.nationalId);
    expect(readOut!.submits).toEqual({
      MILESTONE_ONE_STEP: [200],
      ACCOUNT_PICKER_STEP: [200],
      ACCOUNT_ALIAS_STEP: [400, 200],
      MILESTONE_TWO_STEP: [200],
      CONTACT_INFORMATION_STEP: [200],
      CITIZENSHIP_STEP: [200, 200],
      RESIDENCY_STEP: [200],
      TAX_INFO_STEP: [200],
      KYC_STEP: [204],
    });
  });

  it('the legacy form: its step is done once the prospect update was accepted', async () => {
    const app = newApp(undefined, KEEP);
    const { jwt } = await loginWithBankid(app, 'legacyFlow');
    const { prospect_id: prospectId } = await routeToProspect(app, jwt, 'SE', true);
    expect((await stepsOf(app, jwt, prospectId)).steps).toEqual([{ stepName: 'EXISTING_STEP', completed: false, subStep: 0 }]);
    expect(await relatedData(app, jwt, prospectId, 'EXISTING_STEP')).toEqual({ prospectUpdated: false });
    expect(await readinessOf(app, jwt, prospectId)).toEqual({ isReady: false, missingSteps: ['EXISTING_STEP'] });
  });
});
