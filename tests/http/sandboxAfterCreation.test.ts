// HTTP tests of the sandbox's calls of the end of customer creation (sandbox/afterCreation.ts; identification-routing-creation
// §4 "Customer creation", §7): the login session and the affiliate conversion, counted once per Idempotency-Key (a replay
// answers the first answer and is not counted), the read-out GET /sandbox/after-creation per prospect, the personas whose
// call fails, 401 without a session and the read-out's bad query; the login's hand-off code, which the bank's site redeems
// once (unknown, used and expired codes refused, each code logging in the person it was handed to).
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import {
  brokeragePaths,
  createProspectResponse,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeyHeaderValue,
  LOGIN_HANDOFF_REFUSED,
  loginHandoffRedeemResponse,
  nnxSessionLoginResponse,
} from '../../shared/contracts/brokerageContract.ts';
import { bearer, loginWithBankid, newApp, type Target } from '../support/sandboxApi.ts';
import { SANDBOX_BANK_SITE_TOKEN } from '../../sandbox/afterCreation.ts';

const LEAD_NUMBER = /^LN-\d+$/;

/** Intent, validation and a new step-flow prospect of the person. */
async function newProspect(app: Target, jwt: string): Promise<string> {
  const auth = bearer(jwt);
  await request(app).put(brokeragePaths.becomeCustomerIntent).set(auth).send({ customerType: 'PRIVATE', country: 'SE' }).expect(204);
  await request(app).post(brokeragePaths.validationStepV3).set(auth).send({ country: 'SE' }).expect(200);
  const created = await request(app).post(brokeragePaths.prospectsV3).set(auth).send({ country: 'SE', customerType: 'PRIVATE' }).expect(200);
  return createProspectResponse.parse(created.body).prospect_id;
}

/** A person of the scenario with one prospect. */
async function personWithProspect(app: Target, scenario: string): Promise<{ jwt: string; prospectId: string }> {
  const { jwt } = await loginWithBankid(app, scenario);
  return { jwt, prospectId: await newProspect(app, jwt) };
}

const withKey = (key: string | undefined) => (key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: idempotencyKeyHeaderValue(key) });

const loginSession = (app: Target, jwt: string, key?: string) => request(app).post(brokeragePaths.nnxSessionLogin).set(bearer(jwt)).set(withKey(key));

const conversion = (app: Target, jwt: string, prospectId: string, key?: string) =>
  request(app).post(brokeragePaths.affiliateConversion).set(bearer(jwt)).set(withKey(key)).send({ prospectId });

async function readOut(app: Target, prospectId: string): Promise<{ loginSessions: number; leadNumbers: string[] }> {
  return (await request(app).get('/sandbox/after-creation').query({ prospectId }).expect(200)).body;
}

describe('the login session', () => {
  it('answers a hand-off code and counts one session per new Idempotency-Key; a replayed key answers the same code and is not counted again', async () => {
    const app = newApp();
    const { jwt, prospectId } = await personWithProspect(app, 'onboarding');
    expect(await readOut(app, prospectId)).toEqual({ loginSessions: 0, leadNumbers: [] });
    await loginSession(app, jwt, 'first').expect(200);
    await loginSession(app, jwt, 'first').expect(200);
    expect(await readOut(app, prospectId)).toEqual({ loginSessions: 1, leadNumbers: [] });
    await loginSession(app, jwt, 'second').expect(200);
    expect((await readOut(app, prospectId)).loginSessions).toBe(2);
  });

  it('counts every call without a key', async () => {
    const app = newApp();
    const { jwt, prospectId } = await personWithProspect(app, 'onboarding');
    await loginSession(app, jwt).expect(200);
    await loginSession(app, jwt).expect(200);
    expect((await readOut(app, prospectId)).loginSessions).toBe(2);
  });

  it('is attributed to the person’s newest prospect, and refused (409) for a person without one', async () => {
    const app = newApp();
    const { jwt, prospectId: older } = await personWithProspect(app, 'onboarding');
    const newer = await newProspect(app, jwt);
    await loginSession(app, jwt, 'k').expect(200);
    expect((await readOut(app, older)).loginSessions).toBe(0);
    expect((await readOut(app, newer)).loginSessions).toBe(1);

    const { jwt: withoutProspect } = await loginWithBankid(app, 'creationSlow');
    const refused = await loginSession(app, withoutProspect, 'k').expect(409);
    expect(refused.body.data.message).toEqual(expect.any(String));
  });
});

describe('the affiliate conversion', () => {
  it('answers a lead number; a replayed key answers the same one and is not counted, another key makes a second', async () => {
    const app = newApp();
    const { jwt, prospectId } = await personWithProspect(app, 'onboarding');
    const first = (await conversion(app, jwt, prospectId, 'a').expect(200)).body;
    expect(first).toEqual({ leadNumber: expect.stringMatching(LEAD_NUMBER) });
    expect((await conversion(app, jwt, prospectId, 'a').expect(200)).body).toEqual(first);
    expect(await readOut(app, prospectId)).toEqual({ loginSessions: 0, leadNumbers: [first.leadNumber] });

    // A second conversion of the same prospect (another key) shows as a second lead number: a test catches it.
    const second = (await conversion(app, jwt, prospectId, 'b').expect(200)).body;
    expect(second.leadNumber).toMatch(LEAD_NUMBER);
    expect(second.leadNumber).not.toBe(first.leadNumber);
    expect((await readOut(app, prospectId)).leadNumbers).toEqual([first.leadNumber, second.leadNumber]);
  });

  it('keeps each prospect’s lead numbers apart', async () => {
    const app = newApp();
    const { jwt, prospectId: one } = await personWithProspect(app, 'onboarding');
    const two = await newProspect(app, jwt);
    const { leadNumber } = (await conversion(app, jwt, one, 'a').expect(200)).body;
    expect(await readOut(app, one)).toEqual({ loginSessions: 0, leadNumbers: [leadNumber] });
    expect(await readOut(app, two)).toEqual({ loginSessions: 0, leadNumbers: [] });
  });

  it('refuses a body without a prospect (400), an unknown prospect (404) and someone else’s (403)', async () => {
    const app = newApp();
    const { jwt, prospectId } = await personWithProspect(app, 'onboarding');
    const { jwt: other } = await loginWithBankid(app, 'creationSlow');
    const missing = await request(app).post(brokeragePaths.affiliateConversion).set(bearer(jwt)).send({}).expect(400);
    expect(missing.body.data.fields).toEqual(['prospectId']);
    await conversion(app, jwt, 'no-such-prospect', 'a').expect(404);
    await conversion(app, other, prospectId, 'a').expect(403);
    expect((await readOut(app, prospectId)).leadNumbers).toEqual([]);
  });
});

const redeem = (app: Target, code: unknown) => request(app).post(brokeragePaths.loginHandoffRedeem).set(bearer(SANDBOX_BANK_SITE_TOKEN)).send({ code });
const handoffOf = (body: unknown) => nnxSessionLoginResponse.parse(body).handoffCode;

describe("the login's hand-off code, redeemed by the bank's site", () => {
  it('logs in the person it was handed to, once: a replay is refused', async () => {
    const app = newApp();
    const { jwt, persona } = await loginWithBankid(app, 'onboarding');
    await newProspect(app, jwt);
    const answer = nnxSessionLoginResponse.parse((await loginSession(app, jwt, 'k').expect(200)).body);
    expect(answer.expiresInSeconds).toBeGreaterThan(0);
    const redeemed = loginHandoffRedeemResponse.parse((await redeem(app, answer.handoffCode).expect(200)).body);
    expect(redeemed.customer.nationalId).toBe(persona.nationalId);
    expect(`${redeemed.customer.givenName} ${redeemed.customer.surname}`).toBe(persona.name);
    const replay = await redeem(app, answer.handoffCode).expect(400);
    expect(replay.body).toMatchObject({ code: LOGIN_HANDOFF_REFUSED, data: { message: expect.stringMatching(/already been used/) } });
  });

  it("refuses a caller that is not the bank's site (no or another client token, or the person's own token), and the code stays good", async () => {
    const app = newApp();
    const { jwt } = await personWithProspect(app, 'onboarding');
    const code = handoffOf((await loginSession(app, jwt, 'k').expect(200)).body);
    for (const auth of [{}, bearer('another-client'), bearer(jwt)]) {
      expect((await request(app).post(brokeragePaths.loginHandoffRedeem).set(auth).send({ code }).expect(401)).body.code).toBe('INVALID_CLIENT');
    }
    await redeem(app, code).expect(200);
  });

  it('the same Idempotency-Key answers the same code; another key a new one', async () => {
    const app = newApp();
    const { jwt } = await personWithProspect(app, 'onboarding');
    const first = handoffOf((await loginSession(app, jwt, 'k').expect(200)).body);
    expect(handoffOf((await loginSession(app, jwt, 'k').expect(200)).body)).toBe(first);
    expect(handoffOf((await loginSession(app, jwt, 'other').expect(200)).body)).not.toBe(first);
  });

  it('each code logs in its own person: two people, two codes, each redeemed as themselves', async () => {
    const app = newApp();
    const one = await loginWithBankid(app, 'onboarding');
    const two = await loginWithBankid(app, 'customerExists');
    await newProspect(app, one.jwt);
    await newProspect(app, two.jwt);
    const codeOne = handoffOf((await loginSession(app, one.jwt, 'k').expect(200)).body);
    const codeTwo = handoffOf((await loginSession(app, two.jwt, 'k').expect(200)).body);
    expect(loginHandoffRedeemResponse.parse((await redeem(app, codeTwo).expect(200)).body).customer.nationalId).toBe(two.persona.nationalId);
    expect(loginHandoffRedeemResponse.parse((await redeem(app, codeOne).expect(200)).body).customer.nationalId).toBe(one.persona.nationalId);
  });

  it('refuses an unknown code, a malformed one (400 with the field) and an expired one', async () => {
    const app = newApp();
    const unknown = await redeem(app, 'A'.repeat(43)).expect(400);
    expect(unknown.body).toMatchObject({ code: LOGIN_HANDOFF_REFUSED, data: { message: expect.stringMatching(/unknown/) } });
    for (const bad of [undefined, '', 'short', 'A'.repeat(42) + '.', 42]) {
      expect((await redeem(app, bad).expect(400)).body.data.fields).toEqual(['code']);
    }
    const { jwt, persona } = await loginWithBankid(app, 'onboarding');
    await newProspect(app, jwt);
    const code = handoffOf((await loginSession(app, jwt, 'k').expect(200)).body);
    expect((await request(app).post('/sandbox/login-handoffs/expire').send({ nationalId: persona.nationalId }).expect(200)).body).toEqual({ expired: 1 });
    const expired = await redeem(app, code).expect(400);
    expect(expired.body).toMatchObject({ code: LOGIN_HANDOFF_REFUSED, data: { message: expect.stringMatching(/expired/) } });
  });
});

describe('personas whose call fails', () => {
  it('loginSessionFails: the login session answers 500 and counts nothing, also on a retry; the conversion works', async () => {
    const app = newApp();
    const { jwt, prospectId } = await personWithProspect(app, 'loginSessionFails');
    await loginSession(app, jwt, 'k').expect(500);
    await loginSession(app, jwt, 'k').expect(500);
    const { leadNumber } = (await conversion(app, jwt, prospectId, 'k').expect(200)).body;
    expect(await readOut(app, prospectId)).toEqual({ loginSessions: 0, leadNumbers: [leadNumber] });
  });

  it('affiliateConversionFails: the conversion answers 500 and hands out no lead number; the login session works', async () => {
    const app = newApp();
    const { jwt, prospectId } = await personWithProspect(app, 'affiliateConversionFails');
    await conversion(app, jwt, prospectId, 'k').expect(500);
    await conversion(app, jwt, prospectId, 'k').expect(500);
    await loginSession(app, jwt, 'k').expect(200);
    expect(await readOut(app, prospectId)).toEqual({ loginSessions: 1, leadNumbers: [] });
  });
});

describe('without a session', () => {
  it('both calls answer 401 and count nothing', async () => {
    const app = newApp();
    const { prospectId } = await personWithProspect(app, 'onboarding');
    for (const token of [undefined, 'not-a-token']) {
      const auth = token ? bearer(token) : {};
      const login = await request(app).post(brokeragePaths.nnxSessionLogin).set(auth).set(withKey('k')).expect(401);
      expect(login.body.code).toBe('INVALID_ACCESS_TOKEN');
      await request(app).post(brokeragePaths.affiliateConversion).set(auth).set(withKey('k')).send({ prospectId }).expect(401);
    }
    expect(await readOut(app, prospectId)).toEqual({ loginSessions: 0, leadNumbers: [] });
  });
});

describe('GET /sandbox/after-creation', () => {
  it('answers 400 JSON for a missing, empty or repeated prospectId, and 404 for an unknown prospect', async () => {
    const app = newApp();
    for (const query of ['', '?prospectId=', '?prospectId=a&prospectId=b']) {
      const res = await request(app).get(`/sandbox/after-creation${query}`).expect(400);
      expect(res.type).toBe('application/json');
      expect(res.body.error).toMatch(/prospectId/);
    }
    await request(app).get('/sandbox/after-creation').query({ prospectId: 'no-such-prospect' }).expect(404);
  });

  it('forgets the calls and their keys on POST /sandbox/reset', async () => {
    const app = newApp();
    const before = await personWithProspect(app, 'onboarding');
    await loginSession(app, before.jwt, 'k').expect(200);
    await request(app).post('/sandbox/reset').expect(204);
    await request(app).get('/sandbox/after-creation').query({ prospectId: before.prospectId }).expect(404);
    // The same person and key after the reset is a new call.
    const after = await personWithProspect(app, 'onboarding');
    await loginSession(app, after.jwt, 'k').expect(200);
    expect((await readOut(app, after.prospectId)).loginSessions).toBe(1);
  });
});
