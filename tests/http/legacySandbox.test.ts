// The sandbox's legacy single-form calls (sandbox/legacy.ts; customer-information §3, §4.9, §7, §8) over HTTP, and the
// typed brokerage client's legacy calls (server/upstream/brokerageClient.ts, bound in server/stages/customerInformation/calls.ts)
// against a listening sandbox: the regulation, the prospect v2 update and the legacy signature request, one test per
// persona in all four markets, the read-out GET /sandbox/legacy, bad input, someone else's prospect, and the step flow's
// signature answer for a v3 prospect, unchanged.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/main.ts';
import { DEFAULT_INITIAL_STEPS, findPersona, LEGACY_OUTCOME_SCENARIOS, type Persona } from '../../sandbox/personas.ts';
import {
  brokerageErrorBody,
  brokeragePaths,
  createProspectResponse,
  initialStepsResponse,
  refreshTokenResponse,
  routingStatusResponse,
  signatureResponse,
  type AccountTypeWithCountry,
  type CountryCode,
} from '../../shared/contracts/brokerageContract.ts';
import {
  legacyPaths,
  legacySignatureResponse,
  prospectUpdateErrorBody,
  prospectUpdateResponse,
  regulationResponse,
  type LegacySignatureRequest,
  type ProspectFieldError,
  type ProspectUpdateRequest,
  type RegulationRequest,
} from '../../shared/contracts/legacyContract.ts';
import { createBrokerageClient, type BrokerageClient } from '../../server/upstream/brokerageClient.ts';
import { UpstreamError } from '../../server/upstream/http.ts';
import { brokerageForPerson } from '../../server/stages/customerInformation/calls.ts';
import { newJourney } from '../../server/journey.ts';

type Target = Parameters<typeof request>[0];
const bearer = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
const newApp = () => createSandboxApp({ publicUrl: 'http://sandbox.test' });
const MARKETS: readonly CountryCode[] = ['SE', 'NO', 'DK', 'FI'];
const LEGACY_SCENARIOS = ['legacyFlow', ...LEGACY_OUTCOME_SCENARIOS] as const;

/** The accounts each market offers in the legacy form by default (customer-information §4.2). */
const ACCOUNTS: Record<CountryCode, AccountTypeWithCountry[]> = {
  SE: ['DEP_SE', 'ISK_SE'],
  NO: ['ASK_NO'],
  DK: ['DEP_DK'],
  FI: ['DEP_FI'],
};
const PHONES: Record<CountryCode, string> = { SE: '+46701234567', NO: '+4791234567', DK: '+4520123456', FI: '+358401234567' };

interface PublicPersona {
  nationalId: string;
  country: CountryCode;
  name: string;
  scenario: string;
}

async function personaFor(app: Target, scenario: string, country: CountryCode = 'SE'): Promise<Persona> {
  const personas = (await request(app).get('/sandbox/personas').expect(200)).body as PublicPersona[];
  const found = personas.find((p) => p.scenario === scenario && p.country === country);
  const persona = found && findPersona(found.nationalId);
  if (!persona) throw new Error(`no ${country} persona for ${scenario}`);
  return persona;
}

async function sessionOf(app: Target, persona: Persona): Promise<string> {
  const session = await request(app).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  const refreshed = await request(app).post(brokeragePaths.refreshToken).send({ refreshToken: session.body.refreshToken }).expect(200);
  return refreshTokenResponse.parse(refreshed.body).jwt;
}

interface LegacyProspect {
  persona: Persona;
  jwt: string;
  prospectId: string;
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

/** The national id as the legacy form sends it: digits only, except in Finland (customer-information §3). */
const nationalIdOf = (persona: Persona) => (persona.country === 'FI' ? persona.nationalId : persona.nationalId.replace(/\D/g, ''));

function regulationOf(persona: Persona, overrides: Partial<RegulationRequest> = {}): RegulationRequest {
  return {
    regulation_id: null,
    national_id_number_country_code: persona.country,
    national_id_number: nationalIdOf(persona),
    address_country: persona.country,
    jurisdiction: persona.country,
    customer_type: 'individual',
    kyc: {
      answers: [
        { question_id: 83, answer_id: 200 },
        { question_id: 84, answer_id: 223 },
        { question_id: 86, answer_id: 209 },
      ],
    },
    tax_info: { account_type_codes: ACCOUNTS[persona.country].map((a) => a.slice(0, -3)), taxable_in_jurisdiction: true, taxable_outside_jurisdiction: false },
    ...overrides,
  };
}

function updateOf(persona: Persona, regulationId: string | undefined, overrides: Partial<ProspectUpdateRequest> = {}): ProspectUpdateRequest {
  const accounts = ACCOUNTS[persona.country];
  return {
    national_id_number: nationalIdOf(persona),
    national_id_number_country_code: persona.country,
    country: persona.country,
    phone_number: PHONES[persona.country],
    email: 'prospect@example.com',
    citizen: persona.country,
    ...(regulationId ? { regulation_id: regulationId } : {}),
    account_templates: accounts,
    first_name: persona.givenName,
    last_name: persona.surname,
    account_aliases: accounts.map((a) => ({ account_type: a.slice(0, -3), alias: `My ${a.slice(0, -3)}` })),
    ...overrides,
  };
}

const signatureOf = (lang = 'sv'): LegacySignatureRequest => ({
  cancel_url: 'http://web.test/onboarding/customer-information/p?shouldUseLegacyFlow=true',
  complete_url: 'http://web.test/onboarding/customer-creation/p',
  postpone_url: 'http://web.test/onboarding',
  lang,
  nextUrl: 'http://web.test/onboarding/customer-creation/p',
  queryParams: { clientId: 'campaign-1', webview: 'false' },
  epk: false,
});

/** The step flow's signature request (identification-routing-creation, customer-information §3). */
const stepFlowSignature = {
  cancel_url: 'http://web.test/onboarding/cancel',
  complete_url: 'http://web.test/onboarding/creation/p',
  postpone_url: 'http://web.test/onboarding',
  lang: 'en',
};

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

interface LegacyReadOut {
  regulations: RegulationRequest[];
  updates: ProspectUpdateRequest[];
  signatures: LegacySignatureRequest[];
}
const readOut = async (app: Target, prospectId: string) => (await request(app).get('/sandbox/legacy').query({ prospectId }).expect(200)).body as LegacyReadOut;

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

// --- the typed client against a listening sandbox ------------------------------------------------------------

describe('typed brokerage client: legacy personas', () => {
  let sandbox: RunningSandbox;
  let client: BrokerageClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    client = createBrokerageClient({ baseUrl: sandbox.url, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** A session of the scenario's persona and a v2 prospect, through the client's own calls (as routing makes them). */
  async function clientProspect(scenario: string, country: CountryCode): Promise<LegacyProspect> {
    const persona = await personaFor(sandbox.url, scenario, country);
    const session = await request(sandbox.url).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
    const { jwt } = await client.refreshToken(session.body.refreshToken as string);
    expect((await client.routingStatus(jwt)).routingInformation).toEqual(['SHOULD_NOT_UPDATE_STATUS']);
    const { prospect_id: prospectId } = await client.createProspect(jwt, country, true);
    expect(await client.initialSteps(jwt, prospectId)).toEqual(['EXISTING_STEP']);
    return { persona, jwt, prospectId };
  }

  /** Regulation (compliant) and accepted update: everything before the signature request. */
  async function updatedProspect(scenario: string, country: CountryCode): Promise<LegacyProspect> {
    const lp = await clientProspect(scenario, country);
    const regulation = await client.createRegulation(lp.jwt, regulationOf(lp.persona), randomUUID());
    expect(regulation.status).toBe('compliant');
    expect(await client.updateProspect(lp.jwt, lp.prospectId, updateOf(lp.persona, regulation.regulation_id!))).toEqual({
      ok: true,
      prospectId: lp.prospectId,
    });
    return lp;
  }

  it.each(MARKETS)('legacyFlow (%s): compliant with an id, update ok, a signature URL whose page returns to complete_url', async (country) => {
    const lp = await updatedProspect('legacyFlow', country);
    const signed = await client.requestLegacySignature(lp.jwt, lp.prospectId, signatureOf(), randomUUID());
    if (!signed.ok) throw new Error('expected a signature URL');
    expect(signed.url.startsWith(`${sandbox.url}/sandbox/signing/`)).toBe(true);
    const page = await request(signed.url).get('').expect(200);
    for (const account of ACCOUNTS[country]) expect(page.text).toContain(account);
    expect((await request(signed.url).post('/sign').expect(303)).headers.location).toBe(signatureOf().complete_url);
    expect(await client.createCustomer(lp.jwt, lp.prospectId)).toEqual({ ok: true, status: 200 });
  });

  it.each(MARKETS)('legacyNonCompliant (%s): status non_compliant with an id, which the update refuses', async (country) => {
    const lp = await clientProspect('legacyNonCompliant', country);
    const regulation = await client.createRegulation(lp.jwt, regulationOf(lp.persona), randomUUID());
    expect(regulation).toEqual({ status: 'non_compliant', regulation_id: expect.any(String) });
    expect(await client.updateProspect(lp.jwt, lp.prospectId, updateOf(lp.persona, regulation.regulation_id!))).toEqual({
      ok: false,
      fields: [{ code: 'Invalid', field: 'regulation_id' }],
    });
  });

  it.each(MARKETS)('legacyRegulationWithoutId (%s): status compliant, regulation_id null', async (country) => {
    const lp = await clientProspect('legacyRegulationWithoutId', country);
    expect(await client.createRegulation(lp.jwt, regulationOf(lp.persona), randomUUID())).toEqual({ status: 'compliant', regulation_id: null });
    expect((await readOut(sandbox.url, lp.prospectId)).regulations).toEqual([regulationOf(lp.persona)]);
  });

  const refusals: Array<[string, ProspectFieldError[]]> = [
    ['legacyMinor', [{ code: 'Age', field: 'national_id_number' }]],
    ['legacyPhoneRefused', [{ code: 'Invalid', field: 'phone_number' }]],
    ['legacyEmailRefused', [{ code: 'Invalid', field: 'Email' }]],
    ['legacyDoubleName', [{ code: 'natregno', field: 'national_id_number' }]],
    [
      'legacySeveralErrors',
      [
        { code: 'Invalid', field: 'phone_number' },
        { code: 'Invalid', field: 'Email' },
      ],
    ],
  ];
  it.each(refusals)('%s: the update answers ok:false with its fields, in every market; signing stays refused', async (scenario, fields) => {
    for (const country of MARKETS) {
      const lp = await clientProspect(scenario, country);
      const regulation = await client.createRegulation(lp.jwt, regulationOf(lp.persona), randomUUID());
      expect(regulation.status).toBe('compliant');
      const update = updateOf(lp.persona, regulation.regulation_id!);
      expect(await client.updateProspect(lp.jwt, lp.prospectId, update), country).toEqual({ ok: false, fields });
      if (scenario === 'legacyDoubleName') expect(update.last_name!.split(' ').length).toBeGreaterThan(1);
      await expect(client.requestLegacySignature(lp.jwt, lp.prospectId, signatureOf(), randomUUID())).rejects.toMatchObject({ status: 400 });
      expect(await readOut(sandbox.url, lp.prospectId)).toEqual({ regulations: [regulationOf(lp.persona)], updates: [update], signatures: [signatureOf()] });
    }
  });

  it.each(MARKETS)('legacyHighRisk (%s): regulation and update go through; the signature request answers 403 → highRisk', async (country) => {
    const lp = await updatedProspect('legacyHighRisk', country);
    expect(await client.requestLegacySignature(lp.jwt, lp.prospectId, signatureOf(), randomUUID())).toEqual({ ok: false, highRisk: true });
    expect((await readOut(sandbox.url, lp.prospectId)).signatures).toEqual([signatureOf()]);
  });

  it.each(MARKETS)('signInOtherTab (%s): the default step flow; the signature, completed in another tab, lets creation start', async (country) => {
    const persona = await personaFor(sandbox.url, 'signInOtherTab', country);
    const session = await request(sandbox.url).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
    const { jwt } = await client.refreshToken(session.body.refreshToken as string);
    await client.becomeCustomerIntent(jwt, country);
    await client.submitValidationStep(jwt, country, true);
    const { prospect_id: prospectId } = await client.createProspect(jwt, country, false);
    expect(await client.initialSteps(jwt, prospectId)).toEqual([...DEFAULT_INITIAL_STEPS]);
    await client.submitAccountPicker(jwt, prospectId, ACCOUNTS[country]);
    await client.submitMilestone(jwt, prospectId, 'three');
    const signature = await client.requestSignature(jwt, prospectId, stepFlowSignature, randomUUID());
    if (!signature.ok) throw new Error('the signature request was refused');
    const { url } = signature;
    // The other tab: the signing page, signed there.
    expect((await request(url).post('/sign').expect(303)).headers.location).toBe(stepFlowSignature.complete_url);
    expect(await client.createCustomer(jwt, prospectId)).toEqual({ ok: true, status: 200 });
  });

  it('other failures throw UpstreamError with the status; bodies are checked before sending', async () => {
    const owner = await updatedProspect('legacyFlow', 'SE');
    const stranger = await clientProspect('legacyHighRisk', 'SE');
    const strangersRegulation = (await client.createRegulation(stranger.jwt, regulationOf(stranger.persona), randomUUID())).regulation_id!;
    // Someone else's prospect: 403 is no refusal of fields; an unknown prospect: 404.
    await expect(client.updateProspect(stranger.jwt, owner.prospectId, updateOf(stranger.persona, strangersRegulation))).rejects.toMatchObject({
      status: 403,
    });
    await expect(client.updateProspect(stranger.jwt, 'no-such-prospect', updateOf(stranger.persona, strangersRegulation))).rejects.toBeInstanceOf(
      UpstreamError,
    );
    await expect(client.requestLegacySignature(stranger.jwt, 'no-such-prospect', signatureOf(), randomUUID())).rejects.toMatchObject({ status: 404 });
    // Another market's jurisdiction: the regulation's 400 throws.
    await expect(client.createRegulation(owner.jwt, regulationOf(owner.persona, { jurisdiction: 'DK' }), randomUUID())).rejects.toMatchObject({ status: 400 });
    await expect(client.createRegulation('not-a-token', regulationOf(owner.persona), randomUUID())).rejects.toMatchObject({ status: 401 });
    // A 500 is no refusal either.
    await request(sandbox.url)
      .post('/sandbox/faults')
      .send({ method: 'PUT', path: legacyPaths.prospect(owner.prospectId), status: 500, count: 1 })
      .expect(204);
    await expect(client.updateProspect(owner.jwt, owner.prospectId, updateOf(owner.persona, undefined))).rejects.toMatchObject({ status: 500 });
    // Bodies that break the contract never leave.
    const before = await readOut(sandbox.url, owner.prospectId);
    await expect(client.updateProspect(owner.jwt, owner.prospectId, { account_templates: ['dep_se'] })).rejects.not.toBeInstanceOf(UpstreamError);
    await expect(client.requestLegacySignature(owner.jwt, owner.prospectId, { ...signatureOf(), nextUrl: 'nowhere' }, randomUUID())).rejects.not.toBeInstanceOf(
      UpstreamError,
    );
    await expect(client.createRegulation(owner.jwt, { ...regulationOf(owner.persona), national_id_number: '' }, randomUUID())).rejects.not.toBeInstanceOf(
      UpstreamError,
    );
    expect(await readOut(sandbox.url, owner.prospectId)).toEqual(before);
  });

  it('the call wrapper (calls.ts) binds the three to the person’s session and refreshes an expired token', async () => {
    const lp = await clientProspect('legacyFlow', 'FI');
    const session = await request(sandbox.url).post('/sandbox/sessions').send({ nationalId: lp.persona.nationalId }).expect(200);
    const journey = { ...newJourney('FI'), jwt: lp.jwt, refreshToken: session.body.refreshToken as string };
    const person = brokerageForPerson(client, journey, pino({ level: 'silent' }));
    await request(sandbox.url).post('/sandbox/sessions/expire').send({ nationalId: lp.persona.nationalId }).expect(200);
    const regulation = await person.createRegulation(regulationOf(lp.persona), randomUUID());
    expect(journey.jwt).not.toBe(lp.jwt);
    expect(regulation.status).toBe('compliant');
    expect(await person.updateProspect(lp.prospectId, updateOf(lp.persona, regulation.regulation_id!))).toEqual({ ok: true, prospectId: lp.prospectId });
    const signed = await person.requestLegacySignature(lp.prospectId, signatureOf('fi'), randomUUID());
    expect(signed).toEqual({ ok: true, url: expect.stringContaining('/sandbox/signing/') });
  });
});
