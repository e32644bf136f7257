// HTTP tests of the upstream sandbox: the BankID RP API v6.0 (order lifecycle, errors) and the test BankID app page.
// Helpers: tests/support/sandboxApi.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import request from 'supertest';
import { bankidErrorBody } from '../../shared/contracts/bankidContract.ts';
import { UUID, APP_PAGE, newApp, listPersonas, personaFor, rp, startOrder, collect, expectFailedHint, orderSection } from '../support/sandboxApi.ts';

afterEach(() => {
  vi.useRealTimers();
});

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
