// After signing, the browser's Back reopened milestone three with working Change buttons.
// A Change posted new data to the brokerage while creation ran from the signed agreement, and the next
// "Sign with BankID" asked for a second signature. Once a signing URL was handed out and creation has started,
// the customer-information page offers only the way on to customer creation, and nothing it posts reaches the
// brokerage (counted by the sandbox's read-out of the calls that change something there).
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { atMilestoneThreeOverHttp } from '../support/customerInformation.ts';
import { postStep } from '../support/journey.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

const SIGN = 'step=MILESTONE_THREE_STEP&screen=milestone';

/** The calls that reached the brokerage naming the prospect's own paths (steps, milestones, signatures). */
async function prospectCalls(prospectId: string): Promise<string[]> {
  const { body } = await request(stack.sandboxUrl).get('/sandbox/brokerage-calls').query({ prospectId }).expect(200);
  return (body as { calls: { method: string; path: string }[] }).calls.filter((c) => c.path.includes('/prospects/')).map((c) => `${c.method} ${c.path}`);
}

describe('after signing, milestone three is closed', () => {
  it('Back to the page shows no Change and no Sign; a Change, Sign or Back posted from the old page reaches no brokerage', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'accounts');
    const prospectId = decodeURIComponent(page.split('/').pop()!);
    // The page as it was before signing: a Change (its step from the form's hidden field).
    const target = /name="target" value="([A-Z_]+)"/.exec((await agent.get(page).expect(200)).text)?.[1];
    expect(target).toBeDefined();

    const signingUrl = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    const complete = (await request(signingUrl).post('/sign').expect(303)).headers.location as string;
    // The signing service's return: customer creation starts.
    await agent.get(new URL(complete).pathname).expect(200);
    const before = await prospectCalls(prospectId);

    // Back (twice in the browser) to the customer-information page: only the way on to creation.
    const closed = (await agent.get(page).expect(200)).text;
    expect(closed).not.toContain('name="intent" value="change"');
    expect(closed).not.toContain('Sign with Bank ID');
    expect(closed).toContain('Continue to customer creation');
    expect(closed).toContain(`href="${new URL(complete).pathname}"`);

    // What the page shown before signing could still post: a Change, Sign, the header's Back.
    await postStep(agent, page, `${SIGN}&intent=change&target=${target}`).expect(303).expect('location', page);
    await postStep(agent, page, SIGN).expect(303).expect('location', page);
    await agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').expect(303).expect('location', page);
    // "I have signed" from a tab left open (signed in another one): on to creation, without a second check upstream.
    await postStep(agent, page, `${SIGN}&intent=signed&auto=1`).expect(303).expect('location', new URL(complete).pathname);
    expect((await agent.get(page).expect(200)).text).toContain('Continue to customer creation');
    expect(await prospectCalls(prospectId)).toEqual(before);
  }, 120_000);
});
