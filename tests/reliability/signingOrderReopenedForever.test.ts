// A cancelled or expired signing order was re-opened forever. Milestone three and the legacy
// review redirected to the kept signing URL whenever one existed, so after the signing service's Cancel or
// Postpone, or once the order had expired, "Sign" sent the person back to an order that could no longer be
// signed. Now those returns, and an order older than SIGNING_ORDER_LIFETIME_MS, make the next Sign ask for a
// new signing URL; the sandbox's signing page offers Cancel and Postpone and expires its orders.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { atMilestoneThreeOverHttp } from '../support/customerInformation.ts';
import { postStep } from '../support/journey.ts';
import { atLegacyReviewOverHttp, LEGACY_SIGN, postLegacy } from '../support/legacyForm.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
/** A stack whose signing orders live 50 ms (web and sandbox alike). */
let shortLived: Stack;
beforeAll(async () => {
  [stack, shortLived] = await Promise.all([startEmbeddedStack(), startEmbeddedStack({ SIGNING_ORDER_LIFETIME_MS: '50' })]);
});
afterAll(async () => Promise.all([stack?.stop(), shortLived?.stop()]));

const SIGN = 'step=MILESTONE_THREE_STEP&screen=milestone';

/** Follows our own return (a path on the web) with the person's agent; answers where it leads. */
async function followReturn(agent: Agent, location: string, webUrl: string): Promise<string> {
  expect(location.startsWith(webUrl)).toBe(true);
  const res = await agent.get(location.slice(webUrl.length));
  return res.status === 303 ? (res.headers.location as string) : location.slice(webUrl.length);
}

describe('a signing order that can no longer be signed is not re-opened', () => {
  it.each([
    { answer: 'cancel', landing: '/onboarding/cancel' },
    { answer: 'postpone', landing: 'page' },
  ])(
    "after the signing service's $answer, Sign asks for a new signing URL",
    async ({ answer, landing }) => {
      const agent = request.agent(stack.webUrl);
      const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'accounts');
      const first = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
      const back = (await request(first).post(`/${answer}`).expect(303)).headers.location as string;
      expect(await followReturn(agent, back, stack.webUrl)).toBe(landing === 'page' ? page : landing);
      const second = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
      expect(second).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
      expect(second).not.toBe(first);
      // At the brokerage: the milestone step once, a signature request per order.
      const prospectId = decodeURIComponent(page.split('/').pop()!);
      const { body } = await request(stack.sandboxUrl).get('/sandbox/brokerage-calls').query({ prospectId }).expect(200);
      const paths = (body as { calls: { path: string }[] }).calls.map((c) => c.path);
      expect([paths.filter((p) => p.endsWith('/milestone-three')).length, paths.filter((p) => p.endsWith('/signatures')).length]).toEqual([1, 2]);
      // The new order can be signed, and returns to customer creation.
      expect((await request(second).post('/sign').expect(303)).headers.location).toBe(
        `${stack.webUrl}${page.replace('/customer-information/', '/customer-creation/')}`,
      );
    },
    120_000,
  );

  it('an order older than its lifetime is not re-opened: Sign asks for a new one', async () => {
    const agent = request.agent(shortLived.webUrl);
    const page = await atMilestoneThreeOverHttp(agent, shortLived.sandboxUrl, 'accounts');
    const first = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Expired at the signing service: it can no longer be signed.
    await request(first).get('').expect(410);
    await request(first).post('/sign').expect(410);
    const second = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    expect(second).toMatch(new RegExp(`^${shortLived.sandboxUrl}/sandbox/signing/`));
    expect(second).not.toBe(first);
  }, 120_000);

  it("the legacy review: after the signing service's cancel, Sign saves again and asks for a new signing URL", async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atLegacyReviewOverHttp(agent, stack.sandboxUrl, 'legacyFlow');
    const first = (await postLegacy(agent, page, LEGACY_SIGN).expect(303)).headers.location as string;
    expect(first).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    const back = (await request(first).post('/cancel').expect(303)).headers.location as string;
    expect(await followReturn(agent, back, stack.webUrl)).toBe('/onboarding/cancel');
    const second = (await postLegacy(agent, page, LEGACY_SIGN).expect(303)).headers.location as string;
    expect(second).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    expect(second).not.toBe(first);
  }, 120_000);

  it('a return naming an older order leaves the current one open', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'accounts');
    const first = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    const cancelled = (await request(first).post('/cancel').expect(303)).headers.location as string;
    await followReturn(agent, cancelled, stack.webUrl);
    const second = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    // The first order's cancel return again (Back in the browser): the second stays the one Sign re-opens.
    await followReturn(agent, cancelled, stack.webUrl);
    expect((await postStep(agent, page, SIGN).expect(303)).headers.location).toBe(second);
  }, 120_000);
});
