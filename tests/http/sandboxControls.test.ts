// HTTP tests of the upstream sandbox: its controls and stand-in pages.
// Helpers: tests/support/sandboxApi.ts.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { startSandbox } from '../../sandbox/main.ts';
import { brokerageErrorBody, brokeragePaths, systemStatusResponse, unauthorizedBody } from '../../shared/contracts/brokerageContract.ts';
import { newApp, rp, startOrder, bearer, loginWithBankid, signatureBody } from '../support/sandboxApi.ts';

describe('sandbox controls and pages', () => {
  it('serves healthz, the overview page and JSON 404s', async () => {
    const app = newApp();
    await request(app).get('/sandbox/healthz').expect(200, { ok: true });
    const overview = await request(app)
      .get('/sandbox/overview')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(overview.text).toContain('<h1>Overview</h1>');
    expect(overview.text).toContain('Not logged in');
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

  it('answers the system status without a token, as POST /sandbox/system-status sets it, until a reset', async () => {
    const app = newApp();
    const status = async (jwt?: string) =>
      systemStatusResponse.parse(
        (
          await request(app)
            .get(brokeragePaths.systemStatus)
            .set(jwt ? bearer(jwt) : {})
            .expect(200)
        ).body,
      );
    expect(await status()).toEqual({ creationPaused: false, feedbackBanner: null });

    const set = { creationPaused: true, feedbackBanner: 'HIGH_LOAD', failing: false };
    expect((await request(app).post('/sandbox/system-status').send({ creationPaused: true, feedbackBanner: 'HIGH_LOAD' }).expect(200)).body).toEqual(set);
    expect(await status()).toEqual({ creationPaused: true, feedbackBanner: 'HIGH_LOAD' });
    // The whole status each time: what a post leaves out is all clear.
    await request(app).post('/sandbox/system-status').send({ feedbackBanner: 'HIGH_LOAD' }).expect(200);
    expect(await status()).toEqual({ creationPaused: false, feedbackBanner: 'HIGH_LOAD' });
    // failing: the endpoint is down, for everyone.
    await request(app).post('/sandbox/system-status').send({ failing: true }).expect(200);
    expect(brokerageErrorBody.parse((await request(app).get(brokeragePaths.systemStatus).expect(503)).body).data?.message).toMatch(/unavailable/);
    // Bad input is refused and changes nothing.
    for (const bad of [{ creationPaused: 'yes' }, { feedbackBanner: '' }, { failing: true, extra: 1 }]) {
      await request(app).post('/sandbox/system-status').send(bad).expect(400);
    }
    await request(app).get(brokeragePaths.systemStatus).expect(503);
    // failingForMs: an outage that ends by itself.
    await request(app).post('/sandbox/system-status').send({ failing: true, failingForMs: 600_000 }).expect(200);
    await request(app).get(brokeragePaths.systemStatus).expect(503);
    await request(app).post('/sandbox/system-status').send({ failing: true, failingForMs: 1 }).expect(200);
    await expect.poll(async () => (await request(app).get(brokeragePaths.systemStatus)).status).toBe(200);
    await request(app).post('/sandbox/system-status').send({ failing: true, failingForMs: 600_001 }).expect(400);
    await request(app).post('/sandbox/system-status').send({ failing: true }).expect(200);
    await request(app).post('/sandbox/reset').expect(204);
    expect(await status()).toEqual({ creationPaused: false, feedbackBanner: null });
  });

  it("with a token (the creation worker's call), the token must be valid and the persona's creationPaused is added", async () => {
    const app = newApp();
    const invalid = await request(app).get(brokeragePaths.systemStatus).set(bearer('made-up')).expect(401);
    expect(unauthorizedBody.parse(invalid.body).code).toBe('INVALID_ACCESS_TOKEN');
    const paused = await loginWithBankid(app, 'creationPaused');
    const other = await loginWithBankid(app, 'onboarding');
    await request(app).post('/sandbox/system-status').send({ feedbackBanner: 'HIGH_LOAD' }).expect(200);
    for (const [jwt, creationPaused] of [
      [paused.jwt, true],
      [other.jwt, false],
    ] as const) {
      const res = await request(app).get(brokeragePaths.systemStatus).set(bearer(jwt)).expect(200);
      expect(systemStatusResponse.parse(res.body)).toEqual({ creationPaused, feedbackBanner: 'HIGH_LOAD' });
    }
    // Without the token, nobody's persona counts.
    expect((await request(app).get(brokeragePaths.systemStatus).expect(200)).body).toEqual({ creationPaused: false, feedbackBanner: 'HIGH_LOAD' });
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
