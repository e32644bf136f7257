// The sandbox's Idempotency-Key (sandbox/idempotency.ts; our reading of the IETF httpapi draft, documented in
// shared/contracts/brokerageContract.ts): the same key and body answer the first call's answer again, another body 422, a key
// whose first call still runs 409, a malformed header 400; a 401 is not kept, and a call without the header is new.
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/main.ts';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { legacyPaths, type RegulationRequest } from '../../shared/contracts/legacyContract.ts';
import { personaFor, type Persona } from '../support/journey.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => sandbox?.close());
beforeEach(async () => {
  await request(sandbox.url).post('/sandbox/reset').expect(204);
});

async function signedIn(): Promise<{ persona: Persona; jwt: () => Promise<string> }> {
  const persona = await personaFor(sandbox.url, 'legacyFlow');
  const session = await request(sandbox.url).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  const jwt = async () =>
    ((await request(sandbox.url).post(brokeragePaths.refreshToken).send({ refreshToken: session.body.refreshToken }).expect(200)).body as { jwt: string }).jwt;
  return { persona, jwt };
}

const regulationOf = (persona: Persona, answerId = 200): RegulationRequest => ({
  regulation_id: null,
  national_id_number_country_code: 'SE',
  national_id_number: persona.nationalId,
  address_country: 'SE',
  jurisdiction: 'SE',
  customer_type: 'individual',
  kyc: { answers: [{ question_id: 83, answer_id: answerId }] },
  tax_info: { account_type_codes: ['DEP'], taxable_in_jurisdiction: true, taxable_outside_jurisdiction: false },
});

const postRegulation = (jwt: string, body: unknown, key?: string) => {
  const call = request(sandbox.url).post(legacyPaths.regulation).set('authorization', `Bearer ${jwt}`);
  return (key === undefined ? call : call.set('idempotency-key', key)).send(body as object);
};
const idOf = (res: request.Response) => (res.body as { data: { regulation_id: string } }).data.regulation_id;

describe('Idempotency-Key on the brokerage API', () => {
  it('the same key and body answer the first answer again; another key, or none, is a new call', async () => {
    const { persona, jwt } = await signedIn();
    const token = await jwt();
    const first = await postRegulation(token, regulationOf(persona), '"key-1"').expect(200);
    // The same body with its keys in another order is the same body.
    const reordered = Object.fromEntries(Object.entries(regulationOf(persona)).reverse());
    const again = await postRegulation(token, reordered, '"key-1"').expect(200);
    expect(idOf(again)).toBe(idOf(first));
    expect(idOf(await postRegulation(token, regulationOf(persona), '"key-2"').expect(200))).not.toBe(idOf(first));
    const [a, b] = [await postRegulation(token, regulationOf(persona)).expect(200), await postRegulation(token, regulationOf(persona)).expect(200)];
    expect(idOf(a)).not.toBe(idOf(b));
  });

  it('the same key with another body answers 422', async () => {
    const { persona, jwt } = await signedIn();
    const token = await jwt();
    await postRegulation(token, regulationOf(persona), '"key-1"').expect(200);
    await postRegulation(token, regulationOf(persona, 214), '"key-1"').expect(422);
  });

  it('while the first call still runs, the same key answers 409', async () => {
    const { persona, jwt } = await signedIn();
    const token = await jwt();
    await request(sandbox.url).post('/sandbox/faults').send({ method: 'POST', path: legacyPaths.regulation, delayMs: 500 }).expect(204);
    // Whichever arrives first is late and holds the key; the other finds it held.
    const answers = await Promise.all([postRegulation(token, regulationOf(persona), '"key-1"'), postRegulation(token, regulationOf(persona), '"key-1"')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('a 401 is not kept: after a token refresh the same key runs the call', async () => {
    const { persona, jwt } = await signedIn();
    const token = await jwt();
    await request(sandbox.url).post('/sandbox/sessions/expire').send({ nationalId: persona.nationalId }).expect(200);
    await postRegulation(token, regulationOf(persona), '"key-1"').expect(401);
    await postRegulation(await jwt(), regulationOf(persona), '"key-1"').expect(200);
  });

  it('a header that is not one quoted string answers 400', async () => {
    const { persona, jwt } = await signedIn();
    const token = await jwt();
    for (const bad of ['key-1', '"a"b"', '""']) await postRegulation(token, regulationOf(persona), bad).expect(400);
  });
});
