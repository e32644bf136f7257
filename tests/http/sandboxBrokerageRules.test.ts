// HTTP tests of the upstream sandbox: the brokerage API's authentication and its rules.
// Helpers: tests/support/sandboxApi.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import request from 'supertest';
import { brokerageErrorBody, unauthorizedBody, brokeragePaths, createProspectResponse, type CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { newApp, personaFor, startOrder, bearer, jwtFromRefreshToken, loginWithBankid, loginWithShortcut, signatureBody } from '../support/sandboxApi.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('brokerage authentication', () => {
  it.each([
    ['GET', brokeragePaths.routingStatus],
    ['PUT', brokeragePaths.becomeCustomerIntent],
    ['POST', brokeragePaths.validationStepV3],
    ['POST', brokeragePaths.prospectsV3],
    ['GET', brokeragePaths.initialSteps('x')],
    ['POST', brokeragePaths.customers],
    ['GET', `${brokeragePaths.creationStatus}?prospect_id=x`],
    ['DELETE', brokeragePaths.logoutCurrent],
    ['DELETE', brokeragePaths.logoutLegacy],
  ])('%s %s needs a bearer token', async (method, path) => {
    const app = newApp();
    const call = (m: string) => request(app)[m.toLowerCase() as 'get' | 'put' | 'post' | 'delete'](path);
    // Missing or unknown is not "expired": a token refresh would not help.
    expect(unauthorizedBody.parse((await call(method).expect(401)).body).code).toBe('INVALID_ACCESS_TOKEN');
    expect(unauthorizedBody.parse((await call(method).set(bearer('made-up')).expect(401)).body).code).toBe('INVALID_ACCESS_TOKEN');
  });

  it('starts a session only for a completed BankID order', async () => {
    const app = newApp();
    const { orderRef } = await startOrder(app);
    const pending = await request(app).post(brokeragePaths.bankidSession).send({ orderReference: orderRef }).expect(400);
    expect(brokerageErrorBody.parse(pending.body).data?.fields).toEqual(['orderReference']);
    await request(app).post(brokeragePaths.bankidSession).send({ orderReference: 'unknown' }).expect(400);
    const invalid = await request(app).post(brokeragePaths.bankidSession).send({}).expect(400);
    expect(invalid.body.data.fields).toEqual(['orderReference']);
  });

  it('rejects an unknown refresh token and expires access tokens after expiresIn', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-01-10T10:00:00Z'));
    const app = newApp();
    await request(app).post(brokeragePaths.refreshToken).send({ refreshToken: 'nope' }).expect(401);
    const { jwt } = await loginWithBankid(app, 'onboarding');
    await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(200);
    vi.setSystemTime(new Date('2025-01-10T10:30:01Z'));
    const expired = await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(401);
    expect(unauthorizedBody.parse(expired.body).code).toBe('EXPIRED_ACCESS_TOKEN');
  });

  it("test controls: expire a person's access tokens, list their tokens, force the next answers of a call", async () => {
    const app = newApp();
    const { jwt, persona } = await loginWithBankid(app, 'onboarding');
    const tokens = (await request(app).get('/sandbox/sessions/tokens').query({ nationalId: persona.nationalId }).expect(200)).body.tokens as string[];
    expect(tokens).toContain(jwt);
    expect(tokens).toHaveLength(2);
    expect((await request(app).post('/sandbox/sessions/expire').send({ nationalId: persona.nationalId }).expect(200)).body).toEqual({ expired: 1 });
    const expired = await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(401);
    expect(unauthorizedBody.parse(expired.body).code).toBe('EXPIRED_ACCESS_TOKEN');
    // The refresh token still works: a new access token is accepted.
    const refreshToken = tokens.find((t) => t !== jwt)!;
    const fresh = await jwtFromRefreshToken(app, refreshToken);
    await request(app).get(brokeragePaths.routingStatus).set(bearer(fresh)).expect(200);

    // Two forced 500s, then the simulator answers again; a 401 fault carries its code.
    await request(app).post('/sandbox/faults').send({ method: 'GET', path: brokeragePaths.routingStatus, status: 500, count: 2 }).expect(204);
    await request(app).get(brokeragePaths.routingStatus).set(bearer(fresh)).expect(500);
    await request(app).get(brokeragePaths.systemStatus).set(bearer(fresh)).expect(200);
    await request(app).get(brokeragePaths.routingStatus).set(bearer(fresh)).expect(500);
    await request(app).get(brokeragePaths.routingStatus).set(bearer(fresh)).expect(200);
    await request(app)
      .post('/sandbox/faults')
      .send({ method: 'GET', path: brokeragePaths.routingStatus, status: 401, code: 'EXPIRED_ACCESS_TOKEN' })
      .expect(204);
    expect(unauthorizedBody.parse((await request(app).get(brokeragePaths.routingStatus).set(bearer(fresh)).expect(401)).body).code).toBe(
      'EXPIRED_ACCESS_TOKEN',
    );
    await request(app).post('/sandbox/faults').send({ method: 'GET', path: 'no-slash', status: 500 }).expect(400);
  });

  it('logs out with DELETE /api/2/login too, ending the refresh token as well', async () => {
    const app = newApp();
    const persona = await personaFor(app, 'onboarding');
    const session = await request(app).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
    const jwt = await jwtFromRefreshToken(app, session.body.refreshToken);
    await request(app).delete(brokeragePaths.logoutLegacy).set(bearer(jwt)).expect(204);
    await request(app).delete(brokeragePaths.logoutLegacy).set(bearer(jwt)).expect(401);
    await request(app).post(brokeragePaths.refreshToken).send({ refreshToken: session.body.refreshToken }).expect(401);
  });

  it('lists the logout calls it saw (GET /sandbox/logouts): path, bearer and answer, 401s too', async () => {
    const app = newApp();
    const persona = await personaFor(app, 'onboarding');
    const jwt = await loginWithShortcut(app, persona);
    await request(app).delete(brokeragePaths.logoutCurrent).set(bearer(jwt)).expect(204);
    await request(app).delete(brokeragePaths.logoutLegacy).set(bearer(jwt)).expect(401);
    await request(app).delete(brokeragePaths.logoutLegacy).expect(401);
    const calls = (await request(app).get('/sandbox/logouts').expect(200)).body as Array<{ path: string; bearer: string | null; status: number }>;
    expect(calls.map(({ path, bearer: sent, status }) => ({ path, bearer: sent, status }))).toEqual([
      { path: brokeragePaths.logoutCurrent, bearer: jwt, status: 204 },
      { path: brokeragePaths.logoutLegacy, bearer: jwt, status: 401 },
      { path: brokeragePaths.logoutLegacy, bearer: null, status: 401 },
    ]);
    await request(app).post('/sandbox/reset').expect(204);
    expect((await request(app).get('/sandbox/logouts').expect(200)).body).toEqual([]);
  });
});

describe('brokerage rules', () => {
  it('blocks becoming a customer for the blocked persona with 403 shouldBlockBecomeCustomer', async () => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'blocked');
    const res = await request(app).put(brokeragePaths.becomeCustomerIntent).set(bearer(jwt)).send({ customerType: 'PRIVATE', country: 'SE' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ shouldBlockBecomeCustomer: true });
  });

  it('needs the intent before the validation step', async () => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'onboarding');
    for (const path of [brokeragePaths.validationStep, brokeragePaths.validationStepV3]) {
      const res = await request(app).post(path).set(bearer(jwt)).send({ country: 'SE' }).expect(400);
      expect(brokerageErrorBody.parse(res.body).data?.message).toMatch(/intent/);
    }
  });

  it.each([
    ['intent without customerType', 'put', brokeragePaths.becomeCustomerIntent, { country: 'SE' }, ['customerType']],
    ['intent with an unknown country', 'put', brokeragePaths.becomeCustomerIntent, { customerType: 'PRIVATE', country: 'DE' }, ['country']],
    ['intent for another country than the persona', 'put', brokeragePaths.becomeCustomerIntent, { customerType: 'PRIVATE', country: 'NO' }, ['country']],
    ['prospect without a body', 'post', brokeragePaths.prospectsV3, undefined, ['country', 'customerType']],
    ['prospect for a corporate applicant', 'post', brokeragePaths.prospectsV3, { country: 'SE', customerType: 'CORPORATE' }, ['customerType']],
  ] as const)('answers 400 with fields for %s', async (_label, method, path, body, fields) => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'onboarding');
    const call = request(app)[method](path).set(bearer(jwt));
    const res = await (body === undefined ? call : call.send(body)).expect(400);
    const error = brokerageErrorBody.parse(res.body);
    expect(error.data?.message).toEqual(expect.any(String));
    expect(error.data?.fields).toEqual(fields);
  });

  it('gives legacy (v2) prospects the single existing step', async () => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'legacyFlow');
    const created = await request(app).post(brokeragePaths.prospectsV2).set(bearer(jwt)).send({ country: 'SE', customerType: 'PRIVATE' }).expect(200);
    const prospectId = createProspectResponse.parse(created.body).prospect_id;
    const steps = await request(app).get(brokeragePaths.initialSteps(prospectId)).set(bearer(jwt)).expect(200);
    expect(steps.body).toEqual({ data: { initialSteps: ['EXISTING_STEP'] } });
  });

  it('keeps prospects private to their owner (403) and answers 404 for unknown ones', async () => {
    const app = newApp();
    const owner = await loginWithBankid(app, 'onboarding');
    const stranger = await loginWithBankid(app, 'onboardingIntent');
    const created = await request(app).post(brokeragePaths.prospectsV3).set(bearer(owner.jwt)).send({ country: 'SE', customerType: 'PRIVATE' }).expect(200);
    const prospectId = created.body.prospect_id as string;
    const auth = bearer(stranger.jwt);
    await request(app).get(brokeragePaths.initialSteps(prospectId)).set(auth).expect(403);
    await request(app)
      .post(brokeragePaths.accountPickerStep(prospectId))
      .set(auth)
      .send({ accountTypesWithCountry: ['DEP_SE'] })
      .expect(403);
    await request(app).post(brokeragePaths.milestoneStep(prospectId, 'one')).set(auth).expect(403);
    await request(app).post(brokeragePaths.signatures(prospectId)).set(auth).send(signatureBody).expect(403);
    await request(app).post(brokeragePaths.customers).set(auth).send({ prospect_id: prospectId }).expect(403);
    await request(app).get(brokeragePaths.creationStatus).query({ prospect_id: prospectId }).set(auth).expect(403);
    await request(app).get(brokeragePaths.initialSteps('no-such-prospect')).set(auth).expect(404);
    // A second session of the owner is the same caller.
    const again = await loginWithBankid(app, 'onboarding');
    await request(app).get(brokeragePaths.initialSteps(prospectId)).set(bearer(again.jwt)).expect(200);
  });

  it.each<[string, CountryCode, unknown[], number]>([
    ['SE depot and ISK', 'SE', ['DEP_SE', 'ISK_SE'], 200],
    ['SE depot only', 'SE', ['DEP_SE'], 200],
    ['SE ISK without the depot', 'SE', ['ISK_SE'], 400],
    ['SE with a Norwegian account', 'SE', ['DEP_SE', 'ASK_NO'], 400],
    ['SE with nothing chosen', 'SE', [], 400],
    ['SE with an unknown code', 'SE', ['DEP_XX'], 400],
    ['NO depot and ASK', 'NO', ['DEP_NO', 'ASK_NO'], 200],
    ['NO pension only', 'NO', ['EPK_NO'], 200],
    ['DK share savings with a Finnish depot', 'DK', ['DSK_DK', 'DEP_FI'], 400],
    ['FI share savings', 'FI', ['ESA_FI'], 200],
  ])('account picker: %s → %i', async (_label, country, codes, status) => {
    const app = newApp();
    const persona = await personaFor(app, 'onboarding', country);
    const jwt = await loginWithShortcut(app, persona);
    const created = await request(app).post(brokeragePaths.prospectsV3).set(bearer(jwt)).send({ country, customerType: 'PRIVATE' }).expect(200);
    const res = await request(app)
      .post(brokeragePaths.accountPickerStep(created.body.prospect_id))
      .set(bearer(jwt))
      .send({ accountTypesWithCountry: codes })
      .expect(status);
    if (status === 400) expect(brokerageErrorBody.parse(res.body).data?.fields?.[0]).toMatch(/^accountTypesWithCountry/);
    else expect(res.body).toEqual({});
  });

  it('needs the account picker before signing, a valid signature body, and Sign (not Cancel) before creation', async () => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'onboarding');
    const auth = bearer(jwt);
    const created = await request(app).post(brokeragePaths.prospectsV3).set(auth).send({ country: 'SE', customerType: 'PRIVATE' }).expect(200);
    const prospectId = created.body.prospect_id as string;

    const tooEarly = await request(app).post(brokeragePaths.signatures(prospectId)).set(auth).send(signatureBody).expect(400);
    expect(tooEarly.body.data.fields).toEqual(['accountTypesWithCountry']);
    await request(app)
      .post(brokeragePaths.accountPickerStep(prospectId))
      .set(auth)
      .send({ accountTypesWithCountry: ['DEP_SE'] })
      .expect(200);
    const badBody = await request(app)
      .post(brokeragePaths.signatures(prospectId))
      .set(auth)
      .send({ ...signatureBody, complete_url: 'not a url' })
      .expect(400);
    expect(badBody.body.data.fields).toEqual(['complete_url']);

    const signature = await request(app).post(brokeragePaths.signatures(prospectId)).set(auth).send(signatureBody).expect(200);
    const signingPath = new URL(signature.body.data.url).pathname;
    const cancelled = await request(app).post(`${signingPath}/cancel`).expect(303);
    expect(cancelled.headers.location).toBe(signatureBody.cancel_url);
    await request(app).post(brokeragePaths.customers).set(auth).send({ prospect_id: prospectId }).expect(400);

    await request(app).get('/sandbox/signing/unknown').expect(404);
  });
});
