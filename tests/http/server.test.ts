// HTTP tests of the web server against a real embedded stack (sandbox + web + worker on loopback):
// security headers, the session cookie, health, bad input, authorization, session fixation, routing
// per sandbox persona and the creation event stream. Everything goes over HTTP, as a browser would.
import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Running } from '../../server/main.ts';
import { freePort, REDIS_URL, startEmbeddedStack, testTimings, type Stack } from '../support/stack.ts';
import { openStream, sseFrames } from '../support/sse.ts';
import { answerStepsOverHttp } from '../support/customerInformation.ts';

type Agent = ReturnType<typeof request.agent>;
type Res = Awaited<ReturnType<Agent['get']>>;

interface Persona {
  nationalId: string;
  country: string;
  name: string;
  scenario: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SID = 'onb.sid';
/** With secure cookies (production) the session cookie is `__Host-` prefixed. */
const SECURE_SID = '__Host-onb.sid';

let stack: Stack;
let personas: Persona[];
const extraApps: Running[] = [];

beforeAll(async () => {
  stack = await startEmbeddedStack();
  personas = (await request(stack.sandboxUrl).get('/sandbox/personas').expect(200)).body as Persona[];
});

afterAll(async () => {
  for (const app of extraApps.splice(0)) await app.close();
  await stack?.stop();
});

// --- helpers ---------------------------------------------------------------------------------

/** A second web process (no worker) with its own configuration, closed after the file. */
async function startWeb(env: Record<string, string>): Promise<string> {
  const running = await start(
    {
      NODE_ENV: 'development',
      PORT: '0',
      BANKID_API_URL: stack.sandboxUrl,
      BROKERAGE_API_URL: stack.sandboxUrl,
      SIGNING_ORIGINS: stack.sandboxUrl,
      SUCCESS_URL: `${stack.sandboxUrl}/sandbox/overview`,
      ...testTimings(),
      ...env,
    },
    'web',
  );
  extraApps.push(running);
  return running.url!;
}

const setCookies = (res: { headers: Record<string, unknown> }): string[] => {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
};
const sessionCookie = (res: { headers: Record<string, unknown> }, name = SID): string | undefined => setCookies(res).find((c) => c.startsWith(`${name}=`));
const cookieValue = (setCookie: string): string => setCookie.slice(SID.length + 1).split(';')[0]!;
const cookieAttr = (setCookie: string, name: string): string | undefined =>
  setCookie
    .split(';')
    .slice(1)
    .map((p) => p.trim())
    .find((p) => p.toLowerCase().startsWith(name.toLowerCase()));

/** The session cookie the agent currently holds (what it would send to the web process). */
function sidOf(agent: Agent): string | undefined {
  const access = { domain: '127.0.0.1', path: '/', secure: false, script: false } as Parameters<Agent['jar']['getCookie']>[1];
  return agent.jar.getCookie(SID, access)?.value;
}

const entities: Record<string, string> = { '&#x27;': "'", '&#39;': "'", '&quot;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>' };
const decode = (s: string) => s.replace(/&#x27;|&#39;|&quot;|&amp;|&lt;|&gt;/g, (e) => entities[e]!);
/** The page's h1 text, tags stripped. */
function h1(html: string): string | undefined {
  const m = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  return m ? decode(m[1]!.replace(/<[^>]+>/g, '')).trim() : undefined;
}

function cspOf(res: Res): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(header, 'content-security-policy header').toBeTypeOf('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function nonceOf(res: Res): string {
  const scriptSrc = cspOf(res).get('script-src') ?? [];
  const nonces = scriptSrc.filter((v) => v.startsWith("'nonce-"));
  expect(nonces).toHaveLength(1);
  return nonces[0]!.slice("'nonce-".length, -1);
}

function personaFor(scenario: string, country = 'SE'): Persona {
  const p = personas.find((x) => x.scenario === scenario && x.country === country);
  if (!p) throw new Error(`no ${country} persona for ${scenario}`);
  return p;
}

async function waitingOrderRefs(): Promise<string[]> {
  const res = await request(stack.sandboxUrl).get('/sandbox/bankid/orders').expect(200);
  return (res.body as Array<{ orderRef: string }>).map((o) => o.orderRef);
}

/** Chooses Private (the click starts the QR order) and opens the BankID QR page; answers that order. */
async function openQrPage(agent: Agent): Promise<{ page: Res; orderRef: string }> {
  const known = new Set(await waitingOrderRefs());
  await agent
    .post('/onboarding/customer-type')
    .set('sec-fetch-site', 'same-origin')
    .type('form')
    .send({ customerType: 'private' })
    .expect(303)
    .expect('location', '/onboarding');
  const page = await agent.get('/onboarding').expect(200);
  expect(h1(page.text)).toBe('Open account with BankID');
  const created = (await waitingOrderRefs()).filter((ref) => !known.has(ref));
  expect(created).toHaveLength(1);
  return { page, orderRef: created[0]! };
}

interface Identified {
  persona: Persona;
  sidBefore: string;
  sidAfter: string;
  /** The Set-Cookie of the status answer that reported completion. */
  completionCookie: string | undefined;
}

/** BankID identification over HTTP: the phone (sandbox JSON helper) identifies, the page's status poll completes. */
async function identify(agent: Agent, scenario: string): Promise<Identified> {
  const persona = personaFor(scenario);
  const { orderRef } = await openQrPage(agent);
  const sidBefore = sidOf(agent);
  expect(sidBefore).toBeTruthy();
  await request(stack.sandboxUrl).post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: persona.nationalId }).expect(200);
  const status = await agent.get('/onboarding/identification/bankid/status').expect(200).expect('content-type', /json/);
  expect(status.body).toMatchObject({ state: 'complete', next: '/onboarding/routing' });
  return { persona, sidBefore: sidBefore!, sidAfter: sidOf(agent)!, completionCookie: sessionCookie(status) };
}

/** Identifies as the scenario's persona and runs routing; answers where routing sends the browser. */
async function identifyAndRoute(agent: Agent, scenario: string): Promise<string> {
  await identify(agent, scenario);
  const routed = await agent.get('/onboarding/routing').expect(303);
  return routed.headers.location as string;
}

const prospectIdIn = (location: string): string => {
  const m = /^\/onboarding\/customer-information\/([^/?]+)/.exec(location);
  if (!m) throw new Error(`not a customer-information location: ${location}`);
  return decodeURIComponent(m[1]!);
};

/** Error pages must never show internals. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\n\s+at |node_modules|Error:|TypeError|ZodError/);
}

async function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(u.port || 6379), u.hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const redisUp = await reachable(REDIS_URL);

// --- 1. security headers ------------------------------------------------------------------------

describe('security headers', () => {
  it('sends a strict CSP: scripts from self with a nonce, never unsafe-inline; no x-powered-by, no HSTS on plain http', async () => {
    const res = await request(stack.webUrl).get('/onboarding').expect(200);
    const csp = cspOf(res);
    const scriptSrc = csp.get('script-src')!;
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc.some((v) => /^'nonce-[A-Za-z0-9+/]{22}==?'$/.test(v))).toBe(true);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    // The signing service must stay a permitted form target (Chrome applies form-action to post redirects).
    const formAction = csp.get('form-action')!;
    expect(formAction).toContain("'self'");
    expect(formAction).toContain(new URL(stack.sandboxUrl).origin);
    expect(formAction.filter((v) => v === '*' || /^[a-z]+:$/.test(v))).toEqual([]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });

  it('a page without islands (the start page) ships no script at all', async () => {
    const res = await request(stack.webUrl).get('/onboarding').expect(200);
    expect(h1(res.text)).toBe("Before we get started. Who's the account for?");
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).not.toContain('modulepreload');
  });

  it('uses a fresh nonce per request, and the island page puts exactly that nonce on its scripts', async () => {
    const agent = request.agent(stack.webUrl);
    const { page: first } = await openQrPage(agent);
    const second = await agent.get('/onboarding').expect(200);
    const nonces = [first, second].map(nonceOf);
    expect(nonces[0]).not.toBe(nonces[1]);

    for (const [i, page] of [first, second].entries()) {
      const scripts = [...page.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) {
        expect(tag).toMatch(/\bsrc="\/build\/bankidQr-[^"]+\.js"/);
        expect(/\bnonce="([^"]*)"/.exec(tag)?.[1]).toBe(nonces[i]);
      }
      for (const tag of [...page.text.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/g)].map((m) => m[0])) {
        expect(/\bnonce="([^"]*)"/.exec(tag)?.[1]).toBe(nonces[i]);
      }
      // No inline script body: every script is an external file.
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
    // The script the page names is served.
    const src = /<script\b[^>]*\bsrc="([^"]+)"/.exec(first.text)![1]!;
    await request(stack.webUrl)
      .get(src)
      .expect(200)
      .expect('content-type', /javascript/);
  });

  it('echoes a well-formed x-request-id and replaces missing or malformed ones with a UUID', async () => {
    const sent = 'req-1234abcd_XYZ';
    const echoed = await request(stack.webUrl).get('/onboarding').set('x-request-id', sent).expect(200);
    expect(echoed.headers['x-request-id']).toBe(sent);

    const generated: string[] = [];
    for (const bad of [undefined, 'short', 'has spaces in it', 'semi;colon;value', 'x'.repeat(65), '../../etc/passwd']) {
      const req = request(stack.webUrl).get('/healthz');
      const res = await (bad === undefined ? req : req.set('x-request-id', bad)).expect(200);
      const id = res.headers['x-request-id'] as string;
      expect(id, `for ${String(bad)}`).toMatch(UUID);
      generated.push(id);
    }
    expect(new Set(generated).size).toBe(generated.length);
  });

  it('with COOKIE_SECURE=true tells browsers to stay on https (HSTS, upgrade-insecure-requests)', async () => {
    const url = await startWeb({ COOKIE_SECURE: 'true' });
    const res = await request(url).get('/onboarding').expect(200);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{6,}/);
    expect(cspOf(res).has('upgrade-insecure-requests')).toBe(true);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('language', () => {
  it("speaks each market's language until the visitor picks another (DEFAULT_LOCALE=market)", async () => {
    const url = await startWeb({ DEFAULT_LOCALE: 'market' });
    const port = new URL(url).port;
    const danish = await request(url).get('/onboarding').set('host', `dk.localhost:${port}`).expect(200);
    expect(danish.text).toMatch(/<html lang="da-DK"/);
    const swedish = await request(url).get('/onboarding').expect(200);
    expect(swedish.text).toMatch(/<html lang="sv-SE"/);
    const english = await request(url).get('/onboarding?lang=en').expect(200);
    expect(english.text).toMatch(/<html lang="en"/);
  });
});

describe('own origin', () => {
  it('sends the browser back to the market host it is on (its cookie is per host), never to a forged Host', async () => {
    const port = new URL(stack.webUrl).port;
    const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
    const danish = await request(stack.webUrl).get('/onboarding').set('host', `dk.localhost:${port}`).expect(200);
    expect(canonical(danish.text)).toBe(`http://dk.localhost:${port}/onboarding`);
    const forged = await request(stack.webUrl).get('/onboarding').set('host', 'attacker.example').expect(200);
    expect(canonical(forged.text)).toBe(`${stack.webUrl}/onboarding`);
  });
});

// --- 2. session cookie ----------------------------------------------------------------------------

describe('session cookie', () => {
  // No page view stores a session (entry values travel in the visit cookie); the person's first post does.
  const startSession = (test: request.Test) => test.set('sec-fetch-site', 'same-origin').type('form').send({ customerType: 'corporate' }).expect(303);

  it('is HttpOnly, SameSite=Lax, not Secure on plain http, and lives for the browser session only', async () => {
    const res = await startSession(request(stack.webUrl).post('/onboarding/customer-type'));
    const cookie = sessionCookie(res);
    expect(cookie, 'session cookie').toBeDefined();
    expect(cookieAttr(cookie!, 'HttpOnly')).toBe('HttpOnly');
    expect(cookieAttr(cookie!, 'SameSite')).toBe('SameSite=Lax');
    expect(cookieAttr(cookie!, 'Path')).toBe('Path=/');
    expect(cookieAttr(cookie!, 'Secure')).toBeUndefined();
    // No lifetime of its own: the browser drops it when it closes; the server ends it after 30 idle minutes.
    expect(cookieAttr(cookie!, 'Expires')).toBeUndefined();
    expect(cookieAttr(cookie!, 'Max-Age')).toBeUndefined();
  });

  it('is rolling: a later request re-issues the same session, still without an expiry of its own', async () => {
    const agent = request.agent(stack.webUrl);
    const first = sessionCookie(await startSession(agent.post('/onboarding/customer-type')))!;
    // A page that does not change the session still extends it (on the server: the store's idle TTL).
    const later = sessionCookie(await agent.get('/onboarding/cancel').expect(200));
    expect(later, 're-issued cookie').toBeDefined();
    expect(cookieValue(later!)).toBe(cookieValue(first));
    expect(cookieAttr(later!, 'Expires')).toBeUndefined();
  });

  it('is not set by the health endpoints', async () => {
    const res = await request(stack.webUrl).get('/healthz').expect(200);
    expect(sessionCookie(res)).toBeUndefined();
  });

  describe.skipIf(!redisUp)('in production mode (Redis sessions, COOKIE_SECURE defaulting to true)', () => {
    const prefix = `test-srv-${randomUUID().slice(0, 8)}`;
    let url: string;

    beforeAll(async () => {
      const port = await freePort();
      url = await startWeb({
        NODE_ENV: 'production',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        REDIS_URL,
        REDIS_PREFIX: prefix,
        SESSION_SECRET: randomUUID() + randomUUID(),
        JOB_SECRET_KEY: 'cd'.repeat(32),
      });
    });

    afterAll(async () => {
      const i = extraApps.findIndex((a) => a.url === url);
      if (i >= 0) await extraApps.splice(i, 1)[0]!.close();
      const client = createClient({ url: REDIS_URL });
      await client.connect();
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length) await client.del(keys);
      await client.quit();
    });

    it('behind the TLS-terminating router the cookie is __Host- prefixed, Secure, HttpOnly, SameSite=Lax, Path=/', async () => {
      const res = await startSession(request(url).post('/onboarding/customer-type').set('x-forwarded-proto', 'https'));
      const cookie = sessionCookie(res, SECURE_SID);
      expect(cookie, 'session cookie').toBeDefined();
      expect(cookieAttr(cookie!, 'Path')).toBe('Path=/');
      expect(cookieAttr(cookie!, 'Domain')).toBeUndefined();
      expect(cookieAttr(cookie!, 'Expires')).toBeUndefined();
      expect(cookieAttr(cookie!, 'Secure')).toBe('Secure');
      expect(cookieAttr(cookie!, 'HttpOnly')).toBe('HttpOnly');
      expect(cookieAttr(cookie!, 'SameSite')).toBe('SameSite=Lax');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      // The visit cookie (the entry values kept before identification) has the same flags.
      const entry = await request(url).get('/onboarding?lang=en').set('x-forwarded-proto', 'https').expect(200);
      expect(sessionCookie(entry, SECURE_SID), 'a session cookie for a page view').toBeUndefined();
      const visit = sessionCookie(entry, '__Host-onb.visit');
      expect(visit, 'visit cookie').toBeDefined();
      for (const attr of ['Path=/', 'Secure', 'HttpOnly', 'SameSite=Lax']) expect(cookieAttr(visit!, attr.split('=')[0]!)).toBe(attr);
      expect(cookieAttr(visit!, 'Domain')).toBeUndefined();
      expect(cookieAttr(visit!, 'Expires')).toBeUndefined();
    });

    it('never hands a Secure cookie out over a plain http connection', async () => {
      const res = await startSession(request(url).post('/onboarding/customer-type'));
      expect(sessionCookie(res, SECURE_SID)).toBeUndefined();
      const entry = await request(url).get('/onboarding?lang=en').expect(200);
      expect(sessionCookie(entry, '__Host-onb.visit')).toBeUndefined();
    });
  });

  // Secure cookies follow the app's TRUST_PROXY: behind a trusted TLS proxy the journey keeps its session.
  it('with COOKIE_SECURE=true behind a trusted loopback proxy (x-forwarded-proto: https) issues a Secure cookie', async () => {
    const url = await startWeb({ COOKIE_SECURE: 'true' });
    const res = await startSession(request(url).post('/onboarding/customer-type').set('x-forwarded-proto', 'https'));
    const cookie = sessionCookie(res, SECURE_SID);
    expect(cookie, 'session cookie').toBeDefined();
    expect(cookieAttr(cookie!, 'Secure')).toBe('Secure');
  });
});

// --- 3. health ---------------------------------------------------------------------------------

describe('health', () => {
  it('/healthz answers 200 and /readyz 200 while the upstreams are up', async () => {
    const health = await request(stack.webUrl).get('/healthz').expect(200);
    expect(health.body).toEqual({ ok: true });
    expect(health.headers['cache-control']).toBe('no-store');
    const ready = await request(stack.webUrl).get('/readyz').expect(200).expect('content-type', /json/);
    expect(ready.body).toEqual({ ok: true, checks: { redis: true, bankid: true, brokerage: true } });
  });

  it.each([
    { down: 'bankid', env: 'BANKID_API_URL' },
    { down: 'brokerage', env: 'BROKERAGE_API_URL' },
  ])('/readyz answers 503 naming $down when that upstream is unreachable; /healthz stays 200', async ({ down, env }) => {
    const closed = await freePort();
    const url = await startWeb({ [env]: `http://127.0.0.1:${closed}` });
    await request(url).get('/healthz').expect(200);
    const ready = await request(url).get('/readyz').expect(503).expect('content-type', /json/);
    expect(ready.body).toEqual({
      ok: false,
      checks: { redis: true, bankid: down !== 'bankid', brokerage: down !== 'brokerage' },
    });
  });
});

// --- 4. bad input ------------------------------------------------------------------------------

describe('bad input never gives a 500', () => {
  const customerTypeTitle = "Before we get started. Who's the account for?";

  // Bodies the form parser accepts but the schema refuses: the form redirects (303) and nothing changes.
  const refusedBodies: Array<{ name: string; type: string; body: string }> = [
    { name: 'missing field', type: 'application/x-www-form-urlencoded', body: '' },
    { name: 'unknown value', type: 'application/x-www-form-urlencoded', body: 'customerType=admin' },
    { name: 'repeated field', type: 'application/x-www-form-urlencoded', body: 'customerType=private&customerType=corporate' },
    { name: 'bracket syntax', type: 'application/x-www-form-urlencoded', body: 'customerType[]=private&customerType[x]=1' },
    { name: 'huge value', type: 'application/x-www-form-urlencoded', body: `customerType=${'p'.repeat(15_000)}` },
    { name: 'binary garbage', type: 'application/x-www-form-urlencoded', body: '%ff%fe%00customerType=%E0%A4%A' },
    { name: 'JSON object instead of string', type: 'application/json', body: '{"customerType":{"$ne":null}}' },
    { name: 'JSON array', type: 'application/json', body: '["private"]' },
    { name: 'JSON prototype pollution', type: 'application/json', body: '{"__proto__":{"customerType":"private"}}' },
    { name: 'text/plain', type: 'text/plain', body: 'customerType=private' },
    {
      name: 'multipart',
      type: 'multipart/form-data; boundary=x',
      body: '--x\r\nContent-Disposition: form-data; name="customerType"\r\n\r\nprivate\r\n--x--\r\n',
    },
  ];

  it.each(refusedBodies)('customer-type form, $name: 303 back to the start page, type unchanged', async ({ type, body }) => {
    const agent = request.agent(stack.webUrl);
    await agent.get('/onboarding').expect(200);
    let req = agent.post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin');
    if (type) req = req.set('content-type', type);
    const res = await req.send(body);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/onboarding');
    expect(h1((await agent.get('/onboarding').expect(200)).text)).toBe(customerTypeTitle);
  });

  it('customer-type form without any content type: 303, type unchanged', async () => {
    const agent = request.agent(stack.webUrl);
    await agent.get('/onboarding').expect(200);
    // fetch sends a byte body without a content type (supertest would add one).
    const res = await fetch(`${stack.webUrl}/onboarding/customer-type`, {
      method: 'POST',
      body: new TextEncoder().encode('customerType=private'),
      headers: { cookie: `${SID}=${sidOf(agent)}`, 'sec-fetch-site': 'same-origin' },
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/onboarding');
    expect(h1((await agent.get('/onboarding').expect(200)).text)).toBe(customerTypeTitle);
  });

  // Bodies the parser itself rejects: a 4xx error page for browsers, 4xx JSON for API callers.
  const rejectedBodies: Array<{ name: string; headers: Record<string, string>; body: string; status: number }> = [
    { name: 'malformed JSON', headers: { 'content-type': 'application/json' }, body: '{"customerType": "private"', status: 400 },
    {
      name: 'oversized form (25 kB)',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `customerType=private&pad=${'x'.repeat(25_000)}`,
      status: 413,
    },
    {
      name: 'oversized JSON (25 kB)',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerType: 'private', pad: 'x'.repeat(25_000) }),
      status: 413,
    },
    {
      name: 'too many parameters',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Array.from({ length: 1200 }, (_, i) => `p${i}=1`).join('&'),
      status: 413,
    },
    {
      name: 'unsupported charset',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=koi8-r' },
      body: 'customerType=private',
      status: 415,
    },
    {
      name: 'gzip that is not gzip',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      body: 'customerType=private',
      status: 400,
    },
    {
      name: 'unknown content encoding',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'zstd-ish' },
      body: 'customerType=private',
      status: 415,
    },
  ];

  it.each(rejectedBodies)('customer-type form, $name: $status page for browsers, $status JSON for API callers', async ({ headers, body, status }) => {
    const page = await request(stack.webUrl)
      .post('/onboarding/customer-type')
      .set('sec-fetch-site', 'same-origin')
      .set(headers)
      .set('accept', 'text/html')
      .send(body);
    expect(page.status).toBe(status);
    expect(page.headers['content-type']).toMatch(/html/);
    expect(h1(page.text)).toBe('Something went wrong');
    expectNoInternals(page.text);

    const api = await request(stack.webUrl)
      .post('/onboarding/customer-type')
      .set('sec-fetch-site', 'same-origin')
      .set(headers)
      .set('accept', 'application/json')
      .send(body);
    expect(api.status).toBe(status);
    expect(api.body).toEqual({ error: 'Bad request' });
  });

  it.each([
    '/onboarding?lang=en&lang=sv',
    '/onboarding?lang=' + 'x'.repeat(5000),
    '/onboarding?webview=maybe&webview=true',
    '/onboarding?lang[$gt]=&webview[]=true',
    '/onboarding?%E0%A4%A=1&lang=%ZZ',
    '/onboarding/nightly-downtime-status?justCompletedSignup=true&justCompletedSignup=true',
    '/onboarding/nightly-downtime-status?justCompletedSignup[]=true&webview=%00',
    '/onboarding/cancel?x=1&x=2&x=3',
  ])('query garbage on a page, %s: the page renders, queries ignored', async (path) => {
    const res = await request(stack.webUrl).get(path).expect(200);
    expect(res.headers['content-type']).toMatch(/html/);
    expect(res.text).toContain('<html lang="en"');
    if (path.includes('nightly')) expect(h1(res.text)).toBe('See you tomorrow!');
  });

  it('a repeated webview or lang parameter does not switch the journey (nothing is half-applied)', async () => {
    const agent = request.agent(stack.webUrl);
    await agent.get('/onboarding?lang=sv&lang=en&webview=true&webview=true').expect(200);
    const page = await agent.get('/onboarding').expect(200);
    expect(page.text).toContain('<html lang="en"');
    // Not in webview mode: the close X goes to /, not to the in-app close route.
    expect(page.text).toMatch(/class="site-header__close" href="\/"/);
  });

  it('malformed percent-encoding in a route parameter: 400 page, or 400 JSON on API-style paths', async () => {
    const page = await request(stack.webUrl).get('/onboarding/customer-information/%E0%A4%A').set('accept', 'text/html');
    expect(page.status).toBe(400);
    expectNoInternals(page.text);
    const events = await request(stack.webUrl).get('/onboarding/customer-creation/%E0%A4%A/events').set('accept', 'text/event-stream');
    expect(events.status).toBe(400);
    expect(events.body).toEqual({ error: 'Bad request' });
  });

  it('API-style routes answer 4xx JSON: status poll without an identification, unknown POST', async () => {
    const status = await request(stack.webUrl).get('/onboarding/identification/bankid/status').expect(409).expect('content-type', /json/);
    expect(status.body).toEqual({ error: 'No identification in progress' });
    const unknown = await request(stack.webUrl)
      .post('/onboarding/no-such-action')
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send('a=1&a=2')
      .expect(404)
      .expect('content-type', /json/);
    expect(unknown.body).toEqual({ error: 'Not found' });
  });

  it('BankID retry and cancel with garbage bodies redirect to the start page', async () => {
    for (const path of ['/onboarding/identification/bankid/retry', '/onboarding/identification/bankid/cancel']) {
      const res = await request(stack.webUrl)
        .post(path)
        .set('sec-fetch-site', 'same-origin')
        .set('content-type', 'application/json')
        .send('{"orderRef":{"$gt":""},"x":[1,2]}');
      expect(res.status, path).toBe(303);
      expect(res.headers.location).toBe('/onboarding');
    }
  });
});

// --- 5.–6., 8. an identified prospect: step form input, authorization, session fixation, SSE ---------

describe('with an identified prospect', () => {
  let owner: Agent;
  let prospectId: string;
  let identified: Identified;
  const ci = () => `/onboarding/customer-information/${prospectId}`;

  beforeAll(async () => {
    owner = request.agent(stack.webUrl);
    identified = await identify(owner, 'onboarding');
    const routed = await owner.get('/onboarding/routing').expect(303);
    prospectId = prospectIdIn(routed.headers.location as string);
    expect(prospectId).toMatch(UUID);
  });

  it('regenerates the session id on successful identification; the old id no longer reaches the journey', async () => {
    expect(identified.sidAfter).not.toBe(identified.sidBefore);
    expect(identified.completionCookie, 'Set-Cookie on the completing status poll').toBeDefined();
    expect(cookieValue(identified.completionCookie!)).toBe(identified.sidAfter);

    // Someone who planted or saw the pre-login cookie gets nothing.
    const old = `${SID}=${identified.sidBefore}`;
    await request(stack.webUrl).get('/onboarding/routing').set('cookie', old).expect(303).expect('location', '/onboarding');
    await request(stack.webUrl).get(ci()).set('cookie', old).expect(303).expect('location', '/onboarding');
    // The new one does.
    const page = await request(stack.webUrl).get(ci()).set('cookie', `${SID}=${identified.sidAfter}`).expect(200);
    expect(h1(page.text)).toBe("Let's start your savings journey!");
  });

  describe('customer-information step form with bad input', () => {
    const milestoneOne = "Let's start your savings journey!";

    it.each([
      { name: 'missing step', type: 'form', body: '' },
      { name: 'unknown step', type: 'form', body: 'step=KYC_STEP' },
      { name: 'another step than the current one', type: 'form', body: 'step=MILESTONE_THREE_STEP&screen=milestone' },
      { name: 'repeated step', type: 'form', body: 'step=MILESTONE_ONE_STEP&step=MILESTONE_ONE_STEP&screen=milestone' },
      { name: 'garbage', type: 'form', body: 'step=%00%ff<script>&accounts[]=x' },
      { name: 'accounts as an object', type: 'json', body: '{"step":"MILESTONE_ONE_STEP","accounts":{"a":1}}' },
      { name: 'step as a number', type: 'json', body: '{"step":1}' },
      { name: 'text/plain', type: 'text', body: 'step=MILESTONE_ONE_STEP&screen=milestone' },
    ])('$name: 303 back to the step, which does not advance', async ({ type, body }) => {
      const res = await owner.post(`${ci()}/step`).set('sec-fetch-site', 'same-origin').type(type).send(body);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(ci());
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe(milestoneOne);
    });

    it.each([
      { name: 'malformed JSON', type: 'json', body: '{"step":', status: 400 },
      { name: 'oversized', type: 'form', body: `step=MILESTONE_ONE_STEP&screen=milestone&accounts=${'x'.repeat(25_000)}`, status: 413 },
    ])('$name: a $status error page, the step unchanged', async ({ type, body, status }) => {
      const res = await owner.post(`${ci()}/step`).set('sec-fetch-site', 'same-origin').type(type).send(body);
      expect(res.status).toBe(status);
      expectNoInternals(res.text);
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe(milestoneOne);
    });

    it('the account picker re-renders (400) with a message for accounts that are not offered, keeping the step', async () => {
      await owner
        .post(`${ci()}/step`)
        .set('sec-fetch-site', 'same-origin')
        .type('form')
        .send('step=MILESTONE_ONE_STEP&screen=milestone')
        .expect(303)
        .expect('location', ci());
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe('Choose your starting accounts');
      for (const body of [
        'step=ACCOUNT_PICKER_STEP&screen=accounts&accounts=ASK_NO',
        `step=ACCOUNT_PICKER_STEP&screen=accounts&accounts=${'Z'.repeat(5000)}&accounts=DEP_SE`,
      ]) {
        const res = await owner.post(`${ci()}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(400);
        expect(h1(res.text)).toBe('Choose your starting accounts');
        expect(res.text).toMatch(/role="alert"[^>]*>You must choose 1 option/);
      }
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe('Choose your starting accounts');
    });
  });

  describe("authorization: someone else's prospect id", () => {
    let other: Agent;
    let otherProspect: string;

    beforeAll(async () => {
      other = request.agent(stack.webUrl);
      otherProspect = prospectIdIn(await identifyAndRoute(other, 'onboardingIntent'));
      expect(otherProspect).not.toBe(prospectId);
    });

    const attempts: Array<{ method: 'get' | 'post'; path: (p: string) => string; location: string }> = [
      { method: 'get', path: (p) => `/onboarding/customer-information/${p}`, location: '/onboarding' },
      { method: 'post', path: (p) => `/onboarding/customer-information/${p}/step`, location: '/onboarding' },
      { method: 'post', path: (p) => `/onboarding/customer-information/${p}/back`, location: '/onboarding' },
      { method: 'get', path: (p) => `/onboarding/customer-information/${p}/exit`, location: '/onboarding' },
      { method: 'get', path: (p) => `/onboarding/customer-creation/${p}`, location: '/onboarding' },
      { method: 'post', path: (p) => `/onboarding/customer-creation/${p}/retry`, location: '/onboarding' },
      { method: 'get', path: (p) => `/onboarding/customer-creation/${p}/continue`, location: '/' },
    ];

    it.each(['an identified other user', 'an anonymous visitor'])('%s is redirected away from every page of the prospect', async (who) => {
      const intruder = who === 'an anonymous visitor' ? request.agent(stack.webUrl) : other;
      for (const a of attempts) {
        const path = a.path(prospectId);
        const req =
          a.method === 'get'
            ? intruder.get(path)
            : intruder.post(path).set('sec-fetch-site', 'same-origin').type('form').send('step=ACCOUNT_PICKER_STEP&screen=accounts&accounts=DEP_SE');
        const res = await req;
        expect(res.status, `${a.method} ${path}`).toBe(303);
        expect(res.headers.location, `${a.method} ${path}`).toBe(a.location);
        expect(res.text).not.toContain('Choose your starting accounts');
      }
      // The SSE stream is an API: 403 JSON, no stream.
      // (A deadline, so that a stream wrongly opened fails the test instead of hanging it.)
      const events = await intruder
        .get(`/onboarding/customer-creation/${prospectId}/events`)
        .set('accept', 'text/event-stream')
        .timeout({ deadline: 3000 })
        .expect(403);
      expect(events.headers['content-type']).toMatch(/json/);
      expect(events.body).toEqual({ error: 'forbidden' });
      // The owner's journey is untouched (still at the account picker, nothing submitted for them).
      expect(h1((await owner.get(ci()).expect(200)).text)).toBe('Choose your starting accounts');
    });

    it('the other user still reaches their own prospect afterwards', async () => {
      const res = await other.get(`/onboarding/customer-information/${otherProspect}`).expect(200);
      expect(h1(res.text)).toBe("Let's start your savings journey!");
    });
  });

  it('unknown paths: GET/HEAD redirect (302) to Onboarding, other methods 404 JSON', async () => {
    for (const path of ['/no/such/page', '/onboarding/customer-information', '/onboarding/routing/extra', '/%2e%2e/%2e%2e/etc/passwd']) {
      const res = await request(stack.webUrl).get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.location, path).toBe('/onboarding');
    }
    // Files are not pages: the icons browsers fetch by themselves must not run the Onboarding page.
    for (const path of ['/favicon.ico', '/apple-touch-icon.png', '/robots.txt', '/build/missing.js']) {
      const res = await request(stack.webUrl).get(path);
      expect(res.status, path).toBe(404);
      expect(sessionCookie(res), path).toBeUndefined();
    }
    const page = await request(stack.webUrl).get('/onboarding').expect(200);
    expect(page.text).toContain('<link rel="icon" href="/images/favicon.svg" type="image/svg+xml"/>');
    await request(stack.webUrl)
      .get('/images/favicon.svg')
      .expect(200)
      .expect('content-type', /image\/svg\+xml/);
    await request(stack.webUrl).head('/no/such/page').expect(302).expect('location', '/onboarding');
    for (const method of ['post', 'put', 'delete', 'patch'] as const) {
      const res = await request(stack.webUrl)[method]('/no/such/page').set('sec-fetch-site', 'same-origin').expect(404);
      expect(res.body).toEqual({ error: 'Not found' });
    }
    // The root goes to Onboarding too.
    await request(stack.webUrl).get('/').expect(302).expect('location', '/onboarding');
  });

  it('SSE for the owned prospect: text/event-stream, retry first, then id/event/data frames up to done', async () => {
    // Finish the steps, sign at the sandbox's signing page, and land on the creation page.
    await answerStepsOverHttp(
      async () => (await owner.get(ci()).expect(200)).text,
      async (body) => void (await owner.post(`${ci()}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303).expect('location', ci())),
    );
    expect(h1((await owner.get(ci()).expect(200)).text)).toBe('Almost there! Just need to sign with your eID.');
    const toSigning = await owner
      .post(`${ci()}/step`)
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send('step=MILESTONE_THREE_STEP&screen=milestone')
      .expect(303);
    const signingUrl = new URL(toSigning.headers.location as string);
    expect(signingUrl.origin).toBe(new URL(stack.sandboxUrl).origin);
    const signed = await request(stack.sandboxUrl).post(`${signingUrl.pathname}/sign`).expect(303);
    const completeUrl = new URL(signed.headers.location as string);
    expect(completeUrl.href).toBe(`${stack.webUrl}/onboarding/customer-creation/${prospectId}`);
    const creationPage = await owner.get(completeUrl.pathname).expect(200);
    expect(creationPage.text).toContain('data-island="creationStatus"');

    const stream = await openStream(stack.webUrl, `/onboarding/customer-creation/${prospectId}/events`, { cookie: `${SID}=${sidOf(owner)}` });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream');
      expect(stream.headers['cache-control']).toMatch(/no-cache/);
      await stream.waitFor((t) => t.includes('"outcome":"done"'), 10_000);
      expect(stream.text().startsWith('retry: ')).toBe(true);
      const frames = sseFrames(stream.text()).filter((f) => f.event !== undefined || f.data !== undefined);
      expect(frames.length).toBeGreaterThan(0);
      const ids: number[] = [];
      for (const f of frames) {
        expect(f.event).toBe('creation');
        expect(f.id).toMatch(/^\d+$/);
        ids.push(Number(f.id));
        const view = JSON.parse(f.data!) as Record<string, unknown>;
        expect(['queued', 'done']).toContain(view.outcome);
        expect(view).toHaveProperty('title');
        // A view, never the raw state with tokens.
        expect(f.data).not.toMatch(/jwt|token/i);
      }
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      stream.close();
    }
    // A garbage Last-Event-ID is ignored: the reconnecting page still gets the current state.
    const resumed = await openStream(stack.webUrl, `/onboarding/customer-creation/${prospectId}/events`, {
      cookie: `${SID}=${sidOf(owner)}`,
      'last-event-id': '-1; DROP TABLE',
    });
    try {
      expect(resumed.status).toBe(200);
      await resumed.waitFor((t) => /event: creation\ndata: \{[^\n]*"outcome":"done"/.test(t), 3000);
    } finally {
      resumed.close();
    }
    // Continue after done leaves for the success URL.
    await owner.get(`/onboarding/customer-creation/${prospectId}/continue`).expect(303).expect('location', `${stack.sandboxUrl}/sandbox/overview`);
  });
});

// --- 7. routing per persona ----------------------------------------------------------------------

describe('routing after identification, per sandbox persona', () => {
  // Spec identification-routing-creation.md §4 "Routing after identification" and §2 error screens.
  const table: Array<{ scenario: string; location: RegExp; title: string; check?: (html: string) => void }> = [
    { scenario: 'onboarding', location: /^\/onboarding\/customer-information\/[0-9a-f-]{36}$/, title: "Let's start your savings journey!" },
    { scenario: 'onboardingIntent', location: /^\/onboarding\/customer-information\/[0-9a-f-]{36}$/, title: "Let's start your savings journey!" },
    {
      scenario: 'login',
      location: /^\/onboarding$/,
      title: 'You already have an account',
      // The close X is hidden on the login error; Continue leads to log-in.
      check: (html) => {
        expect(html).not.toContain('site-header__close');
        expect(html).toContain('href="/login-next"');
      },
    },
    { scenario: 'nightlyDowntimeRouting', location: /^\/onboarding\/nightly-downtime-status$/, title: 'See you tomorrow!' },
    {
      scenario: 'minor',
      location: /^\/onboarding$/,
      title: 'Information for you as a minor',
      // Continue posts customerType=minor to the customer-type form.
      check: (html) => {
        const forms = [...html.matchAll(/<form[^>]*action="\/onboarding\/customer-type"[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!);
        const minor = /<(button|input)\b(?=[^>]*\bname="customerType")(?=[^>]*\bvalue="minor")[^>]*>/;
        expect(forms.some((f) => minor.test(f))).toBe(true);
      },
    },
    {
      scenario: 'manualSupport',
      location: /^\/onboarding$/,
      title: 'You need to provide additional information',
      check: (html) => expect(html).toContain('href="https://forms.example.com/additional-information"'),
    },
    { scenario: 'openCase', location: /^\/onboarding\/case-status$/, title: 'Your application has been received' },
    {
      scenario: 'blocked',
      location: /^\/onboarding$/,
      title: "Your application can't be approved at this moment",
      check: (html) => expect(html).not.toMatch(/<main[\s\S]*class="btn"[\s\S]*<\/main>/),
    },
    { scenario: 'legacyFlow', location: /^\/onboarding\/customer-information\/[0-9a-f-]{36}\?shouldUseLegacyFlow=true$/, title: '' },
  ];

  it.each(table)('$scenario → $location', async ({ scenario, location, title, check }) => {
    const agent = request.agent(stack.webUrl);
    const target = await identifyAndRoute(agent, scenario);
    expect(target).toMatch(location);
    if (scenario === 'legacyFlow') return; // its landing page is covered below
    const page = await agent.get(target).expect(200);
    expect(h1(page.text)).toBe(title);
    check?.(page.text);
    // Routing again does not create a second prospect or change the decision.
    const again = await agent.get('/onboarding/routing').expect(303);
    if (target.startsWith('/onboarding/customer-information/')) expect(again.headers.location).toBe(target);
  });

  // Each identification starts the person's part of the journey afresh: no earlier person's prospect.
  it('a second identification in the same browser is routed for the new person', async () => {
    const agent = request.agent(stack.webUrl);
    const first = await identifyAndRoute(agent, 'onboarding');
    expect(first).toMatch(/^\/onboarding\/customer-information\//);
    // Start over in the same browser (customer type choice) and identify as someone else.
    const second = await identifyAndRoute(agent, 'minor');
    expect(second).toBe('/onboarding');
    expect(h1((await agent.get('/onboarding').expect(200)).text)).toBe('Information for you as a minor');
  });

  // customer-information §2.1: routed with SHOULD_NOT_UPDATE_STATUS, the legacy single form (tests/http/legacyForm.test.ts).
  it('legacyFlow lands on the legacy single form', async () => {
    const agent = request.agent(stack.webUrl);
    const target = await identifyAndRoute(agent, 'legacyFlow');
    const page = await agent.get(target);
    expect(page.status).toBe(200);
    expect(h1(page.text)).toBe('Open your accounts');
    expect(page.text).toContain('data-step="EXISTING_STEP" data-screen="form"');
  });
});
