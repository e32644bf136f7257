// The web server over HTTP against a real embedded stack (sandbox + web + worker on loopback), as the
// tests/http/server*.test.ts files drive it: one stack per file (useServerStack), a second web process with its
// own configuration (startWeb), BankID identification over HTTP and the cookie, CSP and page readers.
import { connect } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, expect } from 'vitest';
import { start, type Running } from '../../server/main.ts';
import { REDIS_URL, startEmbeddedStack, testTimings, waitUntilUp, type Stack } from './stack.ts';

export type Agent = ReturnType<typeof request.agent>;
export type Res = Awaited<ReturnType<Agent['get']>>;

export interface Persona {
  nationalId: string;
  country: string;
  name: string;
  scenario: string;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const SID = 'onb.sid';
/** With secure cookies (production) the session cookie is `__Host-` prefixed. */
export const SECURE_SID = '__Host-onb.sid';

/** The file's stack and the sandbox's personas: live bindings, set from the file's beforeAll on. */
export let stack: Stack;
export let personas: Persona[];
const extraApps: Running[] = [];

/**
 * Starts the file's embedded stack before its tests and closes it (and any startWeb process) after them. `env`: the
 * web's settings on top of the test timings.
 */
export function useServerStack(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    stack = await startEmbeddedStack(env);
    personas = (await request(stack.sandboxUrl).get('/sandbox/personas').expect(200)).body as Persona[];
  });
  afterAll(async () => {
    for (const app of extraApps.splice(0)) await app.close();
    await stack?.stop();
  });
}

/** A second web process (no worker) with its own configuration, ready (Redis connected), closed after the file. */
export async function startWeb(env: Record<string, string>): Promise<string> {
  const running = await start(
    {
      NODE_ENV: 'development',
      PORT: '0',
      BANKID_API_URL: stack.sandboxUrl,
      BROKERAGE_API_URL: stack.sandboxUrl,
      SIGNING_ORIGINS: stack.sandboxUrl,
      SUCCESS_URL: `${stack.sandboxUrl}/sandbox/overview`,
      BANK_SITE_URL: stack.sandboxUrl,
      BANK_SITE_HANDOFF_PATH: '/sandbox/bank-site/login/handoff',
      // Behind a router on loopback, as startEmbeddedStack's web (X-Forwarded-Proto, X-Forwarded-For).
      TRUST_PROXY: 'loopback',
      ...testTimings(),
      ...env,
    },
    'web',
  );
  extraApps.push(running);
  await waitUntilUp(`${running.url!}/readyz`);
  return running.url!;
}

/** Closes a process startWeb started, before the file ends. */
export async function stopWeb(url: string): Promise<void> {
  const i = extraApps.findIndex((a) => a.url === url);
  if (i >= 0) await extraApps.splice(i, 1)[0]!.close();
}

export const setCookies = (res: { headers: Record<string, unknown> }): string[] => {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
};
export const sessionCookie = (res: { headers: Record<string, unknown> }, name = SID): string | undefined =>
  setCookies(res).find((c) => c.startsWith(`${name}=`));
export const cookieValue = (setCookie: string): string => setCookie.slice(SID.length + 1).split(';')[0]!;
export const cookieAttr = (setCookie: string, name: string): string | undefined =>
  setCookie
    .split(';')
    .slice(1)
    .map((p) => p.trim())
    .find((p) => p.toLowerCase().startsWith(name.toLowerCase()));

/** The session cookie the agent currently holds (what it would send to the web process). */
export function sidOf(agent: Agent): string | undefined {
  const access = { domain: '127.0.0.1', path: '/', secure: false, script: false } as Parameters<Agent['jar']['getCookie']>[1];
  return agent.jar.getCookie(SID, access)?.value;
}

export const entities: Record<string, string> = { '&#x27;': "'", '&#39;': "'", '&quot;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>' };
/** The HTML as a reader's text would match it: entities decoded, and the `<wbr/>` break hints in file names dropped. */
export const decode = (s: string) => s.replace(/&#x27;|&#39;|&quot;|&amp;|&lt;|&gt;/g, (e) => entities[e]!).replaceAll('<wbr/>', '');
/** The page's h1 text, tags stripped. */
export function h1(html: string): string | undefined {
  const m = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  return m ? decode(m[1]!.replace(/<[^>]+>/g, '')).trim() : undefined;
}

export function cspOf(res: Res): Map<string, string[]> {
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

export function nonceOf(res: Res): string {
  const scriptSrc = cspOf(res).get('script-src') ?? [];
  const nonces = scriptSrc.filter((v) => v.startsWith("'nonce-"));
  expect(nonces).toHaveLength(1);
  return nonces[0]!.slice("'nonce-".length, -1);
}

export function personaFor(scenario: string, country = 'SE'): Persona {
  const p = personas.find((x) => x.scenario === scenario && x.country === country);
  if (!p) throw new Error(`no ${country} persona for ${scenario}`);
  return p;
}

export async function waitingOrderRefs(): Promise<string[]> {
  const res = await request(stack.sandboxUrl).get('/sandbox/bankid/orders').expect(200);
  return (res.body as Array<{ orderRef: string }>).map((o) => o.orderRef);
}

/** Chooses Private (the click starts the QR order) and opens the BankID QR page; answers that order. */
export async function openQrPage(agent: Agent): Promise<{ page: Res; orderRef: string }> {
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

export interface Identified {
  persona: Persona;
  sidBefore: string;
  sidAfter: string;
  /** The Set-Cookie of the status answer that reported completion. */
  completionCookie: string | undefined;
}

/** BankID identification over HTTP: the phone (sandbox JSON helper) identifies, the page's status poll completes. */
export async function identify(agent: Agent, scenario: string): Promise<Identified> {
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
export async function identifyAndRoute(agent: Agent, scenario: string): Promise<string> {
  await identify(agent, scenario);
  const routed = await agent.get('/onboarding/routing').expect(303);
  return routed.headers.location as string;
}

export const prospectIdIn = (location: string): string => {
  const m = /^\/onboarding\/customer-information\/([^/?]+)/.exec(location);
  if (!m) throw new Error(`not a customer-information location: ${location}`);
  return decodeURIComponent(m[1]!);
};

/** Error pages must never show internals. */
export function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\n\s+at |node_modules|Error:|TypeError|ZodError/);
}

export async function reachable(url: string): Promise<boolean> {
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

export const redisUp = await reachable(REDIS_URL);
