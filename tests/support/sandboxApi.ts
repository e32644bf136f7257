// The sandbox's own HTTP API as the sandbox tests drive it (tests/http/sandbox*.test.ts): personas, the BankID
// RP API and test app, brokerage logins and a signed prospect, through the same wire contracts the server uses.
import request from 'supertest';
import { afterAll, beforeAll, expect } from 'vitest';
import { createSandboxApp, type SandboxOptions } from '../../sandbox/app.ts';
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from '../../sandbox/main.ts';
import { createBrokerageClient, type BrokerageClient } from '../../server/upstream/brokerageClient.ts';
import { bankidAuthResponse, bankidCollectResponse } from '../../shared/contracts/bankidContract.ts';
import {
  brokeragePaths,
  createProspectResponse,
  creationStatusResponse,
  refreshTokenResponse,
  signatureResponse,
  type AccountTypeWithCountry,
  type CountryCode,
  type CreationStatus,
} from '../../shared/contracts/brokerageContract.ts';

export const PUBLIC_URL = 'http://sandbox.test';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const APP_PAGE = '/sandbox/bankid/app';

export interface PublicPersona {
  nationalId: string;
  country: CountryCode;
  name: string;
  scenario: string;
}

/** An Express app or the URL of a running sandbox: supertest takes both. */
export type Target = Parameters<typeof request>[0];

/**
 * The tests' sandboxes keep no unfinished prospect unless a test asks (`prospectKeepDays`): each prospect creation makes
 * a new one, so tests that walk a persona more than once each get a fresh application. The resuming tests keep them.
 */
export const FRESH_PROSPECTS = { prospectKeepDays: 0 } as const;

export const newApp = (orderLifetimeMs?: number, options: Partial<Omit<SandboxOptions, 'publicUrl'>> = {}) =>
  createSandboxApp({ publicUrl: PUBLIC_URL, ...FRESH_PROSPECTS, ...(orderLifetimeMs !== undefined ? { orderLifetimeMs } : {}), ...options });

export async function listPersonas(app: Target): Promise<PublicPersona[]> {
  const res = await request(app).get('/sandbox/personas').expect(200);
  return res.body as PublicPersona[];
}

export async function personaFor(app: Target, scenario: string, country: CountryCode = 'SE'): Promise<PublicPersona> {
  const found = (await listPersonas(app)).find((p) => p.scenario === scenario && p.country === country);
  if (!found) throw new Error(`no ${country} persona for ${scenario}`);
  return found;
}

export const rp = (app: Target, operation: string, body: object) => request(app).post(`/rp/v6.0/${operation}`).send(body);

export async function startOrder(app: Target, body: object = { endUserIp: '192.0.2.10' }) {
  const res = await rp(app, 'auth', body).expect(200);
  return bankidAuthResponse.parse(res.body);
}

export async function collect(app: Target, orderRef: string) {
  const res = await rp(app, 'collect', { orderRef }).expect(200);
  return bankidCollectResponse.parse(res.body);
}

export async function expectFailedHint(app: Target, orderRef: string, hintCode: string) {
  expect(await collect(app, orderRef)).toEqual({ orderRef, status: 'failed', hintCode });
}

export const bearer = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });

export async function jwtFromRefreshToken(app: Target, refreshToken: string): Promise<string> {
  const res = await request(app).post(brokeragePaths.refreshToken).send({ refreshToken }).expect(200);
  return refreshTokenResponse.parse(res.body).jwt;
}

/** Swedish login: BankID order identified in the test app, then session and refresh token calls. */
export async function loginWithBankid(app: Target, scenario: string): Promise<{ jwt: string; persona: PublicPersona }> {
  const persona = await personaFor(app, scenario);
  const { orderRef } = await startOrder(app);
  await request(app).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: persona.nationalId }).expect(200);
  const session = await request(app).post(brokeragePaths.bankidSession).send({ orderReference: orderRef }).expect(200);
  return { jwt: await jwtFromRefreshToken(app, session.body.refreshToken), persona };
}

/** Other countries identify through a provider the sandbox does not simulate; use the session shortcut. */
export async function loginWithShortcut(app: Target, persona: PublicPersona): Promise<string> {
  const res = await request(app).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  return jwtFromRefreshToken(app, res.body.refreshToken);
}

export const defaultAccounts: Record<CountryCode, AccountTypeWithCountry[]> = {
  SE: ['DEP_SE', 'ISK_SE'],
  NO: ['DEP_NO', 'ASK_NO'],
  DK: ['DEP_DK'],
  FI: ['DEP_FI', 'ESA_FI'],
};

export const signatureBody = {
  cancel_url: 'http://web.test/onboarding/cancel',
  complete_url: 'http://web.test/onboarding/creation/p',
  postpone_url: 'http://web.test/onboarding',
  lang: 'en',
};

/** Intent, validation, prospect, account picker and signing: everything before POST /api/2/customers. */
export async function signedProspect(app: Target, jwt: string, country: CountryCode = 'SE'): Promise<string> {
  const auth = bearer(jwt);
  await request(app).put(brokeragePaths.becomeCustomerIntent).set(auth).send({ customerType: 'PRIVATE', country }).expect(204);
  await request(app).post(brokeragePaths.validationStepV3).set(auth).send({ country }).expect(200);
  const created = await request(app).post(brokeragePaths.prospectsV3).set(auth).send({ country, customerType: 'PRIVATE' }).expect(200);
  const prospectId = createProspectResponse.parse(created.body).prospect_id;
  await request(app).post(brokeragePaths.accountPickerStep(prospectId)).set(auth).send({ accountTypesWithCountry: defaultAccounts[country] }).expect(200);
  const signature = await request(app).post(brokeragePaths.signatures(prospectId)).set(auth).send(signatureBody).expect(200);
  const signingPath = new URL(signatureResponse.parse(signature.body).data.url).pathname;
  await request(app).post(`${signingPath}/sign`).expect(303);
  return prospectId;
}

export async function pollCreation(app: Target, jwt: string, prospectId: string): Promise<CreationStatus> {
  const res = await request(app).get(brokeragePaths.creationStatus).query({ prospect_id: prospectId }).set(bearer(jwt)).expect(200);
  return creationStatusResponse.parse(res.body);
}

/** The <section> of the app page that belongs to one order, or undefined when it is not listed. */
export function orderSection(pageHtml: string, orderRef: string): string | undefined {
  return new RegExp(`<section data-order-ref="${orderRef}"[\\s\\S]*?</section>`).exec(pageHtml)?.[0];
}

/**
 * A sandbox listening on a free port for the tests of the file or describe it is called in, and the typed brokerage
 * client pointed at it (both set once beforeAll has run).
 */
export function listeningSandboxWithClient(options: Partial<StartSandboxOptions> = {}): { readonly url: string; readonly client: BrokerageClient } {
  let sandbox: RunningSandbox | undefined;
  let client: BrokerageClient | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...FRESH_PROSPECTS, ...options });
    client = createBrokerageClient({ baseUrl: sandbox.url, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return {
    get url() {
      if (!sandbox) throw new Error('the sandbox starts in beforeAll');
      return sandbox.url;
    },
    get client() {
      if (!client) throw new Error('the client is made in beforeAll');
      return client;
    },
  };
}

/** Every refresh and access token the sandbox issued to the person and has not ended with a session. */
export async function sessionTokensOf(app: Target, nationalId: string): Promise<string[]> {
  return ((await request(app).get('/sandbox/sessions/tokens').query({ nationalId }).expect(200)).body as { tokens: string[] }).tokens;
}

/** How many of `tokens` still open the person's data at the brokerage API (routing status answers 200). */
export async function workingTokens(app: Target, tokens: string[]): Promise<number> {
  let working = 0;
  for (const token of tokens) {
    if ((await request(app).get(brokeragePaths.routingStatus).set('authorization', `Bearer ${token}`)).status === 200) working++;
  }
  return working;
}
