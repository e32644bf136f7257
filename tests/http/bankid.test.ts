// Same-device BankID over plain HTTP (no JavaScript): the launch link and meta refresh, and the
// completion address check (completionData.device.ipAddress against the browser's address).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { personaFor } from '../support/journey.ts';
import { userAgents } from '../support/userAgents.ts';
import { plainBrowser } from '../support/plainBrowser.ts';
import { bankidQrStatusSchema } from '../../shared/bankidQr.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startEmbeddedStack();
});

afterAll(async () => {
  await stack?.stop();
});

function client(userAgent: string) {
  return plainBrowser(stack.webUrl, userAgent);
}

async function identify(token: string, scenario: string): Promise<void> {
  const persona = await personaFor(stack.sandboxUrl, scenario);
  const orders = (await (await fetch(`${stack.sandboxUrl}/sandbox/bankid/all-orders`)).json()) as { orderRef: string; autoStartToken: string }[];
  const order = orders.find((o) => o.autoStartToken === token);
  expect(order).toBeDefined();
  const res = await fetch(`${stack.sandboxUrl}/sandbox/bankid/orders/${order!.orderRef}/identify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nationalId: persona.nationalId }),
  });
  expect(res.status).toBe(200);
}

const webLink = /href="https:\/\/app\.bankid\.com\/\?autostarttoken=([0-9a-f-]+)&amp;redirect=null"/;
const schemeLink = /href="bankid:\/\/\/\?autostarttoken=([0-9a-f-]+)&amp;redirect=null"/;

async function startSameDevice(browser: ReturnType<typeof client>, link: RegExp): Promise<{ html: string; token: string }> {
  await browser.request('/onboarding');
  expect((await browser.post('/onboarding/customer-type', { customerType: 'private' })).status).toBe(303);
  // A phone gets the device choice first, and no order yet.
  const choice = await (await browser.request('/onboarding')).text();
  expect(choice).toContain('BankID on this device');
  expect(choice).not.toContain('autostarttoken');
  expect((await browser.post('/onboarding/identification/bankid/mode', { mode: 'SAME_DEVICE' })).status).toBe(303);
  const html = await (await browser.request('/onboarding')).text();
  const match = link.exec(html);
  expect(match).not.toBeNull();
  return { html, token: match![1]! };
}

describe('same-device BankID without JavaScript', () => {
  it('renders the launch link as a plain anchor and refreshes the page', async () => {
    const browser = client(userAgents.iphoneSafari);
    const { html } = await startSameDevice(browser, webLink);
    expect(html).toMatch(/<noscript><meta http-equiv="refresh" content="1/);
    expect(html).toContain('Enter your security code in the BankID app');
    // A bad mode is ignored rather than failing.
    expect((await browser.post('/onboarding/identification/bankid/mode', { mode: 'PIGEON' })).status).toBe(303);
  });

  it('refuses an order completed from another address, and accepts it from the same one after Try again', async () => {
    const browser = client(userAgents.androidChrome);
    // Android Chrome gets the bankid:/// form.
    const { token } = await startSameDevice(browser, schemeLink);
    await identify(token, 'onboarding');

    browser.setIp('10.9.9.9');
    // The answers are what the island accepts (it parses them with the same schema).
    const refused = bankidQrStatusSchema.parse(await (await browser.request('/onboarding/identification/bankid/status')).json());
    expect(refused.state).toBe('failed');
    expect(refused.message).toContain('completed from another network');
    expect(refused.retry).not.toBeNull();

    browser.setIp('10.0.0.1');
    expect((await browser.post('/onboarding/identification/bankid/retry', {})).status).toBe(303);
    const again = await (await browser.request('/onboarding')).text();
    const token2 = /autostarttoken=([0-9a-f-]+)/.exec(again)?.[1];
    expect(token2).toBeDefined();
    expect(token2).not.toBe(token);
    await identify(token2!, 'onboarding');
    const done = bankidQrStatusSchema.parse(await (await browser.request('/onboarding/identification/bankid/status')).json());
    expect(done).toMatchObject({ state: 'complete', next: '/onboarding/routing' });
  });

  it('answers 409 JSON to a status poll without an identification in progress', async () => {
    const browser = client(userAgents.iphoneSafari);
    await browser.request('/onboarding');
    const res = await browser.request('/onboarding/identification/bankid/status');
    expect(res.status).toBe(409);
  });
});
