// Host headers were trusted too far. Behind a trusted proxy (TRUST_PROXY), every absolute URL the web process hands out
// must be one of our configured origins (PUBLIC_URL, or a market host of COUNTRY_HOSTS), whatever Host, X-Forwarded-Host
// or X-Forwarded-Proto a request carries: BankID's returnUrl, the OIDC redirect URI, the signing return URLs, the
// canonical link and the in-app hand-off link. A request without any Host header gets the default market's page, not a
// 500. Separate web, worker and sandbox processes on Redis, as in production.
import { connect } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { answerStepsOverHttp } from '../support/customerInformation.ts';
import { userAgents } from '../support/userAgents.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
let port: string;
let own: Set<string>;

beforeAll(async () => {
  // The market is read from the page's language: the default market (SE) speaks Swedish.
  stack = await startRedisStack({ TRUST_PROXY: 'loopback', DEFAULT_COUNTRY: 'SE', DEFAULT_LOCALE: 'market' });
  port = new URL(stack.webUrl).port;
  // PUBLIC_URL defaults to http://HOST:PORT; COUNTRY_HOSTS to the four *.localhost market hosts.
  own = new Set([stack.webUrl, ...['se', 'no', 'dk', 'fi'].map((c) => `http://${c}.localhost:${port}`)]);
});

afterAll(async () => {
  await stack?.stop();
});

/** Forged headers, as a client or a misconfigured proxy in front of the trusted one may send them. */
function forgeries(): Array<{ name: string; headers: Record<string, string>; market: 'SE' | 'DK' }> {
  return [
    // The host name before the port is a configured one; the whole value points at evil.example.
    { name: 'X-Forwarded-Host se.localhost:PORT@evil.example', headers: { 'x-forwarded-host': `se.localhost:${port}@evil.example` }, market: 'SE' },
    { name: 'X-Forwarded-Host dk.localhost:PORT@evil.example', headers: { 'x-forwarded-host': `dk.localhost:${port}@evil.example` }, market: 'DK' },
    { name: 'X-Forwarded-Host evil.example', headers: { 'x-forwarded-host': 'evil.example' }, market: 'SE' },
    { name: 'X-Forwarded-Host evil.example (DK journey)', headers: { 'x-forwarded-host': 'evil.example' }, market: 'DK' },
    { name: 'X-Forwarded-Proto javascript', headers: { 'x-forwarded-proto': 'javascript' }, market: 'SE' },
    { name: 'X-Forwarded-Proto javascript on dk.localhost', headers: { host: `dk.localhost:${port}`, 'x-forwarded-proto': 'javascript' }, market: 'DK' },
    { name: 'Host evil.example', headers: { host: 'evil.example' }, market: 'SE' },
    { name: 'Host evil.example (DK journey)', headers: { host: 'evil.example' }, market: 'DK' },
  ];
}

/** True when url starts with one of our configured origins followed by a path (no user info, no other scheme). */
function isOwn(url: string): boolean {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  return parsed !== null && own.has(parsed.origin) && url.startsWith(`${parsed.origin}/`);
}

const marketHost = (market: 'SE' | 'DK') => (market === 'SE' ? `127.0.0.1:${port}` : `dk.localhost:${port}`);

/** A browser whose posts come from our own pages (Sec-Fetch-Site), its journey started on the market's host. */
async function journeyOn(market: 'SE' | 'DK'): Promise<Agent> {
  const agent = request.agent(stack.webUrl);
  agent.set('sec-fetch-site', 'same-origin');
  await agent.get('/onboarding').set('host', marketHost(market)).expect(200);
  return agent;
}

const withHeaders = <T extends { set(name: string, value: string): T }>(req: T, headers: Record<string, string>): T => {
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  return req;
};

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");
const canonicalOf = (html: string) => decode(/<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? '');

/** The Private card's hand-off link as the URL it opens: x-safari-<scheme>://… or intent://…#Intent;scheme=<scheme>;… */
function handoffTarget(html: string): string | undefined {
  const href = /href="((?:x-safari-[a-z]+|intent):\/\/[^"]+)"/.exec(html)?.[1];
  if (!href) return undefined;
  const link = decode(href);
  const safari = /^x-safari-([a-z]+):\/\/(.*)$/.exec(link);
  if (safari) return `${safari[1]}://${safari[2]}`;
  const intent = /^intent:\/\/([^#]*)#Intent;scheme=([^;]+);/.exec(link);
  return intent ? `${intent[2]}://${intent[1]}` : link;
}

describe('host headers trusted too far', () => {
  it('the canonical link and the in-app hand-off link use a configured origin whatever the headers say', async () => {
    const bad: string[] = [];
    let checked = 0;
    for (const f of forgeries()) {
      for (const path of ['/onboarding', '/onboarding/cancel']) {
        const page = await withHeaders(request(stack.webUrl).get(path), f.headers);
        expect(page.status, `${f.name} ${path}`).toBe(200);
        const canonical = canonicalOf(page.text);
        checked++;
        if (!isOwn(canonical)) bad.push(`${f.name} ${path}: canonical ${canonical}`);
      }
      for (const ua of [userAgents.iphoneInstagram, userAgents.androidInstagram]) {
        const page = await withHeaders(request(stack.webUrl).get('/onboarding?tduid=T1').set('user-agent', ua), f.headers).expect(200);
        const target = handoffTarget(page.text);
        expect(target, `${f.name}: the Private card is a hand-off link in an in-app browser`).toBeDefined();
        checked++;
        if (!isOwn(target!)) bad.push(`${f.name} (${ua.includes('Android') ? 'Android' : 'iOS'}): hand-off to ${target}`);
      }
    }
    expect(checked).toBe(forgeries().length * 4);
    expect(bad).toEqual([]);
  });

  it("BankID's returnUrl (same-device order) uses a configured origin", async () => {
    const bad: string[] = [];
    let withReturnUrl = 0;
    for (const f of forgeries().filter((x) => x.market === 'SE')) {
      const allOrders = async () =>
        ((await request(stack.sandboxUrl).get('/sandbox/bankid/all-orders').expect(200)).body as Array<{ orderRef: string }>).map((o) => o.orderRef);
      const before = new Set(await allOrders());
      const agent = await journeyOn('SE');
      await agent.post('/onboarding/customer-type').type('form').send({ customerType: 'private' }).expect(303);
      // "This device": the order is started with the autostart token and a returnUrl.
      await withHeaders(agent.post('/onboarding/identification/bankid/mode').type('form').send({ mode: 'SAME_DEVICE' }), f.headers).expect(303);
      await withHeaders(agent.get('/onboarding'), f.headers).expect(200);
      for (const ref of (await allOrders()).filter((r) => !before.has(r))) {
        const order = (await request(stack.sandboxUrl).get(`/sandbox/bankid/orders/${ref}`).expect(200)).body as { returnUrl: string | null };
        if (order.returnUrl === null) continue;
        withReturnUrl++;
        if (!isOwn(order.returnUrl)) bad.push(`${f.name}: returnUrl ${order.returnUrl}`);
      }
    }
    expect(withReturnUrl, 'same-device orders with a returnUrl').toBeGreaterThanOrEqual(forgeries().filter((x) => x.market === 'SE').length);
    expect(bad).toEqual([]);
  });

  it('the OIDC redirect URI (DK, NO, FI identification broker) uses a configured origin', async () => {
    const bad: string[] = [];
    const dk = forgeries().filter((x) => x.market === 'DK');
    for (const f of dk) {
      const agent = await journeyOn('DK');
      await agent.post('/onboarding/customer-type').set('host', marketHost('DK')).type('form').send({ customerType: 'private' }).expect(303);
      const start = await withHeaders(agent.post('/onboarding/identification/oidc').type('form').send({}), f.headers).expect(303);
      const location = new URL(start.headers.location as string);
      expect(location.origin + location.pathname, `${f.name}: to the broker`).toBe(`${stack.sandboxUrl}/oidc/auth`);
      const redirectUri = location.searchParams.get('redirect_uri') ?? '';
      if (!isOwn(redirectUri)) bad.push(`${f.name}: redirect_uri ${redirectUri}`);
    }
    expect(bad).toEqual([]);
  });

  it('the signing return URLs (complete, cancel) use a configured origin', async () => {
    const agent = request.agent(stack.webUrl);
    agent.set('sec-fetch-site', 'same-origin');
    const { page: ci } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    await answerStepsOverHttp(
      async () => (await agent.get(ci).expect(200)).text,
      async (body) => void (await agent.post(`${ci}/step`).type('form').send(body).expect(303)),
    );
    const bad: string[] = [];
    const signings: string[] = [];
    for (const f of forgeries()) {
      const toSigning = await withHeaders(agent.post(`${ci}/step`).type('form').send('step=MILESTONE_THREE_STEP&screen=milestone'), f.headers).expect(303);
      const signing = new URL(toSigning.headers.location as string);
      expect(signing.origin, `${f.name}: to the signing service`).toBe(stack.sandboxUrl);
      signings.push(signing.pathname);
      const cancelled = await request(stack.sandboxUrl).post(`${signing.pathname}/cancel`).expect(303);
      if (!isOwn(cancelled.headers.location as string)) bad.push(`${f.name}: cancel_url ${cancelled.headers.location as string}`);
    }
    // Signing last: the prospect is signed once, each signature session answers its own complete_url.
    for (const [i, path] of signings.entries()) {
      const signed = await request(stack.sandboxUrl).post(`${path}/sign`).expect(303);
      if (!isOwn(signed.headers.location as string)) bad.push(`${forgeries()[i]!.name}: complete_url ${signed.headers.location as string}`);
    }
    expect(signings).toHaveLength(forgeries().length);
    expect(bad).toEqual([]);
  });

  it('a request without a Host header (HTTP/1.0, a raw socket) gets the default market, not a 500', async () => {
    const raw = (path: string) =>
      new Promise<string>((resolve, reject) => {
        // Written, not ended: the server closes the connection after an HTTP/1.0 answer.
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.0\r\nAccept: text/html\r\n\r\n`));
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (answer += chunk));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const results: string[] = [];
    for (const path of ['/', '/onboarding', '/onboarding/cancel', '/onboarding/error', '/onboarding/case-status', '/onboarding/nightly-downtime-status']) {
      const answer = await raw(path);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1]);
      const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      results.push(`${path} ${status}${status === 200 ? ` ${/<html lang="([^"]+)"/.exec(body)?.[1]} ${canonicalOf(body)}` : ''}`);
    }
    expect(results).toEqual([
      '/ 302',
      `/onboarding 200 sv-SE ${stack.webUrl}/onboarding`,
      `/onboarding/cancel 200 sv-SE ${stack.webUrl}/onboarding`,
      `/onboarding/error 200 sv-SE ${stack.webUrl}/onboarding`,
      // The status page shows the identified person's own tasks: anyone else goes to Onboarding.
      '/onboarding/case-status 303',
      `/onboarding/nightly-downtime-status 200 sv-SE ${stack.webUrl}/onboarding`,
    ]);
  });
});
