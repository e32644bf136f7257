// HTTP tests of the web server with an identified prospect: step form input, authorization, session fixation, the creation event stream.
// The stack and helpers: tests/support/serverHttp.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { answerStepsOverHttp } from '../support/customerInformation.ts';
import { openStream, sseFrames } from '../support/sse.ts';
import { postContinue } from '../support/journey.ts';
import {
  useServerStack,
  type Agent,
  UUID,
  SID,
  stack,
  sessionCookie,
  cookieValue,
  sidOf,
  h1,
  type Identified,
  identify,
  identifyAndRoute,
  prospectIdIn,
  expectNoInternals,
} from '../support/serverHttp.ts';

useServerStack();

describe('with an identified prospect', () => {
  let owner: Agent;
  let prospectId: string;
  let identified: Identified;
  const ci = () => `/onboarding/customer-information/${prospectId}`;

  beforeAll(async () => {
    owner = request.agent(stack.webUrl);
    identified = await identify(owner, 'onboarding');
    const routed = await owner.get('/onboarding/routing').expect(303);
    prospectId = prospectIdIn(routed.headers.location as string);
    expect(prospectId).toMatch(UUID);
  });

  it('regenerates the session id on successful identification; the old id no longer reaches the journey', async () => {
    expect(identified.sidAfter).not.toBe(identified.sidBefore);
    expect(identified.completionCookie, 'Set-Cookie on the completing status poll').toBeDefined();
    expect(cookieValue(identified.completionCookie!)).toBe(identified.sidAfter);

    // Someone who planted or saw the pre-login cookie gets nothing.
    const old = `${SID}=${identified.sidBefore}`;
    await request(stack.webUrl).get('/onboarding/routing').set('cookie', old).expect(303).expect('location', '/onboarding');
    await request(stack.webUrl).get(ci()).set('cookie', old).expect(303).expect('location', '/onboarding');
    // The new one does.
    const page = await request(stack.webUrl).get(ci()).set('cookie', `${SID}=${identified.sidAfter}`).expect(200);
    expect(h1(page.text)).toBe("Let's start your savings journey!");
  });

  describe('customer-information step form with bad input', () => {
    const milestoneOne = "Let's start your savings journey!";

    it.each([
      { name: 'missing step', type: 'form', body: '' },
      { name: 'unknown step', type: 'form', body: 'step=KYC_STEP' },
      { name: 'another step than the current one', type: 'form', body: 'step=MILESTONE_THREE_STEP&screen=milestone' },
      { name: 'repeated step', type: 'form', body: 'step=MILESTONE_ONE_STEP&step=MILESTONE_ONE_STEP&screen=milestone' },
      { name: 'garbage', type: 'form', body: 'step=%00%ff<script>&accounts[]=x' },
      { name: 'accounts as an object', type: 'json', body: '{"step":"MILESTONE_ONE_STEP","accounts":{"a":1}}' },
      { name: 'step as a number', type: 'json', body: '{"step":1}' },
      { name: 'text/plain', type: 'text', body: 'step=MILESTONE_ONE_STEP&screen=milestone' },
    ])('$name: 303 back to the step, which does not advance', async ({ type, body }) => {
      const res = await owner.post(`${ci()}/step`).set('sec-fetch-site', 'same-origin').type(type).send(body);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(ci());
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe(milestoneOne);
    });

    it.each([
      { name: 'malformed JSON', type: 'json', body: '{"step":', status: 400 },
      { name: 'oversized', type: 'form', body: `step=MILESTONE_ONE_STEP&screen=milestone&accounts=${'x'.repeat(25_000)}`, status: 413 },
    ])('$name: a $status error page, the step unchanged', async ({ type, body, status }) => {
      const res = await owner.post(`${ci()}/step`).set('sec-fetch-site', 'same-origin').type(type).send(body);
      expect(res.status).toBe(status);
      expectNoInternals(res.text);
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe(milestoneOne);
    });

    it('the account picker re-renders (400) with a message for accounts that are not offered, keeping the step', async () => {
      await owner
        .post(`${ci()}/step`)
        .set('sec-fetch-site', 'same-origin')
        .type('form')
        .send('step=MILESTONE_ONE_STEP&screen=milestone')
        .expect(303)
        .expect('location', ci());
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe('Choose your starting accounts');
      for (const body of [
        'step=ACCOUNT_PICKER_STEP&screen=accounts&accounts=ASK_NO',
        `step=ACCOUNT_PICKER_STEP&screen=accounts&accounts=${'Z'.repeat(5000)}&accounts=DEP_SE`,
      ]) {
        const res = await owner.post(`${ci()}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(400);
        expect(h1(res.text)).toBe('Choose your starting accounts');
        expect(res.text).toMatch(/role="alert"[^>]*>You must choose 1 option/);
      }
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe('Choose your starting accounts');
    });
  });

  describe("authorization: someone else's prospect id", () => {
    let other: Agent;
    let otherProspect: string;

    beforeAll(async () => {
      other = request.agent(stack.webUrl);
      otherProspect = prospectIdIn(await identifyAndRoute(other, 'onboardingIntent'));
      expect(otherProspect).not.toBe(prospectId);
    });

    const attempts: Array<{ method: 'get' | 'post'; path: (p: string) => string; location: string }> = [
      { method: 'get', path: (p) => `/onboarding/customer-information/${p}`, location: '/onboarding' },
      { method: 'post', path: (p) => `/onboarding/customer-information/${p}/step`, location: '/onboarding' },
      { method: 'post', path: (p) => `/onboarding/customer-information/${p}/back`, location: '/onboarding' },
      { method: 'get', path: (p) => `/onboarding/customer-information/${p}/exit`, location: '/onboarding' },
      { method: 'get', path: (p) => `/onboarding/customer-creation/${p}`, location: '/onboarding' },
      { method: 'post', path: (p) => `/onboarding/customer-creation/${p}/retry`, location: '/onboarding' },
      { method: 'post', path: (p) => `/onboarding/customer-creation/${p}/continue`, location: '/onboarding' },
    ];

    it.each(['an identified other user', 'an anonymous visitor'])('%s is redirected away from every page of the prospect', async (who) => {
      const intruder = who === 'an anonymous visitor' ? request.agent(stack.webUrl) : other;
      for (const a of attempts) {
        const path = a.path(prospectId);
        const req =
          a.method === 'get'
            ? intruder.get(path)
            : intruder.post(path).set('sec-fetch-site', 'same-origin').type('form').send('step=ACCOUNT_PICKER_STEP&screen=accounts&accounts=DEP_SE');
        const res = await req;
        expect(res.status, `${a.method} ${path}`).toBe(303);
        expect(res.headers.location, `${a.method} ${path}`).toBe(a.location);
        expect(res.text).not.toContain('Choose your starting accounts');
      }
      // The SSE stream is an API: 403 JSON, no stream.
      // (A deadline, so that a stream wrongly opened fails the test instead of hanging it.)
      const events = await intruder
        .get(`/onboarding/customer-creation/${prospectId}/events`)
        .set('accept', 'text/event-stream')
        .timeout({ deadline: 3000 })
        .expect(403);
      expect(events.headers['content-type']).toMatch(/json/);
      expect(events.body).toEqual({ error: 'forbidden' });
      // The owner's journey is untouched (still at the account picker, nothing submitted for them).
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe('Choose your starting accounts');
    });

    it('the other user still reaches their own prospect afterwards', async () => {
      const res = await other.get(`/onboarding/customer-information/${otherProspect}`).expect(200);
      expect(h1(res.text)).toBe("Let's start your savings journey!");
    });
  });

  it('unknown paths: GET/HEAD redirect (302) to Onboarding, other methods 404 JSON', async () => {
    for (const path of ['/no/such/page', '/onboarding/customer-information', '/onboarding/routing/extra', '/%2e%2e/%2e%2e/etc/passwd']) {
      const res = await request(stack.webUrl).get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.location, path).toBe('/onboarding');
    }
    // Files are not pages: the icons browsers fetch by themselves must not run the Onboarding page.
    for (const path of ['/favicon.ico', '/apple-touch-icon.png', '/robots.txt', '/build/missing.js']) {
      const res = await request(stack.webUrl).get(path);
      expect(res.status, path).toBe(404);
      expect(sessionCookie(res), path).toBeUndefined();
    }
    const page = await request(stack.webUrl).get('/onboarding').expect(200);
    expect(page.text).toContain('<link rel="icon" href="/images/favicon.svg" type="image/svg+xml"/>');
    await request(stack.webUrl)
      .get('/images/favicon.svg')
      .expect(200)
      .expect('content-type', /image\/svg\+xml/);
    await request(stack.webUrl).head('/no/such/page').expect(302).expect('location', '/onboarding');
    for (const method of ['post', 'put', 'delete', 'patch'] as const) {
      const res = await request(stack.webUrl)[method]('/no/such/page').set('sec-fetch-site', 'same-origin').expect(404);
      expect(res.body).toEqual({ error: 'Not found' });
    }
    // The root goes to Onboarding too.
    await request(stack.webUrl).get('/').expect(302).expect('location', '/onboarding');
  });

  it('SSE for the owned prospect: text/event-stream, retry first, then id/event/data frames up to done', async () => {
    // Finish the steps, sign at the sandbox's signing page, and land on the creation page.
    await answerStepsOverHttp(
      async () => (await owner.get(ci()).expect(200)).text,
      async (body) => void (await owner.post(`${ci()}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303).expect('location', ci())),
    );
    expect(h1((await owner.get(ci()).expect(200)).text)).toBe('Almost there! Just need to sign with your eID.');
    const toSigning = await owner
      .post(`${ci()}/step`)
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send('step=MILESTONE_THREE_STEP&screen=milestone')
      .expect(303);
    const signingUrl = new URL(toSigning.headers.location as string);
    expect(signingUrl.origin).toBe(new URL(stack.sandboxUrl).origin);
    const signed = await request(stack.sandboxUrl).post(`${signingUrl.pathname}/sign`).expect(303);
    const completeUrl = new URL(signed.headers.location as string);
    expect(completeUrl.href).toBe(`${stack.webUrl}/onboarding/customer-creation/${prospectId}`);
    const creationPage = await owner.get(completeUrl.pathname).expect(200);
    expect(creationPage.text).toContain('data-island="creationStatus"');

    const stream = await openStream(stack.webUrl, `/onboarding/customer-creation/${prospectId}/events`, { cookie: `${SID}=${sidOf(owner)}` });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream');
      expect(stream.headers['cache-control']).toMatch(/no-cache/);
      await stream.waitFor((t) => t.includes('"outcome":"done"'), 10_000);
      expect(stream.text().startsWith('retry: ')).toBe(true);
      const frames = sseFrames(stream.text()).filter((f) => f.event !== undefined || f.data !== undefined);
      expect(frames.length).toBeGreaterThan(0);
      const ids: number[] = [];
      for (const f of frames) {
        expect(f.event).toBe('creation');
        expect(f.id).toMatch(/^\d+$/);
        ids.push(Number(f.id));
        const view = JSON.parse(f.data!) as Record<string, unknown>;
        expect(['queued', 'done']).toContain(view.outcome);
        expect(view).toHaveProperty('title');
        // A view, never the raw state with tokens.
        expect(f.data).not.toMatch(/jwt|token/i);
      }
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      stream.close();
    }
    // A garbage Last-Event-ID is ignored: the reconnecting page still gets the current state.
    const resumed = await openStream(stack.webUrl, `/onboarding/customer-creation/${prospectId}/events`, {
      cookie: `${SID}=${sidOf(owner)}`,
      'last-event-id': '-1; DROP TABLE',
    });
    try {
      expect(resumed.status).toBe(200);
      await resumed.waitFor((t) => /event: creation\ndata: \{[^\n]*"outcome":"done"/.test(t), 3000);
    } finally {
      resumed.close();
    }
    // Continue after done leaves for the success URL on the bank's site, by way of its login hand-off.
    const continued = new URL((await postContinue(owner, prospectId).expect(303)).headers.location as string);
    expect(`${continued.origin}${continued.pathname}`).toBe(`${stack.sandboxUrl}/sandbox/bank-site/login/handoff`);
    expect(continued.searchParams.get('returnTo')).toBe('/sandbox/overview');
  });
});
