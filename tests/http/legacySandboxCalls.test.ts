// The sandbox's legacy single-form calls over HTTP (sandbox/legacy.ts; customer-information §3, §4.9, §7, §8): the
// legacy personas and their routing, the regulation, the prospect v2 update and the legacy signature request, the
// read-out GET /sandbox/legacy, bad input, someone else's prospect, and the step flow's signature answer for a v3
// prospect, unchanged.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INITIAL_STEPS, LEGACY_OUTCOME_SCENARIOS, type Persona } from '../../sandbox/personas.ts';
import {
  brokerageErrorBody,
  brokeragePaths,
  createProspectResponse,
  initialStepsResponse,
  refreshTokenResponse,
  routingStatusResponse,
  signatureResponse,
  type CountryCode,
} from '../../shared/contracts/brokerageContract.ts';
import {
  legacyPaths,
  legacySignatureResponse,
  prospectUpdateErrorBody,
  prospectUpdateResponse,
  regulationResponse,
} from '../../shared/contracts/legacyContract.ts';
import {
  ACCOUNTS,
  MARKETS,
  personaFor,
  readOut,
  regulationOf,
  signatureOf,
  stepFlowSignature,
  updateOf,
  type LegacyProspect,
} from '../support/legacySandbox.ts';
import { bearer, newApp, type Target } from '../support/sandboxApi.ts';

const LEGACY_SCENARIOS = ['legacyFlow', ...LEGACY_OUTCOME_SCENARIOS] as const;

async function sessionOf(app: Target, persona: Persona): Promise<string> {
  const session = await request(app).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  const refreshed = await request(app).post(brokeragePaths.refreshToken).send({ refreshToken: session.body.refreshToken }).expect(200);
  return refreshTokenResponse.parse(refreshed.body).jwt;
}

/** As the web app routes a legacy persona: routing says SHOULD_NOT_UPDATE_STATUS, so a v2 prospect without the intent. */
async function legacyProspectOf(app: Target, scenario: string, country: CountryCode = 'SE'): Promise<LegacyProspect> {
  const persona = await personaFor(app, scenario, country);
  const jwt = await sessionOf(app, persona);
  const routing = routingStatusResponse.parse((await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(200)).body);
  expect(routing).toMatchObject({ customerRoutingStatus: 'ONBOARDING', routingInformation: ['SHOULD_NOT_UPDATE_STATUS'] });
  const created = await request(app).post(brokeragePaths.prospectsV2).set(bearer(jwt)).send({ country, customerType: 'PRIVATE' }).expect(200);
  return { persona, jwt, prospectId: createProspectResponse.parse(created.body).prospect_id };
}

const regulationOver = (app: Target, lp: LegacyProspect, body: unknown = regulationOf(lp.persona)) =>
  request(app)
    .post(legacyPaths.regulation)
    .set(bearer(lp.jwt))
    .send(body as object);
const updateOver = (app: Target, lp: LegacyProspect, body: unknown, prospectId = lp.prospectId) =>
  request(app)
    .put(legacyPaths.prospect(prospectId))
    .set(bearer(lp.jwt))
    .send(body as object);
const signatureOver = (app: Target, lp: LegacyProspect, body: unknown = signatureOf(), prospectId = lp.prospectId) =>
  request(app)
    .post(legacyPaths.signatures(prospectId))
    .set(bearer(lp.jwt))
    .send(body as object);

/** A compliant regulation's id over HTTP. */
async function compliantRegulation(app: Target, lp: LegacyProspect): Promise<string> {
  const answer = regulationResponse.parse((await regulationOver(app, lp).expect(200)).body).data;
  expect(answer.status).toBe('compliant');
  return answer.regulation_id!;
}

// --- over HTTP --------------------------------------------------------------------------------------------

describe('sandbox: legacy personas and routing', () => {
  it('has every legacy scenario and signInOtherTab in all four markets; legacyDoubleName’s surname has two words', async () => {
    const app = newApp();
    for (const country of MARKETS) {
      for (const scenario of [...LEGACY_SCENARIOS, 'signInOtherTab']) {
        const persona = await personaFor(app, scenario, country);
        expect(persona.country).toBe(country);
      }
      const doubleName = await personaFor(app, 'legacyDoubleName', country);
      expect(doubleName.surname.trim().split(/\s+/).length, country).toBeGreaterThan(1);
      expect(doubleName.name).toBe(`${doubleName.givenName} ${doubleName.surname}`);
    }
  });

  it('routes every legacy persona as legacyFlow: SHOULD_NOT_UPDATE_STATUS, a v2 prospect whose only step is EXISTING_STEP', async () => {
    const app = newApp();
    for (const country of MARKETS) {
      for (const scenario of LEGACY_SCENARIOS) {
        const { jwt, prospectId } = await legacyProspectOf(app, scenario, country);
        const steps = initialStepsResponse.parse((await request(app).get(brokeragePaths.initialSteps(prospectId)).set(bearer(jwt)).expect(200)).body);
        expect([country, scenario, steps.data.initialSteps]).toEqual([country, scenario, ['EXISTING_STEP']]);
      }
    }
  });

  it('routes signInOtherTab to the default step flow (DEFAULT_INITIAL_STEPS) on a v3 prospect', async () => {
    const app = newApp();
    for (const country of MARKETS) {
      const persona = await personaFor(app, 'signInOtherTab', country);
      const jwt = await sessionOf(app, persona);
      const routing = routingStatusResponse.parse((await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(200)).body);
      expect(routing).toEqual({ customerRoutingStatus: 'ONBOARDING', customerId: null, routingInformation: null });
      await request(app).put(brokeragePaths.becomeCustomerIntent).set(bearer(jwt)).send({ customerType: 'PRIVATE', country }).expect(204);
      await request(app).post(brokeragePaths.validationStepV3).set(bearer(jwt)).send({ country }).expect(200);
      const created = await request(app).post(brokeragePaths.prospectsV3).set(bearer(jwt)).send({ country, customerType: 'PRIVATE' }).expect(200);
      const steps = await request(app)
        .get(brokeragePaths.initialSteps(createProspectResponse.parse(created.body).prospect_id))
        .set(bearer(jwt))
        .expect(200);
      expect(initialStepsResponse.parse(steps.body).data.initialSteps).toEqual([...DEFAULT_INITIAL_STEPS]);
    }
  });
});

describe('sandbox: legacy calls over HTTP', () => {
  it('legacyFlow: regulation, update, signature; the read-out holds each payload received; the signing page returns to complete_url', async () => {
    const app = newApp();
    const lp = await legacyProspectOf(app, 'legacyFlow');
    const regulation = regulationOf(lp.persona);
    const answered = regulationResponse.parse((await regulationOver(app, lp, regulation).expect(200)).body);
    expect(answered.data).toEqual({ status: 'compliant', regulation_id: expect.any(String) });
    const update = updateOf(lp.persona, answered.data.regulation_id!);
    const updated = prospectUpdateResponse.parse((await updateOver(app, lp, update).expect(200)).body);
    expect(updated).toEqual({ data: { prospect_id: lp.prospectId } });
    const signature = signatureOf('en');
    const signed = await signatureOver(app, lp, signature).expect(200);
    const signatureUrl = legacySignatureResponse.parse(signed.body).data.signature.signatureUrl;
    expect(signed.body).toEqual({ data: { signature: { signatureUrl } } });
    expect(signatureUrl).toMatch(/^http:\/\/sandbox\.test\/sandbox\/signing\/[0-9a-f-]{36}$/);

    expect(await readOut(app, lp.prospectId)).toEqual({ regulations: [regulation], updates: [update], signatures: [signature] });

    // The step flow's signing page: the accounts of the update, then back to complete_url; creation can start.
    const path = new URL(signatureUrl).pathname;
    const page = await request(app).get(path).expect(200);
    for (const account of ACCOUNTS.SE) expect(page.text).toContain(account);
    const sign = await request(app).post(`${path}/sign`).expect(303);
    expect(sign.headers.location).toBe(signature.complete_url);
    await request(app).post(brokeragePaths.customers).set(bearer(lp.jwt)).send({ prospect_id: lp.prospectId }).expect(200);
  });

  it('read-out: every payload received in order (refused ones too), the regulations of its owner only; 400 without an id, 404 unknown, cleared by reset', async () => {
    const app = newApp();
    const lp = await legacyProspectOf(app, 'legacyPhoneRefused');
    const other = await legacyProspectOf(app, 'legacyFlow');
    await compliantRegulation(app, other);
    const first = regulationOf(lp.persona);
    const id = regulationResponse.parse((await regulationOver(app, lp, first).expect(200)).body).data.regulation_id!;
    // A resubmit names the regulation it replaces, and keeps its id.
    const second = regulationOf(lp.persona, {
      regulation_id: id,
      tax_info: { account_type_codes: null, taxable_in_jurisdiction: true, taxable_outside_jurisdiction: true },
    });
    expect(regulationResponse.parse((await regulationOver(app, lp, second).expect(200)).body).data.regulation_id).toBe(id);
    const refused = updateOf(lp.persona, id);
    await updateOver(app, lp, refused).expect(400);
    const anotherPhone = updateOf(lp.persona, id, { phone_number: '+46709999999' });
    await updateOver(app, lp, anotherPhone).expect(400);

    const out = await readOut(app, lp.prospectId);
    expect(out).toEqual({ regulations: [first, second], updates: [refused, anotherPhone], signatures: [] });
    // A signature request before an accepted update is received (and refused).
    await signatureOver(app, lp).expect(400);
    expect((await readOut(app, lp.prospectId)).signatures).toEqual([signatureOf()]);

    await request(app).get('/sandbox/legacy').expect(400);
    await request(app).get('/sandbox/legacy').query({ prospectId: 'no-such-prospect' }).expect(404);
    await request(app).post('/sandbox/reset').expect(204);
    await request(app).get('/sandbox/legacy').query({ prospectId: lp.prospectId }).expect(404);
  });

  it('a regulation sent before any prospect is kept for the person and tied to the prospect whose update names it', async () => {
    const app = newApp();
    const persona = await personaFor(app, 'legacyFlow', 'NO');
    const jwt = await sessionOf(app, persona);
    const regulation = regulationOf(persona);
    const early = await request(app).post(legacyPaths.regulation).set(bearer(jwt)).send(regulation).expect(200);
    const id = regulationResponse.parse(early.body).data.regulation_id!;
    const created = await request(app).post(brokeragePaths.prospectsV2).set(bearer(jwt)).send({ country: 'NO', customerType: 'PRIVATE' }).expect(200);
    const lp = { persona, jwt, prospectId: createProspectResponse.parse(created.body).prospect_id };
    expect((await readOut(app, lp.prospectId)).regulations).toEqual([regulation]);
    await updateOver(app, lp, updateOf(persona, id)).expect(200);
    expect((await readOut(app, lp.prospectId)).regulations).toEqual([regulation]);
  });

  it('bad input → 400: the regulation and the signature in the brokerage error body, the update with data.fields [{ code, field }]', async () => {
    const app = newApp();
    const lp = await legacyProspectOf(app, 'legacyFlow');
    const auth = bearer(lp.jwt);

    // Regulation: not the contract; another market's jurisdiction; a regulation id never handed out.
    const badRegulation = brokerageErrorBody.parse(
      (await regulationOver(app, lp, { ...regulationOf(lp.persona), customer_type: 'company', kyc: {} }).expect(400)).body,
    );
    expect(badRegulation.data?.fields).toEqual(expect.arrayContaining(['customer_type', 'kyc.answers']));
    await request(app).post(legacyPaths.regulation).set(auth).send('not json').expect(400);
    expect(brokerageErrorBody.parse((await regulationOver(app, lp, regulationOf(lp.persona, { jurisdiction: 'NO' })).expect(400)).body).data?.fields).toEqual([
      'jurisdiction',
    ]);
    expect(
      brokerageErrorBody.parse((await regulationOver(app, lp, regulationOf(lp.persona, { regulation_id: 'never-handed-out' })).expect(400)).body).data?.fields,
    ).toEqual(['regulation_id']);

    // Update: not the contract; no account_templates; no regulation_id; one never handed out; another market's accounts.
    const id = await compliantRegulation(app, lp);
    const fieldsOf = async (body: unknown) => prospectUpdateErrorBody.parse((await updateOver(app, lp, body).expect(400)).body).data.fields;
    expect(await fieldsOf({ ...updateOf(lp.persona, id), account_templates: ['dep'], email: 'x'.repeat(300) })).toEqual([
      { code: 'Invalid', field: 'email' },
      { code: 'Invalid', field: 'account_templates.0' },
    ]);
    const { account_templates: _omitted, ...withoutAccounts } = updateOf(lp.persona, id);
    expect(await fieldsOf(withoutAccounts)).toEqual([{ code: 'Required', field: 'account_templates' }]);
    expect(await fieldsOf(updateOf(lp.persona, undefined))).toEqual([{ code: 'Required', field: 'regulation_id' }]);
    expect(await fieldsOf(updateOf(lp.persona, 'never-handed-out'))).toEqual([{ code: 'Invalid', field: 'regulation_id' }]);
    expect(await fieldsOf(updateOf(lp.persona, id, { account_templates: ['DEP_NO'] }))).toEqual([{ code: 'Invalid', field: 'account_templates' }]);
    expect(await fieldsOf({ ...withoutAccounts, regulation_id: 'never-handed-out' })).toEqual([
      { code: 'Required', field: 'account_templates' },
      { code: 'Invalid', field: 'regulation_id' },
    ]);

    // Signature: before any accepted update; then not the contract (the step flow's body lacks the legacy fields).
    expect(brokerageErrorBody.parse((await signatureOver(app, lp).expect(400)).body).data?.fields).toEqual(['prospect']);
    await updateOver(app, lp, updateOf(lp.persona, id)).expect(200);
    const badSignature = brokerageErrorBody.parse((await signatureOver(app, lp, stepFlowSignature).expect(400)).body);
    expect(badSignature.data?.fields).toEqual(['nextUrl', 'queryParams', 'epk']);
    await signatureOver(app, lp, { ...signatureOf(), complete_url: 'not a url' }).expect(400);
    await signatureOver(app, lp).expect(200);
  });

  it('someone else’s prospect is refused (403), an unknown one is 404, another person’s regulation id is not theirs; no token is 401', async () => {
    const app = newApp();
    const owner = await legacyProspectOf(app, 'legacyFlow');
    const stranger = await legacyProspectOf(app, 'legacyHighRisk');
    const ownersRegulation = await compliantRegulation(app, owner);
    await updateOver(app, owner, updateOf(owner.persona, ownersRegulation)).expect(200);

    const strangerOnOwners = { ...stranger, prospectId: owner.prospectId };
    await updateOver(app, strangerOnOwners, updateOf(stranger.persona, await compliantRegulation(app, stranger))).expect(403);
    await signatureOver(app, strangerOnOwners).expect(403);
    await updateOver(app, stranger, updateOf(stranger.persona, ownersRegulation), 'no-such-prospect').expect(404);
    await signatureOver(app, stranger, signatureOf(), 'no-such-prospect').expect(404);
    // The owner's regulation id on the stranger's own prospect: not handed out to the stranger.
    expect(prospectUpdateErrorBody.parse((await updateOver(app, stranger, updateOf(stranger.persona, ownersRegulation)).expect(400)).body).data.fields).toEqual(
      [{ code: 'Invalid', field: 'regulation_id' }],
    );
    // Nothing of the stranger's reached the owner's record.
    expect((await readOut(app, owner.prospectId)).signatures).toEqual([]);
    expect((await readOut(app, owner.prospectId)).updates).toHaveLength(1);

    await request(app).post(legacyPaths.regulation).send(regulationOf(owner.persona)).expect(401);
    await request(app).put(legacyPaths.prospect(owner.prospectId)).send(updateOf(owner.persona, ownersRegulation)).expect(401);
    await request(app).post(legacyPaths.signatures(owner.prospectId)).send(signatureOf()).expect(401);
  });

  it('the step flow’s signature answer is unchanged for a v3 prospect: { data: { url } }, accounts required first', async () => {
    const app = newApp();
    const persona = await personaFor(app, 'signInOtherTab');
    const jwt = await sessionOf(app, persona);
    const auth = bearer(jwt);
    await request(app).put(brokeragePaths.becomeCustomerIntent).set(auth).send({ customerType: 'PRIVATE', country: 'SE' }).expect(204);
    await request(app).post(brokeragePaths.validationStepV3).set(auth).send({ country: 'SE' }).expect(200);
    const created = await request(app).post(brokeragePaths.prospectsV3).set(auth).send({ country: 'SE', customerType: 'PRIVATE' }).expect(200);
    const prospectId = createProspectResponse.parse(created.body).prospect_id;

    const tooEarly = brokerageErrorBody.parse(
      (await request(app).post(brokeragePaths.signatures(prospectId)).set(auth).send(stepFlowSignature).expect(400)).body,
    );
    expect(tooEarly.data?.fields).toEqual(['accountTypesWithCountry']);
    await request(app).post(brokeragePaths.accountPickerStep(prospectId)).set(auth).send({ accountTypesWithCountry: ACCOUNTS.SE }).expect(200);
    // The legacy body's extra fields change nothing here.
    for (const body of [stepFlowSignature, signatureOf()]) {
      const res = await request(app).post(brokeragePaths.signatures(prospectId)).set(auth).send(body).expect(200);
      const url = signatureResponse.parse(res.body).data.url;
      expect(res.body).toEqual({ data: { url } });
      expect(url).toMatch(/^http:\/\/sandbox\.test\/sandbox\/signing\/[0-9a-f-]{36}$/);
    }
    // Not a legacy prospect: nothing reaches the legacy record.
    expect(await readOut(app, prospectId)).toEqual({ regulations: [], updates: [], signatures: [] });
    await request(app).post(brokeragePaths.signatures(prospectId)).set(auth).send({}).expect(400);
    await request(app).post(brokeragePaths.signatures('no-such-prospect')).set(auth).send(stepFlowSignature).expect(404);
  });
});
