// The customer-information call wrapper over HTTP (customer-information.md §7, §8): a 401/403 of a step's call shows
// "session expired", any other failure "Something went wrong", both with the input kept; the banner is gone with the next
// call. An expired access token (a 401, or EXPIRED_ACCESS_TOKEN) is refreshed with the session's refresh token, logged
// without any token, and the call repeated; a refused refresh is a session expiry. Faults come from the sandbox's test
// controls (POST /sandbox/faults, POST /sandbox/sessions/expire).
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { logCapture, startEmbeddedStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { screenOf } from '../support/customerInformation.ts';

type Agent = ReturnType<typeof request.agent>;

const SESSION_EXPIRED = 'Your session has expired. Please exit the session and try again.';
const TRY_AGAIN_TITLE = 'Something went wrong';
const TRY_AGAIN_TEXT = 'Please try again at a later time. If the problem persists, please contact customer service.';
const TOKEN_REFRESH = 'access token expired: token refresh';
const CONTACT = { phone: '+46 70 123 45 67', email: 'error-test@example.com' };

let stack: Stack;
let webUrl: string;
const logs = logCapture();
const logged = logs.logged;

beforeAll(async () => {
  // The web process logs into this test (info: the token refresh line is what it checks).
  stack = await startEmbeddedStack({ LOG_LEVEL: 'info' }, { logDestination: logs.stream });
  webUrl = stack.webUrl;
});
afterAll(async () => {
  await stack?.stop();
});
// Each test starts with a clean sandbox (no faults left over, only its own sessions) and no log lines.
beforeEach(async () => {
  await request(stack.sandboxUrl).post('/sandbox/reset').expect(204);
  logs.clear();
});

const fault = (method: string, path: string, status: number, code?: string) =>
  request(stack.sandboxUrl)
    .post('/sandbox/faults')
    .send({ method, path, status, ...(code ? { code } : {}) })
    .expect(204);

/** BankID over HTTP as the scenario's persona, through routing, to the first customer-information screen. */
const identified = (agent: Agent, scenario: string) => identifyOverHttp(agent, stack.sandboxUrl, scenario);

const postContact = (agent: Agent, page: string) =>
  agent
    .post(`${page}/step`)
    .set('sec-fetch-site', 'same-origin')
    .type('form')
    .send({ step: 'CONTACT_INFORMATION_STEP', screen: 'contact', phonePrefix: '46', ...CONTACT });

/** The page showed the contact form again with what was typed. */
function expectContactKept(html: string): void {
  expect(screenOf(html)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
  expect(html).toContain(`value="${CONTACT.phone}"`);
  expect(html).toContain(`value="${CONTACT.email}"`);
}

describe('step posts through the call wrapper', () => {
  it('403 → session expired and 500 → something went wrong, input kept; the next call clears the banner', async () => {
    const agent = request.agent(webUrl);
    const { page, prospectId } = await identified(agent, 'contactInformation');
    const submitPath = brokeragePaths.contactInfoStep(prospectId);

    await fault('POST', submitPath, 403);
    const refused = await postContact(agent, page).expect(502);
    expect(refused.text).toContain(SESSION_EXPIRED);
    expect(refused.text).toMatch(/class="banner banner--error" role="alert"/);
    expect(refused.text).not.toContain(TRY_AGAIN_TITLE);
    expectContactKept(refused.text);
    // A 403 is not an expired token: nothing to refresh.
    expect(logged(TOKEN_REFRESH)).toEqual([]);

    // The banner belongs to that answer only: the next call (a GET) starts without it.
    const reloaded = await agent.get(page).expect(200);
    expect(reloaded.text).not.toContain(SESSION_EXPIRED);
    expectContactKept(reloaded.text);

    await fault('POST', submitPath, 500);
    const failed = await postContact(agent, page).expect(502);
    expect(failed.text).toContain(TRY_AGAIN_TITLE);
    expect(failed.text).toContain(TRY_AGAIN_TEXT);
    expect(failed.text).not.toContain(SESSION_EXPIRED);
    expectContactKept(failed.text);

    // The same post again succeeds: the step advances and no banner is left.
    await postContact(agent, page).expect(303).expect('location', page);
    const next = await agent.get(page).expect(200);
    expect(screenOf(next.text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    expect(next.text).not.toContain(TRY_AGAIN_TITLE);
    expect(next.text).not.toContain(SESSION_EXPIRED);
  });

  it('a 401 of another code is refreshed too (shared/asPerson.ts: the same trigger as routing and the jobs); refused again, the session has expired', async () => {
    const agent = request.agent(webUrl);
    const { page, prospectId } = await identified(agent, 'contactInformation');
    // Refused once: the refresh cures it and the step goes on.
    await fault('POST', brokeragePaths.contactInfoStep(prospectId), 401, 'INVALID_ACCESS_TOKEN');
    await postContact(agent, page).expect(303).expect('location', page);
    expect(logged(TOKEN_REFRESH)).toEqual([expect.objectContaining({ call: 'submitContactInfo' })]);

    // Refused with the renewed token as well: nothing left to renew it with, the session has expired.
    await agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').expect(303);
    logs.clear();
    await request(stack.sandboxUrl)
      .post('/sandbox/faults')
      .send({ method: 'POST', path: brokeragePaths.contactInfoStep(prospectId), status: 401, code: 'INVALID_ACCESS_TOKEN', count: 2 })
      .expect(204);
    const res = await postContact(agent, page).expect(502);
    expect(res.text).toContain(SESSION_EXPIRED);
    expectContactKept(res.text);
    expect(logged(TOKEN_REFRESH)).toHaveLength(1);
  });
});

describe('token refresh', () => {
  it('refreshes an expired access token once, repeats the call and logs a token refresh without any token', async () => {
    const agent = request.agent(webUrl);
    const { page, persona } = await identified(agent, 'contactInformation');
    const shown = await agent.get(page).expect(200);
    expect(screenOf(shown.text)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
    // As if the person had taken more than the access token's 30 minutes.
    expect(
      (await request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId: persona.nationalId }).expect(200)).body.expired,
    ).toBeGreaterThan(0);

    await postContact(agent, page).expect(303).expect('location', page);
    const next = await agent.get(page).expect(200);
    expect(screenOf(next.text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    expect(next.text).not.toContain(SESSION_EXPIRED);

    // The new token is the session's now: back on the contact step, its related data call needs no second refresh.
    await agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').expect(303);
    const back = await agent.get(page).expect(200);
    expect(screenOf(back.text)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
    expect(back.text).toContain('Registered address');

    const refreshes = logged(TOKEN_REFRESH);
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toMatchObject({ level: 30, upstream: 'brokerage', call: 'submitContactInfo' });
    expect(logged('token refresh failed')).toEqual([]);

    // No token of the person (the refresh token, the expired and the new access token) in any log line or page.
    const tokens = (await request(stack.sandboxUrl).get('/sandbox/sessions/tokens').query({ nationalId: persona.nationalId }).expect(200)).body
      .tokens as string[];
    expect(tokens).toHaveLength(3);
    const output = logs.text() + shown.text + next.text + back.text;
    for (const token of tokens) expect(output).not.toContain(token);
  });

  it('expired access token and a refused refresh → session expired, input kept', async () => {
    const agent = request.agent(webUrl);
    const { page, persona } = await identified(agent, 'contactInformation');
    await request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId: persona.nationalId }).expect(200);
    await fault('POST', brokeragePaths.refreshToken, 401, 'INVALID_REFRESH_TOKEN');

    const res = await postContact(agent, page).expect(502);
    expect(res.text).toContain(SESSION_EXPIRED);
    expectContactKept(res.text);
    expect(logged(TOKEN_REFRESH)).toHaveLength(1);
    expect(logged('token refresh failed')).toEqual([expect.objectContaining({ level: 40, status: 401, call: 'submitContactInfo' })]);
  });
  it('expired access token and the refresh itself down → "something went wrong", not an expired session', async () => {
    const agent = request.agent(webUrl);
    const { page, persona } = await identified(agent, 'contactInformation');
    await request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId: persona.nationalId }).expect(200);
    await fault('POST', brokeragePaths.refreshToken, 503);

    const res = await postContact(agent, page).expect(502);
    expect(res.text).toContain(TRY_AGAIN_TITLE);
    expect(res.text).not.toContain(SESSION_EXPIRED);
    expectContactKept(res.text);
    expect(logged('token refresh failed')).toEqual([expect.objectContaining({ level: 40, status: 503, call: 'submitContactInfo' })]);

    // The session is alive: the same post goes through once the refresh works again.
    await postContact(agent, page).expect(303).expect('location', page);
  });
});

describe('step views whose own calls fail', () => {
  it('show the banner instead of an error page, and the step again once the call works', async () => {
    const agent = request.agent(webUrl);
    const { page } = await identified(agent, 'taxInformation');
    const post = (body: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(`step=TAX_INFO_STEP&${body}`).expect(303);
    await post('screen=liability&liability=other');
    await post('screen=countries&countries=DE&intent=continue');

    // The numbers form needs the tax validation rules.
    await fault('GET', brokeragePaths.taxValidationRules, 500);
    const failed = await agent.get(page).expect(502);
    expect(failed.text).toContain(TRY_AGAIN_TITLE);
    expect(failed.text).toContain(TRY_AGAIN_TEXT);
    expect(failed.text).toMatch(new RegExp(`<a class="btn" href="${page}">Try again</a>`));
    expect(screenOf(failed.text)).toEqual(['TAX_INFO_STEP', 'numbers']);

    await fault('GET', brokeragePaths.taxValidationRules, 403);
    const expired = await agent.get(page).expect(502);
    expect(expired.text).toContain(SESSION_EXPIRED);
    expect(expired.text).not.toContain('>Try again</a>');

    const shown = await agent.get(page).expect(200);
    expect(shown.text).toContain('Tax identification number');
    expect(shown.text).not.toContain(TRY_AGAIN_TITLE);
  });
});
