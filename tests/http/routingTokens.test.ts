// Routing after identification calls the brokerage as the person (shared/asPerson.ts), as the
// customer-information page and the jobs do: an access token that expired between identification and routing
// (identification-routing-creation §7: a 401 triggers a token refresh) is refreshed once, kept in the session,
// and the person is routed; a session that cannot be renewed is "try again", without retrying the refused token.
// The sandbox expires tokens (POST /sandbox/sessions/expire) and forces answers (POST /sandbox/faults).
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { logCapture, startEmbeddedStack, type Stack } from '../support/stack.ts';
import { identifyBeforeRouting } from '../support/journey.ts';
import { screenOf } from '../support/customerInformation.ts';

const TOKEN_REFRESH = 'access token expired: token refresh';

let stack: Stack;
const logs = logCapture();
const logged = logs.logged;

beforeAll(async () => {
  stack = await startEmbeddedStack({ LOG_LEVEL: 'info' }, { logDestination: logs.stream });
});
afterAll(async () => {
  await stack?.stop();
});
beforeEach(async () => {
  await request(stack.sandboxUrl).post('/sandbox/reset').expect(204);
  logs.clear();
});

const expire = (nationalId: string, refresh = false) => request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId, refresh }).expect(200);

describe('routing with an expired access token', () => {
  it('refreshes it once, routes the person to their customer-information page and keeps the new token', async () => {
    const agent = request.agent(stack.webUrl);
    const persona = await identifyBeforeRouting(agent, stack.sandboxUrl, 'contactInformation');
    // As if the person had waited more than the access token's 30 minutes between identifying and routing.
    expect((await expire(persona.nationalId)).body.expired).toBeGreaterThan(0);

    const routed = await agent.get('/onboarding/routing').expect(303);
    const page = routed.headers.location as string;
    expect(page).toMatch(/^\/onboarding\/customer-information\//);
    expect(logged(TOKEN_REFRESH)).toEqual([expect.objectContaining({ call: 'routingStatus', upstream: 'brokerage' })]);

    // The session holds the renewed token: the page's own calls need no second refresh.
    const shown = await agent.get(page).expect(200);
    expect(screenOf(shown.text)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
    expect(logged(TOKEN_REFRESH)).toHaveLength(1);
    expect(logged('routing failed')).toEqual([]);

    // No token of the person in any log line or page.
    const tokens = (await request(stack.sandboxUrl).get('/sandbox/sessions/tokens').query({ nationalId: persona.nationalId }).expect(200)).body
      .tokens as string[];
    const output = logs.text() + shown.text;
    for (const token of tokens) expect(output).not.toContain(token);
  });

  it('a later routing call refused for its token (the intent) is refreshed and tried again too', async () => {
    const agent = request.agent(stack.webUrl);
    await identifyBeforeRouting(agent, stack.sandboxUrl, 'contactInformation');
    await request(stack.sandboxUrl)
      .post('/sandbox/faults')
      .send({ method: 'PUT', path: brokeragePaths.becomeCustomerIntent, status: 401, code: 'EXPIRED_ACCESS_TOKEN' })
      .expect(204);
    const routed = await agent.get('/onboarding/routing').expect(303);
    expect(routed.headers.location).toMatch(/^\/onboarding\/customer-information\//);
    expect(logged(TOKEN_REFRESH)).toEqual([expect.objectContaining({ call: 'becomeCustomerIntent' })]);
  });

  it("a refresh that fails once is asked again by the routing status's next try, and the person is routed", async () => {
    const agent = request.agent(stack.webUrl);
    const persona = await identifyBeforeRouting(agent, stack.sandboxUrl, 'contactInformation');
    await expire(persona.nationalId);
    await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'POST', path: brokeragePaths.refreshToken, status: 503 }).expect(204);

    const routed = await agent.get('/onboarding/routing').expect(303);
    expect(routed.headers.location).toMatch(/^\/onboarding\/customer-information\//);
    expect(logged('token refresh failed')).toEqual([expect.objectContaining({ status: 503, call: 'routingStatus' })]);
    expect(logged(TOKEN_REFRESH)).toHaveLength(2);
  });

  it('a brokerage session that has ended is "try again" after one refresh, not "more information needed"', async () => {
    const agent = request.agent(stack.webUrl);
    const persona = await identifyBeforeRouting(agent, stack.sandboxUrl, 'contactInformation');
    await expire(persona.nationalId, true);

    const routed = await agent.get('/onboarding/routing').expect(303);
    expect(routed.headers.location).toBe('/onboarding');
    const start = await agent.get('/onboarding').expect(200);
    expect(start.text).toContain('Something went wrong');
    expect(start.text).not.toContain('You need to provide additional information');
    expect(logged(TOKEN_REFRESH)).toHaveLength(1);
    expect(logged('token refresh failed')).toEqual([expect.objectContaining({ status: 401, call: 'routingStatus' })]);
    expect(logged('routing failed')).toEqual([expect.objectContaining({ status: 401 })]);
  });
});
