// The BankID per-address limit trusted X-Forwarded-For from any loopback peer (TRUST_PROXY defaulted to loopback), so a
// client on the machine, or a proxy that passes the header on unchecked, could name a new address for each start and
// escape the limit. Now no hop is trusted unless TRUST_PROXY says so (a hop count or addresses; `true` is refused), and
// the limit keys Express's req.ip under that setting only.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { userAgents } from '../support/userAgents.ts';
import { loadConfig } from '../../server/config.ts';

const PER_IP = 3;
const STARTS = 5;
let untrusted: Stack;
let oneHop: Stack;

beforeAll(async () => {
  const limits = { BANKID_STARTS_PER_IP_PER_MINUTE: String(PER_IP), LOG_LEVEL: 'silent' };
  // '' is unset (server/config.ts): the product's default, whatever the tests' harness sets.
  [untrusted, oneHop] = await Promise.all([startEmbeddedStack({ ...limits, TRUST_PROXY: '' }), startEmbeddedStack({ ...limits, TRUST_PROXY: '1' })]);
});
afterAll(async () => Promise.all([untrusted?.stop(), oneHop?.stop()]));

/** One new desktop browser choosing Private, claiming the address `forwardedFor`; answers the page it lands on. */
async function startFrom(stack: Stack, forwardedFor: string): Promise<string> {
  const agent = request.agent(stack.webUrl).set('user-agent', userAgents.windowsChrome).set('x-forwarded-for', forwardedFor);
  await agent.post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'private' }).expect(303);
  return (await agent.get('/onboarding?lang=en').expect(200)).text;
}

async function orderAddresses(stack: Stack): Promise<string[]> {
  return ((await (await fetch(`${stack.sandboxUrl}/sandbox/bankid/all-orders`)).json()) as { endUserIp: string }[]).map((o) => o.endUserIp);
}

describe('X-Forwarded-For and the BankID per-address limit', () => {
  it('by default no hop is trusted: a loopback peer naming a new address for each start is still one address', async () => {
    const pages: string[] = [];
    for (let i = 0; i < STARTS; i++) pages.push(await startFrom(untrusted, `10.77.0.${i + 1}`));
    const addresses = await orderAddresses(untrusted);
    expect(addresses.length).toBe(PER_IP);
    expect(new Set(addresses)).toEqual(new Set(['127.0.0.1']));
    expect(pages.filter((p) => p.includes('Too many')).length).toBe(STARTS - PER_IP);
  });

  it('with TRUST_PROXY=1 (one router in front) the router’s X-Forwarded-For names the client', async () => {
    for (let i = 0; i < STARTS; i++) await startFrom(oneHop, `10.78.0.${i + 1}`);
    expect((await orderAddresses(oneHop)).sort()).toEqual(Array.from({ length: STARTS }, (_, i) => `10.78.0.${i + 1}`).sort());
  });

  it('TRUST_PROXY: unset is none; a hop count, or addresses; true is refused, naming it', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });
});
