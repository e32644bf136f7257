// HTTP tests of the upstream sandbox: BankID RP API and test app, personas, and the brokerage API,
// driven through the same wire contracts the server uses.
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { startSandbox } from '../../sandbox/main.ts';
import { LEGACY_OUTCOME_SCENARIOS } from '../../sandbox/personas.ts';
import { bankidAuthResponse, bankidCollectResponse, bankidErrorBody } from '../../shared/contracts/bankid.ts';
import {
  brokerageErrorBody,
  unauthorizedBody,
  brokeragePaths,
  createCustomerResponse,
  createProspectResponse,
  creationStatusResponse,
  initialStepsResponse,
  refreshTokenResponse,
  routingStatusResponse,
  signatureResponse,
  systemStatusResponse,
  type AccountTypeWithCountry,
  type CountryCode,
  type CreationStatus,
} from '../../shared/contracts/brokerage.ts';
import { isValidNationalId } from '../../shared/nationalIds.ts';

const PUBLIC_URL = 'http://sandbox.test';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const APP_PAGE = '/sandbox/bankid/app';

interface PublicPersona {
  nationalId: string;
  country: CountryCode;
  name: string;
  scenario: string;
}

/** An Express app or the URL of a running sandbox: supertest takes both. */
type Target = Parameters<typeof request>[0];

const newApp = (orderLifetimeMs?: number) => createSandboxApp({ publicUrl: PUBLIC_URL, ...(orderLifetimeMs !== undefined ? { orderLifetimeMs } : {}) });

// --- helpers ------------------------------------------------------------------------------

async function listPersonas(app: Target): Promise<PublicPersona[]> {
  const res = await request(app).get('/sandbox/personas').expect(200);
  return res.body as PublicPersona[];
}

async function personaFor(app: Target, scenario: string, country: CountryCode = 'SE'): Promise<PublicPersona> {
  const found = (await listPersonas(app)).find((p) => p.scenario === scenario && p.country === country);
  if (!found) throw new Error(`no ${country} persona for ${scenario}`);
  return found;
}

const rp = (app: Target, operation: string, body: object) => request(app).post(`/rp/v6.0/${operation}`).send(body);

async function startOrder(app: Target, body: object = { endUserIp: '192.0.2.10' }) {
  const res = await rp(app, 'auth', body).expect(200);
  return bankidAuthResponse.parse(res.body);
}

async function collect(app: Target, orderRef: string) {
  const res = await rp(app, 'collect', { orderRef }).expect(200);
  return bankidCollectResponse.parse(res.body);
}

async function expectFailedHint(app: Target, orderRef: string, hintCode: string) {
  expect(await collect(app, orderRef)).toEqual({ orderRef, status: 'failed', hintCode });
}

const bearer = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });

async function jwtFromRefreshToken(app: Target, refreshToken: string): Promise<string> {
  const res = await request(app).post(brokeragePaths.refreshToken).send({ refreshToken }).expect(200);
  return refreshTokenResponse.parse(res.body).jwt;
}

/** Swedish login: BankID order identified in the test app, then session and refresh token calls. */
async function loginWithBankid(app: Target, scenario: string): Promise<{ jwt: string; persona: PublicPersona }> {
  const persona = await personaFor(app, scenario);
  const { orderRef } = await startOrder(app);
  await request(app).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: persona.nationalId }).expect(200);
  const session = await request(app).post(brokeragePaths.bankidSession).send({ orderReference: orderRef }).expect(200);
  return { jwt: await jwtFromRefreshToken(app, session.body.refreshToken), persona };
}

/** Other countries identify through a provider the sandbox does not simulate; use the session shortcut. */
async function loginWithShortcut(app: Target, persona: PublicPersona): Promise<string> {
  const res = await request(app).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  return jwtFromRefreshToken(app, res.body.refreshToken);
}

const defaultAccounts: Record<CountryCode, AccountTypeWithCountry[]> = {
  SE: ['DEP_SE', 'ISK_SE'],
  NO: ['DEP_NO', 'ASK_NO'],
  DK: ['DEP_DK'],
  FI: ['DEP_FI', 'ESA_FI'],
};

const signatureBody = {
  cancel_url: 'http://web.test/onboarding/cancel',
  complete_url: 'http://web.test/onboarding/creation/p',
  postpone_url: 'http://web.test/onboarding',
  lang: 'en',
};

/** Intent, validation, prospect, account picker and signing: everything before POST /api/2/customers. */
async function signedProspect(app: Target, jwt: string, country: CountryCode = 'SE'): Promise<string> {
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

async function pollCreation(app: Target, jwt: string, prospectId: string): Promise<CreationStatus> {
  const res = await request(app).get(brokeragePaths.creationStatus).query({ prospect_id: prospectId }).set(bearer(jwt)).expect(200);
  return creationStatusResponse.parse(res.body);
}

/** The <section> of the app page that belongs to one order, or undefined when it is not listed. */
function orderSection(pageHtml: string, orderRef: string): string | undefined {
  return new RegExp(`<section data-order-ref="${orderRef}"[\\s\\S]*?</section>`).exec(pageHtml)?.[0];
}

afterEach(() => {
  vi.useRealTimers();
});

// --- BankID RP API -------------------------------------------------------------------------

describe('BankID order lifecycle', () => {
  it('auth returns UUID tokens and the order is pending with outstandingTransaction', async () => {
    const app = newApp();
    const order = await startOrder(app);
    for (const value of Object.values(order)) expect(value).toMatch(UUID);
    expect(new Set(Object.values(order)).size).toBe(4);
    expect(await collect(app, order.orderRef)).toEqual({
      orderRef: order.orderRef,
      status: 'pending',
      hintCode: 'outstandingTransaction',
    });
    const listed = await request(app).get('/sandbox/bankid/orders').expect(200);
    expect(listed.body).toEqual([{ orderRef: order.orderRef, createdAt: expect.any(String) }]);
    expect(Number.isNaN(Date.parse(listed.body[0].createdAt))).toBe(false);
  });

  it('goes pending → userSign (scan) → complete (identify) through the test app forms', async () => {
    const app = newApp();
    const persona = await personaFor(app, 'onboarding');
    const { orderRef } = await startOrder(app);

    const scan = await request(app).post(`${APP_PAGE}/scan`).type('form').send({ orderRef, nationalId: persona.nationalId });
    expect(scan.status).toBe(303);
    expect(scan.headers.location).toBe(APP_PAGE);
    expect(await collect(app, orderRef)).toEqual({ orderRef, status: 'pending', hintCode: 'userSign' });

    const identify = await request(app).post(`${APP_PAGE}/identify`).type('form').send({ orderRef, nationalId: persona.nationalId });
    expect(identify.status).toBe(303);

    const result = await collect(app, orderRef);
    if (result.status !== 'complete') throw new Error(`expected complete, got ${result.status}`);
    const [givenName, surname] = persona.name.split(' ');
    expect(result.completionData.user).toEqual({ personalNumber: persona.nationalId, name: persona.name, givenName, surname });
    // The app runs on the visitor's own machine: BankID reports the endUserIp the RP sent in /auth.
    expect(result.completionData.device.ipAddress).toBe('192.0.2.10');
    expect(result.completionData.bankIdIssueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Buffer.from(result.completionData.signature, 'base64').toString('utf8')).toMatch(/^<\?xml[\s\S]*<Signature[\s\S]*<\/Signature>$/);
    expect(Buffer.from(result.completionData.ocspResponse, 'base64').length).toBeGreaterThan(0);

    // Completed orders leave the app's waiting list but keep answering collect.
    const page = await request(app).get(APP_PAGE).expect(200);
    expect(orderSection(page.text, orderRef)).toBeUndefined();
    expect((await collect(app, orderRef)).status).toBe('complete');
  });

  it('fails with userCancel when the user cancels in the app', async () => {
    const app = newApp();
    const { orderRef } = await startOrder(app);
    await request(app).post(`${APP_PAGE}/cancel`).type('form').send({ orderRef }).expect(303);
    await expectFailedHint(app, orderRef, 'userCancel');
    expect((await request(app).get('/sandbox/bankid/orders')).body).toEqual([]);
  });

  it('fails with cancelled after the relying party cancels', async () => {
    const app = newApp();
    const { orderRef } = await startOrder(app);
    const res = await rp(app, 'cancel', { orderRef }).expect(200);
    expect(res.body).toEqual({});
    await expectFailedHint(app, orderRef, 'cancelled');
  });

  it('expires after orderLifetimeMs and can no longer be identified', async () => {
    const app = newApp(50);
    const persona = await personaFor(app, 'onboarding');
    const { orderRef } = await startOrder(app);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await expectFailedHint(app, orderRef, 'expiredTransaction');
    const page = await request(app).get(APP_PAGE).expect(200);
    expect(orderSection(page.text, orderRef)).toBeUndefined();
    const late = await request(app).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: persona.nationalId });
    expect(late.status).toBe(409);
  });

  it('lets orders of the bankidExpires persona run out after 3 s although the default lifetime is 30 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-01-10T10:00:00Z'));
    const app = newApp();
    const persona = await personaFor(app, 'bankidExpires');

    const page = await request(app).get(APP_PAGE);
    expect(page.text).not.toContain(persona.nationalId); // no orders yet, so no persona picker
    const { orderRef } = await startOrder(app);
    expect((await request(app).get(APP_PAGE)).text).toContain(`value="${persona.nationalId}"`);

    await request(app).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: persona.nationalId }).expect(200);
    // The persona never confirms: the app shows the order as opened but it does not complete.
    expect(await collect(app, orderRef)).toEqual({ orderRef, status: 'pending', hintCode: 'userSign' });
    vi.setSystemTime(new Date('2025-01-10T10:00:02.900Z'));
    expect((await collect(app, orderRef)).status).toBe('pending');
    vi.setSystemTime(new Date('2025-01-10T10:00:03.001Z'));
    await expectFailedHint(app, orderRef, 'expiredTransaction');

    // The same applies when the relying party asks for that personal number up front.
    const required = await startOrder(app, { endUserIp: '192.0.2.10', requirement: { personalNumber: persona.nationalId } });
    vi.setSystemTime(new Date('2025-01-10T10:00:06.100Z'));
    await expectFailedHint(app, required.orderRef, 'expiredTransaction');

    // An ordinary order created at the same time is still alive.
    const ordinary = await startOrder(app);
    vi.setSystemTime(new Date('2025-01-10T10:00:20Z'));
    expect((await collect(app, ordinary.orderRef)).status).toBe('pending');
  });

  it('refuses a second order for the same required personal number (alreadyInProgress) and aborts the first', async () => {
    const app = newApp();
    const persona = await personaFor(app, 'onboarding');
    const body = { endUserIp: '192.0.2.10', requirement: { personalNumber: persona.nationalId } };
    const first = await startOrder(app, body);
    const second = await rp(app, 'auth', body).expect(400);
    expect(bankidErrorBody.parse(second.body).errorCode).toBe('alreadyInProgress');
    await expectFailedHint(app, first.orderRef, 'cancelled');
  });

  it('only lets the required person identify', async () => {
    const app = newApp();
    const [required, other] = [await personaFor(app, 'onboarding'), await personaFor(app, 'login')];
    const { orderRef } = await startOrder(app, { endUserIp: '192.0.2.10', requirement: { personalNumber: required.nationalId } });
    const section = orderSection((await request(app).get(APP_PAGE)).text, orderRef) ?? '';
    expect(section).toContain(`value="${required.nationalId}"`);
    expect(section).not.toContain(`value="${other.nationalId}"`);
    await request(app).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: other.nationalId }).expect(400);
    expect((await collect(app, orderRef)).status).toBe('pending');
  });
});

describe('BankID RP API errors', () => {
  it.each([
    ['collect of an unknown order', 'collect', { orderRef: 'f3b5a1c2-0000-4000-8000-000000000000' }, 400, 'invalidParameters', /^No such order$/],
    ['cancel of an unknown order', 'cancel', { orderRef: 'f3b5a1c2-0000-4000-8000-000000000000' }, 400, 'invalidParameters', /^No such order$/],
    ['auth without endUserIp', 'auth', {}, 400, 'invalidParameters', /endUserIp/],
    ['auth with an endUserIp that is not an IP', 'auth', { endUserIp: 'localhost' }, 400, 'invalidParameters', /endUserIp/],
    ['auth with a returnUrl that is not a URL', 'auth', { endUserIp: '192.0.2.1', returnUrl: 'nope' }, 400, 'invalidParameters', /returnUrl/],
    ['collect without orderRef', 'collect', {}, 400, 'invalidParameters', /orderRef/],
    ['an operation that does not exist', 'sign-everything', { endUserIp: '192.0.2.1' }, 404, 'notFound', /.+/],
  ])('%s', async (_label, operation, body, status, errorCode, details) => {
    const res = await rp(newApp(), operation, body).expect(status);
    const error = bankidErrorBody.parse(res.body);
    expect(error.errorCode).toBe(errorCode);
    expect(error.details).toMatch(details);
  });

  it('answers 415 unsupportedMediaType for a body that is not JSON', async () => {
    const res = await request(newApp()).post('/rp/v6.0/auth').type('form').send({ endUserIp: '192.0.2.1' }).expect(415);
    expect(bankidErrorBody.parse(res.body).errorCode).toBe('unsupportedMediaType');
  });

  it('answers 400 invalidParameters for malformed JSON', async () => {
    const res = await request(newApp()).post('/rp/v6.0/collect').set('Content-Type', 'application/json').send('{"orderRef":').expect(400);
    expect(bankidErrorBody.parse(res.body).errorCode).toBe('invalidParameters');
  });

  it('answers 405 methodNotAllowed for GET', async () => {
    const res = await request(newApp()).get('/rp/v6.0/collect').expect(405);
    expect(bankidErrorBody.parse(res.body).errorCode).toBe('methodNotAllowed');
  });
});

describe('test BankID app page', () => {
  it('is plain accessible HTML listing each waiting order with a Swedish persona picker and three actions', async () => {
    const app = newApp();
    const all = await listPersonas(app);
    const { orderRef } = await startOrder(app);
    const res = await request(app)
      .get(APP_PAGE)
      .expect(200)
      .expect('Content-Type', /text\/html/);
    const html = res.text;
    expect(html).toMatch(/<html lang="en">/);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).not.toMatch(/<script/i);

    const section = orderSection(html, orderRef) ?? '';
    expect(section).toContain(`<form method="post" action="${APP_PAGE}/identify">`);
    expect(section).toMatch(new RegExp(`<label for="persona-${orderRef}">Identify as</label>`));
    expect(section).toMatch(new RegExp(`<select id="persona-${orderRef}" name="nationalId">`));
    expect(section).toContain(`<input type="hidden" name="orderRef" value="${orderRef}">`);
    expect(section).toMatch(/<button type="submit">Identify<\/button>/);
    expect(section).toMatch(new RegExp(`<button type="submit" formaction="${APP_PAGE}/scan">Scan only</button>`));
    expect(section).toMatch(new RegExp(`<button type="submit" formaction="${APP_PAGE}/cancel">Cancel</button>`));

    const offered = [...section.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    expect(offered.sort()).toEqual(
      all
        .filter((p) => p.country === 'SE')
        .map((p) => p.nationalId)
        .sort(),
    );
  });

  it('shows only the order of the autostart token and returns to the launch redirect', async () => {
    const app = newApp();
    const persona = await personaFor(app, 'onboarding');
    const mine = await startOrder(app);
    const someoneElses = await startOrder(app);
    const redirect = 'http://web.test/onboarding?device=same';

    const res = await request(app).get(APP_PAGE).query({ autostarttoken: mine.autoStartToken, redirect }).expect(200);
    const section = orderSection(res.text, mine.orderRef) ?? '';
    expect(section).toContain('<input type="hidden" name="redirect" value="http://web.test/onboarding?device=same">');
    expect(orderSection(res.text, someoneElses.orderRef)).toBeUndefined();

    const identify = await request(app)
      .post(`${APP_PAGE}/identify`)
      .type('form')
      .send({ orderRef: mine.orderRef, nationalId: persona.nationalId, redirect })
      .expect(303);
    expect(identify.headers.location).toBe(redirect);
    expect((await collect(app, mine.orderRef)).status).toBe('complete');
  });

  it.each([
    ['the string null', 'null', APP_PAGE],
    ['a javascript: URL', 'javascript:alert(1)', APP_PAGE],
    ['a local path', '/onboarding?x=1', '/onboarding?x=1'],
  ])('after an action with redirect %s it goes to %s', async (_label, redirect, expected) => {
    const app = newApp();
    const { orderRef } = await startOrder(app);
    const res = await request(app).post(`${APP_PAGE}/cancel`).type('form').send({ orderRef, redirect }).expect(303);
    expect(res.headers.location).toBe(expected);
  });

  it("returns to the order's returnUrl after identify or cancel, but stays in the app after a scan", async () => {
    const app = newApp();
    const persona = await personaFor(app, 'onboarding');
    const returnUrl = 'http://web.test/onboarding/bankid-return';
    const first = await startOrder(app, { endUserIp: '192.0.2.10', returnUrl });
    const scan = await request(app).post(`${APP_PAGE}/scan`).type('form').send({ orderRef: first.orderRef, nationalId: persona.nationalId, redirect: 'null' });
    expect(scan.headers.location).toBe(APP_PAGE);
    const identify = await request(app)
      .post(`${APP_PAGE}/identify`)
      .type('form')
      .send({ orderRef: first.orderRef, nationalId: persona.nationalId, redirect: 'null' });
    expect(identify.headers.location).toBe(returnUrl);

    const second = await startOrder(app, { endUserIp: '192.0.2.10', returnUrl });
    const cancel = await request(app).post(`${APP_PAGE}/cancel`).type('form').send({ orderRef: second.orderRef, redirect: 'http://elsewhere.test/' });
    expect(cancel.headers.location).toBe(returnUrl);
  });

  it('says so when no order matches the start token', async () => {
    const res = await request(newApp()).get(APP_PAGE).query({ autostarttoken: 'unknown', redirect: 'null' }).expect(200);
    expect(res.text).toContain('No waiting order matches this start token');
  });

  it.each([
    ['an unknown order', { orderRef: 'nope', nationalId: 'x' }, 404],
    ['no persona chosen', { orderRef: 'REAL' }, 400],
  ])('answers an HTML error for %s', async (_label, form, status) => {
    const app = newApp();
    const { orderRef } = await startOrder(app);
    const res = await request(app)
      .post(`${APP_PAGE}/identify`)
      .type('form')
      .send({ ...form, orderRef: form.orderRef === 'REAL' ? orderRef : form.orderRef })
      .expect(status);
    expect(res.text).toContain('<h1>The order could not be updated</h1>');
  });

  it('refuses to identify with a persona that has no Swedish BankID', async () => {
    const app = newApp();
    const norwegian = await personaFor(app, 'onboarding', 'NO');
    const { orderRef } = await startOrder(app);
    const res = await request(app).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: norwegian.nationalId }).expect(400);
    expect(res.body.error).toMatch(/Swedish/);
  });
});

// --- personas ------------------------------------------------------------------------------

describe('personas', () => {
  const requiredScenarios = [
    'onboarding',
    'onboardingIntent',
    'login',
    'nightlyDowntimeRouting',
    'minor',
    'manualSupport',
    'openCase',
    'legacyFlow',
    'blocked',
    'customerExists',
    'accountLimit',
    'creationPaused',
    'creationNightlyDowntime',
    'creationFailed',
    'creationStuck',
    'creationSlow',
    'creationPostFails',
    'bankidExpires',
    // Straight to the contact step: with a registered address, and without one and its e-mail refused.
    'contactInformation',
    'contactEmailRejected',
    // Straight to the tax information step.
    'taxInformation',
    // Straight to the account picker and alias steps.
    'accounts',
    // Straight to the citizenship step.
    'citizenship',
    // Lives abroad: straight to the residency step; and one whose residency submit is refused.
    'residency',
    'residencyRefused',
    // Lives abroad, every step (also in NO, DK and FI).
    'livesAbroad',
    // Straight to the KYC questionnaire: answered normally, and its failure modes (tests/http/kycSandbox.test.ts).
    'kyc',
    'kycAlreadyAnswered',
    'kycBusy',
    'kycBusyForever',
    'kycNextFailsOnce',
    'kycRiskNeverDone',
    'kycMoreInformation',
    'kycUnknownType',
    // The legacy single form's outcomes (tests/http/legacySandbox.test.ts), and the step flow signed in another tab.
    ...LEGACY_OUTCOME_SCENARIOS,
    'signInOtherTab',
    'signatureHighRisk',
  ];

  it('have national ids valid for their country, unique, with full names', async () => {
    const all = await listPersonas(newApp());
    for (const p of all) {
      expect(Object.keys(p).sort()).toEqual(['country', 'name', 'nationalId', 'scenario']);
      expect(isValidNationalId(p.country, p.nationalId), `${p.name} ${p.nationalId}`).toBe(true);
      // legacyDoubleName's surname has two words (customer-information §5 double name).
      expect(p.name).toMatch(p.scenario === 'legacyDoubleName' ? /^\S+ \S+ \S+$/ : /^\S+ \S+$/);
    }
    expect(new Set(all.map((p) => p.nationalId)).size).toBe(all.length);
  });

  it('cover every required scenario with exactly one Swedish persona, plus the broker scenarios in NO, DK and FI', async () => {
    const all = await listPersonas(newApp());
    const swedish = all.filter((p) => p.country === 'SE').map((p) => p.scenario);
    expect(swedish.sort()).toEqual([...requiredScenarios].sort());
    const others = all.filter((p) => p.country !== 'SE').map((p) => `${p.country}:${p.scenario}`);
    // 'accounts' goes straight to the account picker and alias steps (tests/e2e/customerInformationAccounts.test.ts).
    // 'livesAbroad' walks every step (tests/e2e/customerInformationMarkets.test.ts).
    // The legacy single form and signInOtherTab are in every market (tests/http/legacySandbox.test.ts).
    const legacyScenarios = ['legacyFlow', ...LEGACY_OUTCOME_SCENARIOS, 'signInOtherTab'];
    const brokerScenarios = ['accounts', 'livesAbroad', 'login', 'minor', 'onboarding', ...legacyScenarios];
    // National ids a checksum stricter than the issuing authority's once refused (tests/reliability/nationalIdsRefused.test.ts).
    const unusualIds = ['DK:cprWithoutModulus11', 'NO:controlDigits2032', 'NO:hNumber', 'NO:syntheticTestNumber'];
    expect(others.sort()).toEqual([...['DK', 'FI', 'NO'].flatMap((c) => brokerScenarios.map((s) => `${c}:${s}`)), ...unusualIds].sort());
    // The OIDC provider's login page lists them; each id is valid for its country.
    for (const p of all.filter((x) => x.country !== 'SE')) expect(isValidNationalId(p.country as 'NO' | 'DK' | 'FI', p.nationalId)).toBe(true);
  });

  it('have the expected routing status', async () => {
    const app = newApp();
    const expected: Array<[string, string, string[] | null]> = [
      ['onboarding', 'ONBOARDING', null],
      ['onboardingIntent', 'ONBOARDING_INTENT', null],
      ['login', 'LOGIN', null],
      ['nightlyDowntimeRouting', 'ONBOARDING_NIGHTLY_DOWNTIME', null],
      ['minor', 'MINOR', null],
      ['manualSupport', 'MANUAL_SUPPORT', null],
      ['openCase', 'ONBOARDING_OPEN_CASE', null],
      ['legacyFlow', 'ONBOARDING', ['SHOULD_NOT_UPDATE_STATUS']],
      ['blocked', 'ONBOARDING', null],
    ];
    for (const [scenario, status, info] of expected) {
      const { jwt } = await loginWithBankid(app, scenario);
      const res = await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(200);
      const routing = routingStatusResponse.parse(res.body);
      expect([scenario, routing.customerRoutingStatus, routing.routingInformation]).toEqual([scenario, status, info]);
      if (scenario === 'login') expect(routing.customerId).toEqual(expect.any(String));
    }
  });
});

// --- brokerage API -------------------------------------------------------------------------

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

describe('brokerage authentication', () => {
  it.each([
    ['GET', brokeragePaths.routingStatus],
    ['GET', brokeragePaths.systemStatus],
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

// --- sandbox plumbing ----------------------------------------------------------------------

describe('sandbox controls and pages', () => {
  it('serves healthz, the overview page and JSON 404s', async () => {
    const app = newApp();
    await request(app).get('/sandbox/healthz').expect(200, { ok: true });
    const overview = await request(app)
      .get('/sandbox/overview')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(overview.text).toContain('<h1>You are logged in</h1>');
    const missing = await request(app).get('/no/such/route').expect(404).expect('Content-Type', /json/);
    expect(brokerageErrorBody.parse(missing.body).data?.message).toMatch(/no\/such\/route/);
  });

  it('forgets orders and sessions on reset', async () => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'onboarding');
    const { orderRef } = await startOrder(app);
    await request(app).post('/sandbox/reset').expect(204);
    expect((await request(app).get('/sandbox/bankid/orders')).body).toEqual([]);
    await rp(app, 'collect', { orderRef }).expect(400);
    await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(401);
  });

  it('startSandbox listens on a free port and builds signing links from its own URL', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${sandbox.url}/sandbox/healthz`);
      expect(await health.json()).toEqual({ ok: true });

      const { jwt } = await loginWithBankid(sandbox.url, 'onboarding');
      const created = await request(sandbox.url).post(brokeragePaths.prospectsV3).set(bearer(jwt)).send({ country: 'SE', customerType: 'PRIVATE' });
      await request(sandbox.url)
        .post(brokeragePaths.accountPickerStep(created.body.prospect_id))
        .set(bearer(jwt))
        .send({ accountTypesWithCountry: ['DEP_SE'] })
        .expect(200);
      const signature = await request(sandbox.url).post(brokeragePaths.signatures(created.body.prospect_id)).set(bearer(jwt)).send(signatureBody).expect(200);
      expect(signature.body.data.url.startsWith(`${sandbox.url}/sandbox/signing/`)).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});
