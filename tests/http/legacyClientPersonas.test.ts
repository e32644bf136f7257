// The typed brokerage client's legacy calls (server/upstream/brokerageLegacyCalls.ts, bound in
// server/stages/customerInformation/calls.ts) against a listening sandbox: the regulation, the prospect v2 update and
// the legacy signature request, one test per persona in all four markets.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/main.ts';
import { FRESH_PROSPECTS } from '../support/sandboxApi.ts';
import { DEFAULT_INITIAL_STEPS } from '../../sandbox/personas.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { legacyPaths, type ProspectFieldError } from '../../shared/contracts/legacyContract.ts';
import { createBrokerageClient, type BrokerageClient } from '../../server/upstream/brokerageClient.ts';
import { UpstreamError } from '../../server/upstream/http.ts';
import { brokerageForPerson } from '../../server/stages/customerInformation/calls.ts';
import { newJourney } from '../../server/journey.ts';
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

describe('typed brokerage client: legacy personas', () => {
  let sandbox: RunningSandbox;
  let client: BrokerageClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...FRESH_PROSPECTS });
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
