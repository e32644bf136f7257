// OnboardingTriggerCase posted 12 times made 12 cases: each post asked the brokerage again. It now reaches the
// brokerage once per application, whatever the clicks, tabs or web processes (server/infra/caseTriggers.ts: once-only
// state in Redis and one Idempotency-Key per application; the sandbox refuses a trigger-case without a key and answers
// a repeated key without making a second case). Two web processes on one Redis, one person's session on both.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { readOut } from '../support/caseStatus.ts';

let stack: Stack;
let secondWeb: string;

beforeAll(async () => {
  stack = await startRedisStack();
  secondWeb = await stack.startExtraWeb();
}, 120_000);

afterAll(async () => {
  await stack?.stopExtraWeb('SIGTERM').catch(() => undefined);
  await stack?.stop();
});

describe('OnboardingTriggerCase across web processes', () => {
  it('trigger-case ×10 across two web processes makes 1 case', async () => {
    const agent = request.agent(stack.webUrl);
    const { prospectId, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'citizenship');
    const sid = agent.jar.getCookie('onb.sid', { domain: '127.0.0.1', path: '/', secure: false, script: false })?.value;
    expect(sid, 'a session cookie').toBeDefined();
    const url = `/onboarding/trigger-case/${encodeURIComponent(prospectId)}`;
    // The brokerage is slow to answer the first: the other clicks arrive while it runs.
    await request(stack.sandboxUrl)
      .post('/sandbox/faults')
      .send({ method: 'POST', path: '/api/2/onboarding/trigger-case', delayMs: 800, count: 1 })
      .expect(204);

    const clicks = Array.from({ length: 10 }, (_, i) =>
      request(i % 2 === 0 ? stack.webUrl : secondWeb)
        .post(url)
        .set('cookie', `onb.sid=${sid!}`)
        .set('sec-fetch-site', 'same-origin')
        .type('form')
        .send({}),
    );
    const answers = await Promise.all(clicks);
    expect(answers.map((a) => [a.status, a.headers.location])).toEqual(Array.from({ length: 10 }, () => [303, '/onboarding/case-status']));

    const { triggerCases } = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(triggerCases).toEqual([{ status: 204, body: { prospectId } }]);
    // And later, from either process: still the one case.
    await request(secondWeb).post(url).set('cookie', `onb.sid=${sid!}`).set('sec-fetch-site', 'same-origin').type('form').send({}).expect(303);
    expect((await readOut(stack.sandboxUrl, persona.nationalId)).triggerCases).toHaveLength(1);
  });
});
