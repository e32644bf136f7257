// The BankID page polls its status every second while the person may press Back or "Open BankID on
// this device". Those requests share one session; each must see what the one before it wrote, or a
// poll in flight writes back a cancelled order over the one the person just started. A slow collect
// (sandbox delay fault) holds a poll open while the person acts. Run in memory mode and in Redis mode
// with the poll and the action on two different web processes (the lock must hold across processes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { startEmbeddedStack, startRedisStack, type Stack } from '../support/stack.ts';
import { userAgents } from '../support/userAgents.ts';
import { personaFor } from '../support/journey.ts';
import { plainBrowser, type PlainBrowser } from '../support/plainBrowser.ts';

const statusUrl = '/onboarding/identification/bankid/status';
const COLLECT_DELAY_MS = 1200;

interface SandboxOrder {
  orderRef: string;
  status: string;
  autoStartToken: string;
  endUserIp: string;
}

describe.each([
  ['memory mode', startEmbeddedStack, false],
  ['Redis mode, two web processes', startRedisStack, true],
] as const)('BankID state while the page polls (%s)', (_name, startStack, twoWebs) => {
  let stack: Stack;
  let otherWeb: string;

  beforeAll(async () => {
    stack = await startStack();
    otherWeb = twoWebs ? await stack.startExtraWeb() : stack.webUrl;
  });

  afterAll(async () => {
    if (twoWebs) await stack?.stopExtraWeb('SIGTERM');
    await stack?.stop();
  });

  /** A desktop visitor with an address of their own, so their orders can be told apart. */
  async function desktopOnQrPage(): Promise<{ browser: PlainBrowser; ip: string }> {
    const ip = `10.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;
    const browser = plainBrowser(stack.webUrl, userAgents.windowsChrome, ip);
    await browser.request('/onboarding');
    expect((await browser.post('/onboarding/customer-type', { customerType: 'private' })).status).toBe(303);
    expect(await (await browser.request('/onboarding')).text()).toContain('data-island="bankidQr"');
    return { browser, ip };
  }

  async function ordersOf(ip: string): Promise<SandboxOrder[]> {
    const all = (await (await fetch(`${stack.sandboxUrl}/sandbox/bankid/all-orders`)).json()) as SandboxOrder[];
    return all.filter((o) => o.endUserIp === ip);
  }

  /** The next collect answers COLLECT_DELAY_MS late; answers once the poll has had time to reach it. */
  async function pollHeldOpen(browser: PlainBrowser): Promise<{ poll: Promise<Response>; abort: () => void }> {
    const fault = await fetch(`${stack.sandboxUrl}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/rp/v6.0/collect', delayMs: COLLECT_DELAY_MS, count: 1 }),
    });
    expect(fault.status).toBe(204);
    const controller = new AbortController();
    const poll = browser.request(statusUrl, { signal: controller.signal });
    // Handled from the start: an aborted poll rejects before the test looks at it.
    poll.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    // Wrapped: an async function returning the bare promise would wait for it.
    return { poll, abort: () => controller.abort() };
  }

  // The second case is what a browser does: submitting Back navigates away and aborts the island's fetch,
  // while the server goes on handling that poll.
  it.each([
    ['the poll is still open', false],
    ['the browser dropped the poll', true],
  ])('Back while %s cancels the order and returns to the customer type; the poll does not undo it', async (_case, dropPoll) => {
    const { browser, ip } = await desktopOnQrPage();
    const { poll, abort } = await pollHeldOpen(browser);
    if (dropPoll) abort();
    browser.setBaseUrl(otherWeb);
    expect((await browser.post('/onboarding/identification/bankid/cancel', {})).status).toBe(303);
    await poll.catch(() => undefined);
    // The dropped poll's handler ends on its own time: give it that before looking.
    await new Promise((r) => setTimeout(r, dropPoll ? COLLECT_DELAY_MS : 0));
    const page = await (await browser.request('/onboarding')).text();
    expect(page).toContain('Before we get started. Who&#x27;s the account for?');
    expect(page).not.toContain('data-island="bankidQr"');
    const orders = await ordersOf(ip);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.filter((o) => o.status === 'pending')).toEqual([]);
  });

  it('switching to this device during a poll leaves exactly one running order, the one the page shows, and Back cancels it', async () => {
    const { browser, ip } = await desktopOnQrPage();
    const { poll } = await pollHeldOpen(browser);
    browser.setBaseUrl(otherWeb);
    expect((await browser.post('/onboarding/identification/bankid/mode', { mode: 'SAME_DEVICE' })).status).toBe(303);
    const sameDevice = await (await browser.request('/onboarding')).text();
    await poll;
    const token = /autostarttoken=([0-9a-f-]+)/.exec(sameDevice)?.[1];
    expect(token).toBeDefined();

    // Later polls and page loads keep following that order.
    browser.setBaseUrl(stack.webUrl);
    const status = (await (await browser.request(statusUrl)).json()) as { state: string; launch?: { url: string } };
    expect(status.state).toBe('pending');
    expect(status.launch?.url).toContain(token);
    expect(await (await browser.request('/onboarding')).text()).toContain(`autostarttoken=${token}`);
    const pending = (await ordersOf(ip)).filter((o) => o.status === 'pending');
    expect(pending.map((o) => o.autoStartToken)).toEqual([token]);

    expect((await browser.post('/onboarding/identification/bankid/cancel', {})).status).toBe(303);
    expect((await ordersOf(ip)).filter((o) => o.status === 'pending')).toEqual([]);
  });

  it('a poll queued behind the one that identifies does not bring the old session back', async () => {
    const { browser, ip } = await desktopOnQrPage();
    const [order] = (await ordersOf(ip)).filter((o) => o.status === 'pending');
    const persona = await personaFor(stack.sandboxUrl, 'onboarding');
    const identified = await fetch(`${stack.sandboxUrl}/sandbox/bankid/orders/${order!.orderRef}/identify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nationalId: persona.nationalId }),
    });
    expect(identified.status).toBe(200);

    // The first poll collects the completed order and gives the session a new id; the second one, sent
    // with the old cookie meanwhile, waits for it.
    const { poll: identifying } = await pollHeldOpen(browser);
    browser.setBaseUrl(otherWeb);
    const queued = await browser.request(statusUrl);
    const first = await identifying;
    expect(await first.json()).toMatchObject({ state: 'complete', next: '/onboarding/routing' });
    expect(first.headers.get('set-cookie')).toMatch(/^onb\.sid=/);
    // The queued poll finds the old session gone: no old cookie, no stale state written back.
    expect(queued.status).toBe(303);
    expect(queued.headers.get('set-cookie')).toBeNull();
    // Asked again at the same URL, a path of ours (identification-routing-creation §4 "Redirect sanitising").
    expect(queued.headers.get('location')).toBe(statusUrl);

    // The browser goes on as the identified person.
    browser.setBaseUrl(stack.webUrl);
    let res = await browser.request('/onboarding/routing');
    for (let hops = 0; res.status === 303 || res.status === 302; hops++) {
      expect(hops).toBeLessThan(5);
      res = await browser.request(new URL(res.headers.get('location')!, stack.webUrl).pathname);
    }
    const page = await res.text();
    expect(page).not.toContain('data-island="bankidQr"');
    expect(page).not.toContain('Before we get started');
  });
});
