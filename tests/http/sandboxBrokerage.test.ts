// HTTP tests of the upstream sandbox: the brokerage API's happy path and customer creation per scenario.
// Helpers: tests/support/sandboxApi.ts.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import {
  brokerageErrorBody,
  brokeragePaths,
  createCustomerResponse,
  createProspectResponse,
  initialStepsResponse,
  refreshTokenResponse,
  routingStatusResponse,
  signatureResponse,
  systemStatusResponse,
  type CreationStatus,
} from '../../shared/contracts/brokerageContract.ts';
import {
  PUBLIC_URL,
  UUID,
  newApp,
  personaFor,
  startOrder,
  collect,
  bearer,
  loginWithBankid,
  loginWithShortcut,
  signatureBody,
  signedProspect,
  pollCreation,
} from '../support/sandboxApi.ts';

describe('brokerage happy path (onboarding persona, SE)', () => {
  it('runs session → jwt → routing → intent → validation → prospect → steps → signing → creation done', async () => {
    const app = newApp();
    const persona = await personaFor(app, 'onboarding');

    // Identification with BankID in the test app.
    const { orderRef } = await startOrder(app);
    await request(app).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: persona.nationalId }).expect(200);
    expect((await collect(app, orderRef)).status).toBe('complete');

    const session = await request(app).post(brokeragePaths.bankidSession).send({ orderReference: orderRef }).expect(200);
    const refresh = await request(app).post(brokeragePaths.refreshToken).send({ refreshToken: session.body.refreshToken }).expect(200);
    const { jwt, expiresIn } = refreshTokenResponse.parse(refresh.body);
    expect(expiresIn).toBe(1800);
    const auth = bearer(jwt);

    const routing = await request(app).get(brokeragePaths.routingStatus).set(auth).expect(200);
    expect(routingStatusResponse.parse(routing.body)).toEqual({ customerRoutingStatus: 'ONBOARDING', customerId: null, routingInformation: null });
    const status = await request(app).get(brokeragePaths.systemStatus).set(auth).expect(200);
    expect(systemStatusResponse.parse(status.body)).toEqual({ creationPaused: false, feedbackBanner: null });

    await request(app).put(brokeragePaths.becomeCustomerIntent).set(auth).send({ customerType: 'PRIVATE', country: 'SE' }).expect(204);
    expect((await request(app).post(brokeragePaths.validationStepV3).set(auth).send({ country: 'SE' }).expect(200)).body).toEqual({});
    expect((await request(app).post(brokeragePaths.validationStep).set(auth).send({ country: 'SE' }).expect(200)).body).toEqual({});

    const created = await request(app).post(brokeragePaths.prospectsV3).set(auth).send({ country: 'SE', customerType: 'PRIVATE' }).expect(200);
    const prospectId = createProspectResponse.parse(created.body).prospect_id;
    expect(prospectId).toMatch(UUID);

    const steps = await request(app).get(brokeragePaths.initialSteps(prospectId)).set(auth).expect(200);
    expect(initialStepsResponse.parse(steps.body).data.initialSteps).toEqual([
      'MILESTONE_ONE_STEP',
      'ACCOUNT_PICKER_STEP',
      'ACCOUNT_ALIAS_STEP',
      'MILESTONE_TWO_STEP',
      'CONTACT_INFORMATION_STEP',
      'CITIZENSHIP_STEP',
      'TAX_INFO_STEP',
      'KYC_STEP',
      'MILESTONE_THREE_STEP',
    ]);

    await request(app).post(brokeragePaths.milestoneStep(prospectId, 'one')).set(auth).expect(200, {});
    await request(app)
      .post(brokeragePaths.accountPickerStep(prospectId))
      .set(auth)
      .send({ accountTypesWithCountry: ['DEP_SE', 'ISK_SE'] })
      .expect(200, {});
    await request(app).post(brokeragePaths.milestoneStep(prospectId, 'two')).set(auth).expect(200, {});
    await request(app).post(brokeragePaths.milestoneStep(prospectId, 'three')).set(auth).expect(200, {});

    // Creation cannot start before signing.
    const early = await request(app).post(brokeragePaths.customers).set(auth).send({ prospect_id: prospectId }).expect(400);
    expect(brokerageErrorBody.parse(early.body).data?.message).toEqual(expect.any(String));
    expect(await pollCreation(app, jwt, prospectId)).toEqual({
      done: false,
      creation_process_status: 'uninitiated',
      nightly_downtime: false,
      creation_requests: [],
    });

    const signature = await request(app).post(brokeragePaths.signatures(prospectId)).set(auth).send(signatureBody).expect(200);
    const signingUrl = signatureResponse.parse(signature.body).data.url;
    expect(signingUrl).toMatch(new RegExp(`^${PUBLIC_URL}/sandbox/signing/[0-9a-f-]{36}$`));

    const signingPath = new URL(signingUrl).pathname;
    const signingPage = await request(app).get(signingPath).expect(200);
    expect(signingPage.text).toContain('<h1>Sign the agreements</h1>');
    expect(signingPage.text).toContain(`<form method="post" action="${signingPath}/sign"><button type="submit">Sign</button></form>`);
    expect(signingPage.text).toContain(`<form method="post" action="${signingPath}/cancel"><button type="submit">Cancel</button></form>`);
    const signed = await request(app).post(`${signingPath}/sign`).expect(303);
    expect(signed.headers.location).toBe(signatureBody.complete_url);

    const start = await request(app).post(brokeragePaths.customers).set(auth).send({ prospect_id: prospectId }).expect(200);
    expect(createCustomerResponse.parse(start.body).data?.message).toBeUndefined();

    const queued = {
      done: false,
      creation_process_status: 'customer_creation_started',
      nightly_downtime: false,
      creation_requests: [{ request_type: 'create_customer', status: 'queued' }],
    };
    const done = {
      done: true,
      creation_process_status: 'done',
      nightly_downtime: false,
      creation_requests: [{ request_type: 'create_customer', status: 'done' }],
    };
    expect(await pollCreation(app, jwt, prospectId)).toEqual(queued);
    expect(await pollCreation(app, jwt, prospectId)).toEqual(queued);
    expect(await pollCreation(app, jwt, prospectId)).toEqual(done);
    expect(await pollCreation(app, jwt, prospectId)).toEqual(done);

    await request(app).delete(brokeragePaths.logoutCurrent).set(auth).expect(204);
    await request(app).get(brokeragePaths.routingStatus).set(auth).expect(401);
  });
});

describe('customer creation progression per scenario', () => {
  const queued: CreationStatus = {
    done: false,
    creation_process_status: 'customer_creation_started',
    nightly_downtime: false,
    creation_requests: [{ request_type: 'create_customer', status: 'queued' }],
  };
  const done = (requests: CreationStatus['creation_requests']): CreationStatus => ({
    done: true,
    creation_process_status: 'done',
    nightly_downtime: false,
    creation_requests: requests,
  });
  const created = done([{ request_type: 'create_customer', status: 'done' }]);
  const times = (n: number, status: CreationStatus) => Array.from({ length: n }, () => status);

  it.each<[string, CreationStatus[]]>([
    ['onboarding', [queued, queued, created, created]],
    ['onboardingIntent', [queued, queued, created]],
    ['customerExists', [queued, done([{ request_type: 'update_customer', status: 'done' }]), done([{ request_type: 'update_customer', status: 'done' }])]],
    [
      'accountLimit',
      [
        queued,
        done([
          { request_type: 'create_customer', status: 'done' },
          { request_type: 'create_account', status: 'rejected' },
        ]),
      ],
    ],
    ['creationNightlyDowntime', times(3, { ...queued, nightly_downtime: true })],
    [
      'creationFailed',
      [
        queued,
        { done: false, creation_process_status: 'failed', nightly_downtime: false, creation_requests: [{ request_type: 'create_customer', status: 'failed' }] },
      ],
    ],
    ['creationSlow', [...times(8, queued), created, created]],
    ['creationStuck', times(25, queued)],
    ['creationPaused', times(25, queued)],
  ])('%s', async (scenario, expectedPolls) => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, scenario);
    const prospectId = await signedProspect(app, jwt);
    await request(app).post(brokeragePaths.customers).set(bearer(jwt)).send({ prospect_id: prospectId }).expect(200);
    const polls: CreationStatus[] = [];
    for (let i = 0; i < expectedPolls.length; i++) polls.push(await pollCreation(app, jwt, prospectId));
    expect(polls).toEqual(expectedPolls);
  });

  it('reports creationPaused in the system status only for the creationPaused persona', async () => {
    const app = newApp();
    for (const [scenario, paused] of [
      ['creationPaused', true],
      ['onboarding', false],
      ['creationStuck', false],
    ] as const) {
      const { jwt } = await loginWithBankid(app, scenario);
      const res = await request(app).get(brokeragePaths.systemStatus).set(bearer(jwt)).expect(200);
      expect([scenario, systemStatusResponse.parse(res.body)]).toEqual([scenario, { creationPaused: paused, feedbackBanner: null }]);
    }
  });

  it('creationPostFails: POST customers answers 200 with data.message and creation never starts', async () => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'creationPostFails');
    const prospectId = await signedProspect(app, jwt);
    const res = await request(app).post(brokeragePaths.customers).set(bearer(jwt)).send({ prospect_id: prospectId }).expect(200);
    expect(createCustomerResponse.parse(res.body).data?.message).toEqual(expect.any(String));
    expect((await pollCreation(app, jwt, prospectId)).creation_process_status).toBe('uninitiated');
  });

  it('treats a second POST customers as the same creation (no restart)', async () => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'onboarding');
    const prospectId = await signedProspect(app, jwt);
    const post = () => request(app).post(brokeragePaths.customers).set(bearer(jwt)).send({ prospect_id: prospectId }).expect(200);
    await post();
    expect((await pollCreation(app, jwt, prospectId)).done).toBe(false);
    expect((await pollCreation(app, jwt, prospectId)).done).toBe(false);
    await post();
    expect((await pollCreation(app, jwt, prospectId)).done).toBe(true);
  });

  it.each(['NO', 'DK', 'FI'] as const)('runs the onboarding journey for the %s persona', async (country) => {
    const app = newApp();
    const persona = await personaFor(app, 'onboarding', country);
    const jwt = await loginWithShortcut(app, persona);
    const routing = await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(200);
    expect(routing.body.customerRoutingStatus).toBe('ONBOARDING');
    const prospectId = await signedProspect(app, jwt, country);
    await request(app).post(brokeragePaths.customers).set(bearer(jwt)).send({ prospect_id: prospectId }).expect(200);
    const states = [];
    for (let i = 0; i < 3; i++) states.push((await pollCreation(app, jwt, prospectId)).done);
    expect(states).toEqual([false, false, true]);
  });
});
