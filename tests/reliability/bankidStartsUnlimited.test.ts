// BankID starts were unlimited: anyone could start BankID orders (each costs the bank money) as fast as they could send
// requests, 200 starts in 20 s reached BankID 200 times. Now starts are limited per client address and per session
// (rate-limiter-flexible, in Redis across web processes), a session has at most one live order, and a limiter that
// cannot keep its count refuses the start. Over a limit the person sees "too many attempts, wait a minute" with Try again.
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, startEmbeddedStack, startRedisStack, type Stack } from '../support/stack.ts';
import { userAgents } from '../support/userAgents.ts';
import { createBankidStartLimiter } from '../../server/infra/rateLimits.ts';

type Agent = ReturnType<typeof request.agent>;

// The defaults of BANKID_STARTS_PER_IP_PER_MINUTE and BANKID_STARTS_PER_SESSION_PER_MINUTE.
const PER_IP = 30;
const PER_SESSION = 5;
const STARTS = 200;
const TOO_MANY = 'Too many attempts to start BankID. Please wait a minute and try again.';
const retryUrl = '/onboarding/identification/bankid/retry';

interface SandboxOrder {
  orderRef: string;
  status: string;
  endUserIp: string;
}

async function ordersFrom(sandboxUrl: string, ip: string): Promise<SandboxOrder[]> {
  const all = (await (await fetch(`${sandboxUrl}/sandbox/bankid/all-orders`)).json()) as SandboxOrder[];
  return all.filter((o) => o.endUserIp === ip);
}

/** A desktop browser behind the trusted proxy at address `ip`. */
function desktop(webUrl: string, ip: string): Agent {
  return request.agent(webUrl).set('user-agent', userAgents.windowsChrome).set('x-forwarded-for', ip);
}

const post = (agent: Agent, path: string, form: Record<string, string>) => agent.post(path).set('sec-fetch-site', 'same-origin').type('form').send(form);

/** What a browser does to start: the click (POST), then the page it is sent to. Answers that page. */
async function start(agent: Agent): Promise<string> {
  await post(agent, '/onboarding/customer-type', { customerType: 'private' }).expect(303);
  return (await agent.get('/onboarding').expect(200)).text;
}

/** Runs `count` starts, `parallel` at a time, each from a new browser (no cookie) at `ip`; answers the pages. */
async function startsFromOneAddress(webUrls: string[], ip: string, count: number, parallel = 10): Promise<string[]> {
  const pages: string[] = [];
  for (let i = 0; i < count; i += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - i) }, (_, j) => start(desktop(webUrls[(i + j) % webUrls.length]!, ip)));
    pages.push(...(await Promise.all(batch)));
  }
  return pages;
}

function expectTooManyWithTryAgain(page: string): void {
  expect(page).toContain(TOO_MANY);
  expect(page).toMatch(new RegExp(`<form[^>]*action="${retryUrl}"`));
}

describe('BankID starts unlimited', () => {
  describe('one web process', () => {
    let stack: Stack;

    beforeAll(async () => {
      stack = await startEmbeddedStack();
    });

    afterAll(async () => {
      await stack?.stop();
    });

    it(`${STARTS} starts from one address reach BankID at most ${PER_IP} times; the others see "too many attempts" with Try again`, async () => {
      const ip = '10.62.0.1';
      const pages = await startsFromOneAddress([stack.webUrl], ip, STARTS);
      const orders = await ordersFrom(stack.sandboxUrl, ip);
      expect(orders.length, `orders at BankID after ${STARTS} starts`).toBeLessThanOrEqual(PER_IP);
      expect(orders.length).toBeGreaterThan(0);
      const refused = pages.filter((p) => p.includes(TOO_MANY));
      expect(refused.length).toBe(STARTS - orders.length);
      expectTooManyWithTryAgain(refused[0]!);
      // Another address is not held up by this one.
      await start(desktop(stack.webUrl, '10.62.0.2'));
      expect(await ordersFrom(stack.sandboxUrl, '10.62.0.2')).toHaveLength(1);
    });

    it(`one session: 20 Try agains reach BankID at most ${PER_SESSION} times, with one live order at a time`, async () => {
      const ip = '10.62.1.1';
      const agent = desktop(stack.webUrl, ip);
      await start(agent);
      let page = '';
      for (let i = 0; i < 20; i++) {
        await post(agent, retryUrl, {}).expect(303);
        page = (await agent.get('/onboarding').expect(200)).text;
      }
      const orders = await ordersFrom(stack.sandboxUrl, ip);
      expect(orders.length, 'orders at BankID after 21 starts in one session').toBeLessThanOrEqual(PER_SESSION);
      expect(orders.filter((o) => o.status === 'pending').length).toBeLessThanOrEqual(1);
      expectTooManyWithTryAgain(page);
    });

    it('overlapping clicks on Private in one session leave at most one live order', async () => {
      const ip = '10.62.2.1';
      const agent = desktop(stack.webUrl, ip);
      // The session exists (its cookie), then the person clicks Private five times at once.
      await post(agent, '/onboarding/customer-type', { customerType: 'none' }).expect(303);
      await Promise.all(Array.from({ length: PER_SESSION }, () => post(agent, '/onboarding/customer-type', { customerType: 'private' })));
      const orders = await ordersFrom(stack.sandboxUrl, ip);
      expect(orders.length).toBeGreaterThan(0);
      expect(
        orders.filter((o) => o.status === 'pending'),
        'live orders of one session',
      ).toHaveLength(1);
      // The live one is the one the page shows: Back cancels it and none is left running.
      await post(agent, '/onboarding/identification/bankid/cancel', {}).expect(303);
      expect((await ordersFrom(stack.sandboxUrl, ip)).filter((o) => o.status === 'pending')).toEqual([]);
    });
  });

  describe('two web processes on Redis', () => {
    let stack: Stack;
    let otherWeb: string;

    beforeAll(async () => {
      stack = await startRedisStack();
      otherWeb = await stack.startExtraWeb();
    });

    afterAll(async () => {
      await stack?.stopExtraWeb('SIGTERM');
      await stack?.stop();
    });

    it(`${STARTS} starts from one address spread over both processes reach BankID at most ${PER_IP} times`, async () => {
      const ip = '10.63.0.1';
      const pages = await startsFromOneAddress([stack.webUrl, otherWeb], ip, STARTS);
      const orders = await ordersFrom(stack.sandboxUrl, ip);
      expect(orders.length, `orders at BankID after ${STARTS} starts on two web processes`).toBeLessThanOrEqual(PER_IP);
      expect(orders.length).toBeGreaterThan(0);
      expectTooManyWithTryAgain(pages.at(-1)!);
    });
  });

  describe('the limiter itself (server/infra/rateLimits.ts)', () => {
    const prefix = `test-bankid-limits-${randomUUID().slice(0, 8)}`;
    let clients: RedisClientType[] = [];

    const connect = async (): Promise<RedisClientType> => {
      const client = createClient({ url: REDIS_URL }) as RedisClientType;
      client.on('error', () => undefined);
      await client.connect();
      clients.push(client);
      return client;
    };

    afterAll(async () => {
      const [first] = clients.filter((c) => c.isOpen);
      if (first) for await (const keys of first.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length) await first.del(keys);
      for (const c of clients) if (c.isOpen) await c.quit();
      clients = [];
    });

    it('two processes share one count per address in Redis; without Redis a start is refused (fail closed)', async () => {
      const limits = { perIpPerMinute: 3, perSessionPerMinute: 100, prefix };
      const [a, b] = [createBankidStartLimiter({ ...limits, redis: await connect() }), createBankidStartLimiter({ ...limits, redis: await connect() })];
      const verdicts = [];
      for (let i = 0; i < 6; i++) verdicts.push(await (i % 2 ? b : a).take({ ip: '10.64.0.1', sessionId: `s${i}` }));
      expect(verdicts).toEqual(['allowed', 'allowed', 'allowed', 'limited', 'limited', 'limited']);

      const gone = await connect();
      const unreachable = createBankidStartLimiter({ ...limits, redis: gone });
      await gone.quit();
      expect(await unreachable.take({ ip: '10.64.0.2', sessionId: 'x' })).toBe('unavailable');
    });
  });
});
