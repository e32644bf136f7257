// "I have signed" never succeeded once the access token had expired, and called an outage
// "not signed yet". The brokerage client turned every status of POST /api/2/customers from 400 up into "not
// signed", so the call wrapper's token refresh on a 401 EXPIRED_ACCESS_TOKEN (customer-information §7) never ran,
// and a 5xx read "We can't see your signature yet". Now an expired token is refreshed once and the check tried
// again; an upstream failure shows the wrapper's try-again text (customer-information §7, §8 "Generic").
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { atMilestoneThreeOverHttp } from '../support/customerInformation.ts';
import { personaFor, postStep } from '../support/journey.ts';
import en from '../../locales/en.json' with { type: 'json' };

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

const SIGN = 'step=MILESTONE_THREE_STEP&screen=milestone';
const HAVE_SIGNED = `${SIGN}&intent=signed`;
/** HTML-escaped as React renders text. */
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/** At milestone three, the signing URL handed out and signed in another tab (its return to this page not followed). */
async function signedInOtherTab(agent: Agent): Promise<{ page: string; prospectId: string }> {
  const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'signInOtherTab');
  const signingUrl = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
  await request(signingUrl).post('/sign').expect(303);
  return { page, prospectId: decodeURIComponent(page.split('/').pop()!) };
}

/** The statuses the sandbox answered to the prospect's POST /api/2/customers calls, in arrival order. */
async function createCustomerCalls(prospectId: string): Promise<number[]> {
  return ((await request(stack.sandboxUrl).get('/sandbox/customers').query({ prospectId }).expect(200)).body as { createCustomer: number[] }).createCustomer;
}

async function tokensOf(nationalId: string): Promise<string[]> {
  return ((await request(stack.sandboxUrl).get('/sandbox/sessions/tokens').query({ nationalId }).expect(200)).body as { tokens: string[] }).tokens;
}

describe('"I have signed" never succeeds once the access token has expired, and calls an outage "not signed yet"', () => {
  it('with the access token expired, "I have signed" refreshes it once and goes on to customer creation', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await signedInOtherTab(agent);
    const persona = await personaFor(stack.sandboxUrl, 'signInOtherTab');
    // The person read the summary for more than 30 minutes: the access token has expired (the refresh token has not).
    expect(
      (await request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId: persona.nationalId }).expect(200)).body.expired,
    ).toBeGreaterThan(0);
    const before = new Set(await tokensOf(persona.nationalId));

    const answer = await postStep(agent, page, HAVE_SIGNED).expect(303);
    expect(answer.headers.location).toBe(page.replace('/customer-information/', '/customer-creation/'));
    // The expired token's 401, then the same call with the one refreshed token.
    expect(await createCustomerCalls(prospectId)).toEqual([401, 200]);
    expect((await tokensOf(persona.nationalId)).filter((t) => !before.has(t))).toHaveLength(1);
  });

  it('a 5xx on POST /api/2/customers shows the try-again text, not "not signed yet"; the next click goes on', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await signedInOtherTab(agent);
    await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'POST', path: '/api/2/customers', status: 503, count: 1 }).expect(204);

    const failed = await postStep(agent, page, HAVE_SIGNED);
    expect(failed.status).toBe(502);
    expect(failed.text).toContain(html(en['customerInformation.error.TRY_AGAIN_ERROR.title']));
    expect(failed.text).toContain(html(en['customerInformation.error.TRY_AGAIN_ERROR.text']));
    expect(failed.text).not.toContain(html(en['milestone.three.notSignedYet']));
    expect(failed.text).not.toContain(html(en['customerInformation.error.SESSION_EXPIRED_ERROR']));

    // The outage is over: the same click goes on (the injected fault answered before the brokerage saw the first).
    await postStep(agent, page, HAVE_SIGNED).expect(303).expect('location', page.replace('/customer-information/', '/customer-creation/'));
    expect(await createCustomerCalls(prospectId)).toEqual([200]);
  });

  it('an answer with data.message for a signed prospect (identification-routing-creation §7: an error) shows the try-again text', async () => {
    const agent = request.agent(stack.webUrl);
    // creationPostFails: POST /api/2/customers answers 200 with data.message.
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'creationPostFails');
    const signingUrl = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    await request(signingUrl).post('/sign').expect(303);
    const failed = await postStep(agent, page, HAVE_SIGNED).expect(502);
    expect(failed.text).toContain(html(en['customerInformation.error.TRY_AGAIN_ERROR.text']));
    expect(failed.text).not.toContain(html(en['milestone.three.notSignedYet']));
  });

  it('not signed yet still says so (a refusal of the brokerage, not an outage)', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'signInOtherTab');
    await postStep(agent, page, SIGN).expect(303);
    const notYet = await postStep(agent, page, HAVE_SIGNED).expect(409);
    expect(notYet.text).toContain(html(en['milestone.three.notSignedYet']));
    expect(notYet.text).not.toContain(html(en['customerInformation.error.TRY_AGAIN_ERROR.title']));
  });
});
