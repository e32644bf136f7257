// BankID orders were started by GET. Each BankID order costs the bank
// money, yet a page view (GET or HEAD /onboarding, a browser's prefetch) or the status poll of a session
// that had chosen Private started one. Now only the person's click starts an order (a POST: choosing
// Private on a desktop, the device choice, Try again); page views and polls only collect it.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { userAgents } from '../support/userAgents.ts';

type Agent = ReturnType<typeof request.agent>;

const statusUrl = '/onboarding/identification/bankid/status';
const REPEATS = 20;

let stack: Stack;

beforeAll(async () => {
  stack = await startEmbeddedStack();
});

afterAll(async () => {
  await stack?.stop();
});

interface SandboxOrder {
  orderRef: string;
  status: string;
  endUserIp: string;
}

async function ordersFrom(ip: string): Promise<SandboxOrder[]> {
  const all = (await (await fetch(`${stack.sandboxUrl}/sandbox/bankid/all-orders`)).json()) as SandboxOrder[];
  return all.filter((o) => o.endUserIp === ip);
}

// Every visitor has an address of their own (the trusted proxy's X-Forwarded-For): their orders can be
// told apart, and the per-address start limit does not enter into this test.
let visitors = 0;
function visitor(userAgent: string): { agent: Agent; ip: string } {
  visitors++;
  const ip = `10.61.${Math.floor(visitors / 250)}.${(visitors % 250) + 1}`;
  return { agent: request.agent(stack.webUrl).set('user-agent', userAgent).set('x-forwarded-for', ip), ip };
}

async function choosePrivate(agent: Agent): Promise<void> {
  await agent.post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'private' }).expect(303);
}

const pageViews: [string, (agent: Agent) => Promise<unknown>][] = [
  ['GET /onboarding', (agent) => agent.get('/onboarding')],
  ['HEAD /onboarding', (agent) => agent.head('/onboarding')],
  ['a prefetch of /onboarding', (agent) => agent.get('/onboarding').set('sec-purpose', 'prefetch').set('sec-fetch-dest', 'document')],
  ['GET the status poll', (agent) => agent.get(statusUrl).set('accept', 'application/json')],
];

describe('BankID orders started by GET', () => {
  it.each(pageViews)('%s starts no order in a session that chose Private (20 sessions)', async (_name, view) => {
    let startedByView = 0;
    for (let i = 0; i < REPEATS; i++) {
      const { agent, ip } = visitor(userAgents.windowsChrome);
      await choosePrivate(agent);
      const before = (await ordersFrom(ip)).length;
      await view(agent);
      startedByView += (await ordersFrom(ip)).length - before;
    }
    expect(startedByView, `orders started by ${REPEATS} requests`).toBe(0);
  });

  it('on a desktop the click on Private starts the one order; 20 page views, HEADs, prefetches and polls only collect it', async () => {
    const { agent, ip } = visitor(userAgents.windowsChrome);
    await choosePrivate(agent);
    const started = await ordersFrom(ip);
    // Today's desktop UX is kept: the QR code straight after choosing Private.
    expect(started.map((o) => o.status)).toEqual(['pending']);
    for (let i = 0; i < REPEATS; i++) for (const [, view] of pageViews) await view(agent);
    expect(await ordersFrom(ip)).toEqual(started);
    const page = await agent.get('/onboarding').expect(200);
    expect(page.text).toContain('data-island="bankidQr"');
    const status = await agent.get(statusUrl).expect(200);
    expect(status.body).toMatchObject({ state: 'pending' });
  });

  it('on a phone nothing starts until the device choice; the screen offers the choice as form posts', async () => {
    const { agent, ip } = visitor(userAgents.iphoneSafari);
    await choosePrivate(agent);
    for (let i = 0; i < REPEATS; i++) for (const [, view] of pageViews) await view(agent);
    expect(await ordersFrom(ip)).toEqual([]);
    const page = (await agent.get('/onboarding').expect(200)).text;
    const form = /<form[^>]*action="\/onboarding\/identification\/bankid\/mode"[^>]*>/.exec(page)?.[0];
    expect(form).toContain('method="post"');
    expect(page).toContain('BankID on this device');
    // The status poll has nothing to collect and says so.
    await agent.get(statusUrl).expect(409);

    await agent.post('/onboarding/identification/bankid/mode').set('sec-fetch-site', 'same-origin').type('form').send({ mode: 'SAME_DEVICE' }).expect(303);
    expect((await ordersFrom(ip)).map((o) => o.status)).toEqual(['pending']);
    expect((await agent.get('/onboarding').expect(200)).text).toContain('autostarttoken=');
  });

  it('Try again is a POST that starts the next order; a failed order is not re-started by page views', async () => {
    const { agent, ip } = visitor(userAgents.windowsChrome);
    await choosePrivate(agent);
    const [first] = await ordersFrom(ip);
    // The person cancels in the BankID app: the order fails with Try again on the page.
    await fetch(`${stack.sandboxUrl}/sandbox/bankid/orders/${first!.orderRef}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect((await agent.get(statusUrl).expect(200)).body).toMatchObject({ state: 'failed', retry: { url: '/onboarding/identification/bankid/retry' } });
    for (let i = 0; i < REPEATS; i++) for (const [, view] of pageViews) await view(agent);
    expect(await ordersFrom(ip)).toHaveLength(1);

    await agent.post('/onboarding/identification/bankid/retry').set('sec-fetch-site', 'same-origin').type('form').send({}).expect(303);
    const after = await ordersFrom(ip);
    expect(after).toHaveLength(2);
    expect(after[1]!.status).toBe('pending');
  });
});
