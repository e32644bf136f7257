// CSRF was defended by SameSite alone: any site could post the journey's forms (choose the applicant type, start or
// cancel BankID, answer a step, restart creation, leave) into a person's session, and a link to /onboarding?error=…
// ended their identification at the broker. Now a state-changing request must show it comes from our own pages
// (Sec-Fetch-Site, else Origin, else the form's token), and a broker error aborts only the attempt whose state it
// carries. Redis mode: separate web, worker and sandbox processes.
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, startRedisStack, type Stack } from '../support/stack.ts';
import { identifyAtBrokerOverHttp, identifyOverHttp } from '../support/journey.ts';

type Agent = ReturnType<typeof request.agent>;
type Test = ReturnType<Agent['post']>;

const prefix = `test-csrf-${randomUUID().slice(0, 8)}`;
let stack: Stack;
let redis: RedisClientType;

beforeAll(async () => {
  stack = await startRedisStack({ REDIS_PREFIX: prefix });
  redis = createClient({ url: REDIS_URL });
  await redis.connect();
});

afterAll(async () => {
  // stop() removes the keys under the stack's prefix.
  await stack?.stop();
  if (redis?.isOpen) await redis.quit();
});

const CUSTOMER_TYPE_TITLE = "Before we get started. Who's the account for?";
const REFUSED_TITLE = 'We could not accept this request';

/** A current browser on our pages: every request says it comes from our own origin, as Chromium's form posts do. */
const browser = (url = stack.webUrl): Agent => request.agent(url).set('sec-fetch-site', 'same-origin');

/** What another site (or a browser too old to say) makes the person's browser send, cookies included. */
interface Hostile {
  name: string;
  headers: Record<string, string>;
  token?: string;
}
const hostile: Hostile[] = [
  { name: 'Sec-Fetch-Site: cross-site', headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } },
  { name: 'Sec-Fetch-Site: same-site', headers: { 'sec-fetch-site': 'same-site' } },
  { name: 'Origin https://evil.example', headers: { origin: 'https://evil.example' } },
  { name: 'Origin null', headers: { origin: 'null' } },
  { name: 'neither header, no token', headers: {} },
  { name: 'neither header, a made-up token', headers: {}, token: 'A'.repeat(43) },
];

function asHostile(req: Test, h: Hostile): Test {
  req.unset('sec-fetch-site');
  for (const [name, value] of Object.entries(h.headers)) req.set(name, value);
  return req;
}

/** Posts the form from every hostile place; answers the statuses. */
async function postFromEverywhere(agent: Agent, path: string, form: Record<string, string> = {}): Promise<number[]> {
  const statuses: number[] = [];
  for (const h of hostile) {
    const res = await asHostile(agent.post(path), h)
      .type('form')
      .send({ ...form, ...(h.token ? { _csrf: h.token } : {}) });
    statuses.push(res.status);
  }
  return statuses;
}
const allRefused = hostile.map(() => 403);

/** The session id in the agent's cookie (express-session's signed `s:<id>.<signature>`). */
function sidOf(agent: Agent): string | undefined {
  const access = { domain: '127.0.0.1', path: '/', secure: false, script: false } as Parameters<Agent['jar']['getCookie']>[1];
  const value = agent.jar.getCookie('onb.sid', access)?.value;
  if (!value) return undefined;
  const raw = decodeURIComponent(value);
  return raw.slice(2, raw.lastIndexOf('.'));
}

/** The journey as stored in Redis (what every web process sees), or null without a session. */
async function storedJourney(agent: Agent): Promise<unknown> {
  const sid = sidOf(agent);
  if (!sid) return null;
  const raw = await redis.get(`${prefix}:sess:${sid}`);
  return raw ? ((JSON.parse(raw) as { journey?: unknown }).journey ?? null) : null;
}

/** The applicant type in the stored journey ('none' without one). */
async function customerTypeOf(agent: Agent): Promise<string> {
  return ((await storedJourney(agent)) as { customerType?: string } | null)?.customerType ?? 'none';
}

const orders = async () => (await request(stack.sandboxUrl).get('/sandbox/bankid/orders').expect(200)).body as unknown[];
const h1 = (html: string) => /<h1[^>]*>([^<]*)</.exec(html)?.[1]?.replaceAll('&#x27;', "'");
const tokenIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1];

describe('csrf defended by SameSite alone', () => {
  it('refuses the applicant-type post from another site with 403 (a page for browsers, JSON for API callers) and changes nothing', async () => {
    const agent = browser();
    await agent.get('/onboarding').expect(200);

    expect(await postFromEverywhere(agent, '/onboarding/customer-type', { customerType: 'private' })).toEqual(allRefused);
    expect(h1((await agent.get('/onboarding').expect(200)).text)).toBe(CUSTOMER_TYPE_TITLE);
    expect(await customerTypeOf(agent)).toBe('none');

    const page = await asHostile(agent.post('/onboarding/customer-type'), hostile[0]!)
      .set('accept', 'text/html')
      .type('form')
      .send({ customerType: 'private' });
    expect(page.status).toBe(403);
    expect(page.type).toBe('text/html');
    expect(h1(page.text)).toBe(REFUSED_TITLE);
    const api = await asHostile(agent.post('/onboarding/customer-type'), hostile[0]!)
      .set('accept', 'application/json')
      .type('form')
      .send({ customerType: 'private' });
    expect(api.status).toBe(403);
    expect(api.body).toEqual({ error: 'Forbidden' });

    // The same post from our own page goes through.
    await agent.post('/onboarding/customer-type').type('form').send({ customerType: 'corporate' }).expect(303);
    expect(await customerTypeOf(agent)).toBe('corporate');
  });

  it('refuses the BankID mode, retry and cancel posts from another site: the order and the journey stay as they were', async () => {
    const agent = browser();
    await agent.post('/onboarding/customer-type').type('form').send({ customerType: 'private' }).expect(303);
    expect(h1((await agent.get('/onboarding').expect(200)).text)).toBe('Open account with BankID');
    const journey = await storedJourney(agent);
    const ordersBefore = await orders();
    expect(journey).toMatchObject({ customerType: 'private' });

    const statuses = {
      mode: await postFromEverywhere(agent, '/onboarding/identification/bankid/mode', { mode: 'SAME_DEVICE' }),
      retry: await postFromEverywhere(agent, '/onboarding/identification/bankid/retry'),
      cancel: await postFromEverywhere(agent, '/onboarding/identification/bankid/cancel'),
    };
    expect(statuses).toEqual({ mode: allRefused, retry: allRefused, cancel: allRefused });
    expect(await storedJourney(agent)).toEqual(journey);
    expect(await orders()).toEqual(ordersBefore);

    // The person's own Back still cancels.
    await agent.post('/onboarding/identification/bankid/cancel').type('form').send({}).expect(303);
    expect(await customerTypeOf(agent)).toBe('none');
  });

  it('refuses a customer-information answer, Back, Exit, creation Try again and Return to site from another site', async () => {
    const agent = browser();
    const { page, prospectId } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    const html = (await agent.get(page).expect(200)).text;
    const step = /data-step="([A-Z_]+)"/.exec(html)?.[1];
    expect(step).toBe('MILESTONE_ONE_STEP');
    const journey = await storedJourney(agent);
    expect(journey).toMatchObject({ prospectId });

    const creation = `/onboarding/customer-creation/${encodeURIComponent(prospectId)}`;
    const statuses = {
      step: await postFromEverywhere(agent, `${page}/step`, { step: 'MILESTONE_ONE_STEP', screen: 'milestone' }),
      back: await postFromEverywhere(agent, `${page}/back`),
      exit: await postFromEverywhere(agent, `${page}/exit`),
      creationRetry: await postFromEverywhere(agent, `${creation}/retry`),
      returnToSite: await postFromEverywhere(agent, '/onboarding/case-status/return'),
    };
    expect(statuses).toEqual({ step: allRefused, back: allRefused, exit: allRefused, creationRetry: allRefused, returnToSite: allRefused });
    // Same session, same journey: no step answered, no creation run started, nobody logged out.
    expect(await storedJourney(agent)).toEqual(journey);
    expect((await agent.get(page).expect(200)).text).toContain('data-step="MILESTONE_ONE_STEP"');

    // From our own page the answer is taken.
    await agent.post(`${page}/step`).type('form').send({ step: 'MILESTONE_ONE_STEP', screen: 'milestone' }).expect(303);
    expect((await agent.get(page).expect(200)).text).not.toContain('data-step="MILESTONE_ONE_STEP"');
  });

  it('accepts a browser that sends neither header when the form carries its valid token, and an own Origin', async () => {
    // An old browser: no Sec-Fetch-Site, no Origin. The page gives it a token bound to a cookie.
    const old = request.agent(stack.webUrl);
    const start = await old.get('/onboarding').expect(200);
    const token = tokenIn(start.text);
    expect(token).toBeDefined();
    expect(start.text).toContain(`<meta name="csrf-token" content="${token}"/>`);

    // Another browser's token does not fit this browser's cookie.
    const otherToken = tokenIn((await request.agent(stack.webUrl).get('/onboarding').expect(200)).text)!;
    expect(otherToken).not.toBe(token);
    await old.post('/onboarding/customer-type').type('form').send({ customerType: 'private', _csrf: otherToken }).expect(403);
    await old.post('/onboarding/customer-type').type('form').send({ customerType: 'private' }).expect(403);
    expect(await customerTypeOf(old)).toBe('none');

    await old.post('/onboarding/customer-type').type('form').send({ customerType: 'private', _csrf: token! }).expect(303);
    expect(await customerTypeOf(old)).toBe('private');

    // A browser that sends Origin only (no Sec-Fetch-Site): our own origin passes.
    const originOnly = request.agent(stack.webUrl);
    await originOnly.post('/onboarding/customer-type').set('origin', stack.webUrl).type('form').send({ customerType: 'corporate' }).expect(303);
    expect(await customerTypeOf(originOnly)).toBe('corporate');
  });

  it('accepts a multipart post (upload) from a browser that sends neither header with the token in the action, refuses it without', async () => {
    const agent = browser();
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    // The page as the old browser gets it: its post forms carry the token (and set its cookie).
    const token = tokenIn((await agent.get(page).unset('sec-fetch-site').expect(200)).text)!;
    expect(token).toBeDefined();
    const multipart = (path: string) => agent.post(path).unset('sec-fetch-site').field('step', 'MILESTONE_ONE_STEP').field('screen', 'milestone');

    await multipart(`${page}/step`).expect(403);
    // Its first character changed (to another one: a token may start with A).
    await multipart(`${page}/step?_csrf=${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}`).expect(403);
    expect((await agent.get(page).expect(200)).text).toContain('data-step="MILESTONE_ONE_STEP"');

    await multipart(`${page}/step?_csrf=${encodeURIComponent(token)}`).expect(303);
    expect((await agent.get(page).expect(200)).text).not.toContain('data-step="MILESTONE_ONE_STEP"');
  });
});

describe('csrf defended by SameSite alone: a cross-site GET of /onboarding?error= aborts nothing', () => {
  const port = () => new URL(stack.webUrl).port;
  /** A browser on the Danish host (MitID through the broker). */
  function dkBrowser() {
    const agent = browser();
    const host = `dk.localhost:${port()}`;
    return {
      agent,
      get: (path: string) => agent.get(path).set('host', host),
      /** A navigation that another site started (a link, a redirect): cookies go along (SameSite=Lax). */
      linkedFromElsewhere: (path: string) => agent.get(path).set('host', host).set('sec-fetch-site', 'cross-site'),
      post: (path: string, form: Record<string, string> = {}) => agent.post(path).set('host', host).type('form').send(form),
    };
  }

  async function startAtBroker(dk: ReturnType<typeof dkBrowser>): Promise<{ authUrl: string; state: string }> {
    await dk.post('/onboarding/customer-type', { customerType: 'private' }).expect(303);
    const start = await dk.post('/onboarding/identification/oidc').expect(303);
    const authUrl = start.headers.location as string;
    return { authUrl, state: new URL(authUrl).searchParams.get('state')! };
  }

  it('leaves an identification in progress untouched by errors (and codes) without our state; the code exchange completes afterwards', async () => {
    const dk = dkBrowser();
    const { authUrl } = await startAtBroker(dk);
    const journey = (await storedJourney(dk.agent)) as { oidc?: unknown };
    expect(journey.oidc).toBeDefined();

    const links = [
      '/onboarding?error=access_denied',
      '/onboarding?error=access_denied&error_description=Cancelled',
      '/onboarding?error=access_denied&state=NEXT_forged.',
      '/onboarding?code=forged&state=NEXT_forged.',
    ];
    // The broker's own return page, linked to directly with an error.
    const viaReturnPage = await dk.linkedFromElsewhere('/onboarding/signicat?error=access_denied').expect(302);
    links.push(viaReturnPage.headers.location as string);
    const answers: string[] = [];
    for (const link of links) answers.push((await dk.linkedFromElsewhere(link)).headers.location as string);
    expect(answers).toEqual(links.map(() => '/onboarding'));
    expect(await storedJourney(dk.agent)).toEqual(journey);
    const page = (await dk.get('/onboarding').expect(200)).text;
    expect(page).toContain('Open account with MitID');
    expect(page).not.toContain('Something went wrong');

    // The person finishes at the broker: the marker still works.
    const personas = (await request(stack.sandboxUrl).get('/sandbox/personas').expect(200)).body as Array<{
      nationalId: string;
      country: string;
      scenario: string;
    }>;
    const persona = personas.find((p) => p.country === 'DK' && p.scenario === 'onboarding')!;
    const back = await identifyAtBrokerOverHttp(stack.sandboxUrl, authUrl, persona.nationalId);
    const ret = await dk.linkedFromElsewhere(back.pathname + back.search).expect(302);
    const done = await dk.linkedFromElsewhere(ret.headers.location as string).expect(303);
    expect(done.headers.location).toBe('/onboarding/routing');
  });

  it('aborts the attempt when the error carries the state we issued (the broker answering our request)', async () => {
    const dk = dkBrowser();
    const { state } = await startAtBroker(dk);
    const res = await dk.linkedFromElsewhere(`/onboarding/signicat?error=access_denied&state=${encodeURIComponent(state)}`).expect(302);
    expect((await dk.linkedFromElsewhere(res.headers.location as string).expect(303)).headers.location).toBe('/onboarding');
    expect(await storedJourney(dk.agent)).not.toHaveProperty('oidc');
    expect((await dk.get('/onboarding').expect(200)).text).toContain('Something went wrong');
  });
});
