// Identification through the OIDC broker (DK, NO, FI): the pure state / return-page / marker rules as
// tables, then the server over HTTP against the embedded stack with the sandbox's real OpenID provider.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acrValueFor,
  callbackAction,
  decodeState,
  encodeState,
  returnRedirect,
  WEB_STATE_PREFIX,
  type CallbackAction,
  type CallbackQuery,
  type ReturnQuery,
} from '../../shared/oidcState.ts';
import { loadConfig, ConfigError } from '../../server/config.ts';
import { createOidcBroker, TOKEN_FETCH_FAILED } from '../../server/upstream/oidcBrokerClient.ts';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64url');

describe('state encoding', () => {
  it('round-trips the restorable Onboarding parameters after the NEXT_ marker', () => {
    const state = encodeState('r4nd0m', { webview: 'true', clientId: 'app', clientUrl: 'https://x.example/a?b=c', epk: 'true', lang: 'da' });
    expect(state.startsWith(`${WEB_STATE_PREFIX}r4nd0m.`)).toBe(true);
    expect(decodeState(state)).toEqual({ webview: 'true', clientId: 'app', clientUrl: 'https://x.example/a?b=c', epk: 'true', lang: 'da' });
  });

  it.each([
    ['no dot', 'NEXT_abc', {}],
    ['empty', '', {}],
    ['not base64url', 'NEXT_a.%%%', {}],
    ['unknown parameters dropped', `x.${b64('foo=1&lang=fi')}`, { lang: 'fi' }],
    ['invalid webview value dropped', `x.${b64('webview=yes&epk=true')}`, { epk: 'true' }],
    // As the start page carries them (shared/carriedQuery.ts entryParamShapes).
    ['clientId and epk in another shape dropped', `x.${b64('clientId=a%20b&epk=k1&lang=fi')}`, { lang: 'fi' }],
    ['too long value dropped', `x.${b64(`lang=${'a'.repeat(20)}`)}`, {}],
  ])('decodes %s', (_name, state, expected) => {
    expect(decodeState(state)).toEqual(expected);
  });

  it('refuses a random part that would break the format', () => {
    expect(() => encodeState('a.b', {})).toThrow();
  });

  it('asks NO for nbid (spec) and DK, FI for their own methods', () => {
    expect(acrValueFor('NO')).toBe('urn:signicat:oidc:method:nbid');
    expect(acrValueFor('DK')).toBe('urn:signicat:oidc:method:mitid');
    expect(acrValueFor('FI')).toBe('urn:signicat:oidc:method:ftn');
  });
});

describe('return page redirect (OnboardingSignicat)', () => {
  const webState = encodeState('abc', { webview: 'true', lang: 'nb' });
  const appState = `app123.${b64('webview=true&clientId=ios')}`;
  const appStateNoWebview = `app123.${b64('clientId=ios')}`;
  const rows: Array<[string, ReturnQuery, { kind: string; url: string }]> = [
    [
      'web flow: code and state to Onboarding with the restored parameters',
      { code: 'c1', state: webState },
      { kind: 'onboarding', url: `/onboarding?code=c1&state=${encodeURIComponent(webState)}&webview=true&lang=nb` },
    ],
    [
      'web flow keeps the issuer for the client check',
      { code: 'c1', state: 'NEXT_x', iss: 'https://idp.example/' },
      { kind: 'onboarding', url: '/onboarding?code=c1&state=NEXT_x&iss=https%3A%2F%2Fidp.example%2F' },
    ],
    [
      'app flow in a webview: deep link to the native app',
      { code: 'c2', state: appState },
      { kind: 'nativeApp', url: `nordicbank://onboarding/signicat?code=c2&state=${encodeURIComponent(appState)}` },
    ],
    [
      'app state but not a webview: Onboarding',
      { code: 'c2', state: appStateNoWebview },
      { kind: 'onboarding', url: `/onboarding?code=c2&state=${encodeURIComponent(appStateNoWebview)}&clientId=ios` },
    ],
    [
      'error: Onboarding with the error, its state and the restored parameters',
      { error: 'access_denied', error_description: 'Cancelled by user', state: webState },
      { kind: 'onboarding', url: `/onboarding?error=access_denied&state=${encodeURIComponent(webState)}&webview=true&lang=nb` },
    ],
    [
      'error wins over a code, never a deep link',
      { error: 'server_error', code: 'c3', state: appState },
      { kind: 'onboarding', url: `/onboarding?error=server_error&state=${encodeURIComponent(appState)}&webview=true&clientId=ios` },
    ],
    ['nothing: plain Onboarding', {}, { kind: 'onboarding', url: '/onboarding' }],
  ];
  it.each(rows)('%s', (_name, query, expected) => {
    expect(returnRedirect(query, 'nordicbank')).toEqual(expected);
  });
});

describe('Onboarding with a code or an error (local marker rule)', () => {
  // The marker's state, or undefined when this session stored no marker.
  const rows: Array<[string, CallbackQuery, string | undefined, CallbackAction]> = [
    ['code with the marker: exchange', { code: 'c', state: 's' }, 's', { kind: 'exchange', code: 'c', state: 's', iss: undefined }],
    ['code without the marker: ignored', { code: 'c', state: 's' }, undefined, { kind: 'ignoreCode' }],
    ['code with another state than the marker: ignored, the marker kept', { code: 'c', state: 'x' }, 's', { kind: 'ignoreCode' }],
    ['code without a state: ignored', { code: 'c' }, 's', { kind: 'ignoreCode' }],
    ['error with the marker state', { error: 'access_denied', state: 's' }, 's', { kind: 'error', error: 'access_denied' }],
    ['error without a state aborts nothing', { error: 'access_denied' }, 's', { kind: 'ignoreError', error: 'access_denied' }],
    ['error with another state aborts nothing', { error: 'access_denied', state: 'x' }, 's', { kind: 'ignoreError', error: 'access_denied' }],
    ['error without the marker aborts nothing', { error: 'access_denied', state: 's' }, undefined, { kind: 'ignoreError', error: 'access_denied' }],
    ['neither', {}, 's', { kind: 'none' }],
  ];
  it.each(rows)('%s', (_name, query, markerState, expected) => {
    expect(callbackAction(query, markerState)).toEqual(expected);
  });
});

describe('configuration', () => {
  it('allows an http issuer only on loopback', () => {
    expect(loadConfig({ OIDC_ISSUER_URL: 'http://127.0.0.1:3001/oidc' }).OIDC_ISSUER_URL).toBe('http://127.0.0.1:3001/oidc');
    expect(loadConfig({ OIDC_ISSUER_URL: 'https://id.example.com/auth/open', OIDC_CLIENT_SECRET: 's'.repeat(32) }).OIDC_ISSUER_URL).toBe(
      'https://id.example.com/auth/open',
    );
    expect(() => loadConfig({ OIDC_ISSUER_URL: 'http://id.example.com/oidc' })).toThrow(/OIDC_ISSUER_URL must use https/);
    expect(() => loadConfig({ OIDC_CLIENT_SECRET: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ NATIVE_APP_SCHEME: 'no way' })).toThrow(/NATIVE_APP_SCHEME/);
  });
});

// --- over HTTP -------------------------------------------------------------------------------------------

let stack: Stack;
let port: string;

beforeAll(async () => {
  stack = await startEmbeddedStack();
  port = new URL(stack.webUrl).port;
});

afterAll(async () => {
  await stack?.stop();
});

type Agent = ReturnType<typeof request.agent>;

/** A browser on the country's host (the market is chosen by host name). */
function browserFor(country: 'dk' | 'no' | 'fi') {
  const agent = request.agent(stack.webUrl);
  const host = `${country}.localhost:${port}`;
  return {
    agent,
    host,
    get: (path: string) => agent.get(path).set('host', host),
    post: (path: string, form: Record<string, string> = {}) => agent.post(path).set('sec-fetch-site', 'same-origin').set('host', host).type('form').send(form),
  };
}

async function choosePrivate(b: ReturnType<typeof browserFor>) {
  await b.get('/onboarding').expect(200);
  await b.post('/onboarding/customer-type', { customerType: 'private' }).expect(303);
}

/** Walks the sandbox provider's login page like a person would: answers the broker's redirect to us. */
async function identifyAtBroker(authUrl: string, choice: { nationalId: string } | 'cancel'): Promise<URL> {
  const idp: Agent = request.agent(stack.sandboxUrl);
  const path = (u: string) => {
    const url = new URL(u, stack.sandboxUrl);
    return url.pathname + url.search;
  };
  let res = await idp.get(path(authUrl));
  expect(res.status).toBe(303);
  const interaction = res.headers.location as string;
  res = await idp.get(path(interaction)).expect(200);
  res =
    choice === 'cancel'
      ? await idp
          .post(`${path(interaction)}/abort`)
          .type('form')
          .send({})
      : await idp
          .post(`${path(interaction)}/login`)
          .type('form')
          .send(choice);
  expect(res.status).toBe(303);
  res = await idp.get(path(res.headers.location as string));
  expect(res.status).toBe(303);
  return new URL(res.headers.location as string);
}

async function personaOf(country: string, scenario: string): Promise<{ nationalId: string }> {
  const personas = (await request(stack.sandboxUrl).get('/sandbox/personas').expect(200)).body as Array<{
    nationalId: string;
    country: string;
    scenario: string;
  }>;
  return personas.find((p) => p.country === country && p.scenario === scenario)!;
}

describe('DK, NO and FI identification over HTTP', () => {
  it('renders the MitID page with the secret-address banner, and the NO and FI pages', async () => {
    const dk = browserFor('dk');
    await choosePrivate(dk);
    const page = (await dk.get('/onboarding').expect(200)).text;
    expect(page).toContain('Open account with MitID');
    expect(page).toContain('Registered address protection');
    expect(page).toContain('<details');
    expect(page).toContain('action="/onboarding/identification/oidc"');

    for (const [country, title] of [
      ['no', 'Open account with BankID'],
      ['fi', 'Open account with your bank ID'],
    ] as const) {
      const b = browserFor(country);
      await choosePrivate(b);
      const html = (await b.get('/onboarding').expect(200)).text;
      expect(html).toContain(title);
      expect(html).not.toContain('Registered address protection');
    }
  });

  it('sends the browser to the broker with PKCE S256, state, nonce, scope openid nin profile and the method', async () => {
    const no = browserFor('no');
    await choosePrivate(no);
    const res = await no.post('/onboarding/identification/oidc').expect(303);
    const url = new URL(res.headers.location as string);
    expect(url.origin + url.pathname).toBe(`${stack.sandboxUrl}/oidc/auth`);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('openid nin profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('acr_values')).toBe('urn:signicat:oidc:method:nbid');
    expect(q.get('redirect_uri')).toBe(`http://no.localhost:${port}/onboarding/signicat`);
    expect(q.get('state')!.startsWith('NEXT_')).toBe(true);
  });

  it('identifies a DK persona end to end and opens the session (fresh session id), then ignores a replayed code', async () => {
    const dk = browserFor('dk');
    await choosePrivate(dk);
    const start = await dk.post('/onboarding/identification/oidc').expect(303);
    const back = await identifyAtBroker(start.headers.location as string, await personaOf('DK', 'onboarding'));
    expect(back.host).toBe(`dk.localhost:${port}`);
    expect(back.pathname).toBe('/onboarding/signicat');

    const ret = await dk.get(back.pathname + back.search).expect(302);
    const onboarding = ret.headers.location as string;
    expect(onboarding).toMatch(/^\/onboarding\?code=[^&]+&state=NEXT_/);

    const before = dk.agent.jar.getCookie('onb.sid', { domain: '127.0.0.1', path: '/', secure: false, script: false })?.value;
    expect(before).toBeDefined();
    const done = await dk.get(onboarding).expect(303);
    expect(done.headers.location).toBe('/onboarding/routing');
    const after = dk.agent.jar.getCookie('onb.sid', { domain: '127.0.0.1', path: '/', secure: false, script: false })?.value;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);

    // The marker was removed: the same code again is ignored, no error screen, no new exchange.
    const replay = await dk.get(onboarding).expect(303);
    expect(replay.headers.location).toBe('/onboarding');
  });

  it('FI in Swedish: the language chosen before the broker is the language after it', async () => {
    const fi = browserFor('fi');
    await fi.get('/onboarding?lang=sv').expect((res) => expect([200, 302, 303]).toContain(res.status));
    expect((await fi.get('/onboarding').expect(200)).text).toMatch(/<html lang="sv-FI"/);
    await fi.post('/onboarding/customer-type', { customerType: 'private' }).expect(303);
    const start = await fi.post('/onboarding/identification/oidc').expect(303);
    const back = await identifyAtBroker(start.headers.location as string, await personaOf('FI', 'onboarding'));
    const ret = await fi.get(back.pathname + back.search).expect(302);
    // The state brought the language back with the other parameters.
    expect(new URL(ret.headers.location as string, 'http://x').searchParams.get('lang')).toBe('sv');
    const routing = await fi.get(ret.headers.location as string).expect(303);
    let next = routing.headers.location as string;
    // Routing, then the customer-information page: still in Swedish (sv-FI).
    for (let hops = 0; hops < 5 && !next.includes('/customer-information/'); hops++) next = (await fi.get(next)).headers.location as string;
    expect(next).toContain('/onboarding/customer-information/');
    expect((await fi.get(next).expect(200)).text).toMatch(/<html lang="sv-FI"/);
  });

  it('ignores a code when this session stored no marker', async () => {
    const fi = browserFor('fi');
    await choosePrivate(fi);
    const res = await fi.get('/onboarding?code=forged&state=NEXT_x.').expect(303);
    expect(res.headers.location).toBe('/onboarding');
    const page = (await fi.get('/onboarding').expect(200)).text;
    expect(page).toContain('Open account with your bank ID');
    expect(page).not.toContain('Something went wrong');
  });

  it('shows the try-again screen when the broker answers an error (cancel)', async () => {
    const fi = browserFor('fi');
    await choosePrivate(fi);
    const start = await fi.post('/onboarding/identification/oidc').expect(303);
    const back = await identifyAtBroker(start.headers.location as string, 'cancel');
    expect(back.searchParams.get('error')).toBe('access_denied');
    const ret = await fi.get(back.pathname + back.search).expect(302);
    expect(ret.headers.location).toMatch(/^\/onboarding\?error=access_denied/);
    const res = await fi.get(ret.headers.location as string).expect(303);
    expect(res.headers.location).toBe('/onboarding');
    expect((await fi.get('/onboarding').expect(200)).text).toContain('Something went wrong');
  });

  it('shows the try-again screen when the token exchange fails (marker present, bad code)', async () => {
    const dk = browserFor('dk');
    await choosePrivate(dk);
    const start = await dk.post('/onboarding/identification/oidc').expect(303);
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const res = await dk.get(`/onboarding?code=not-a-real-code&state=${encodeURIComponent(state)}`).expect(303);
    expect(res.headers.location).toBe('/onboarding');
    expect((await dk.get('/onboarding').expect(200)).text).toContain('Something went wrong');
  });

  it('hands an app-started flow in a webview to the native app by deep link', async () => {
    const appState = `app42.${b64('webview=true&clientId=ios')}`;
    const res = await browserFor('no')
      .get(`/onboarding/signicat?code=c0de&state=${encodeURIComponent(appState)}`)
      .expect(302);
    expect(res.headers.location).toBe(`nordicbank://onboarding/signicat?code=c0de&state=${encodeURIComponent(appState)}`);
  });

  it('answers bad return-page input with a redirect, never a 500', async () => {
    const res = await browserFor('no').get('/onboarding/signicat?error=%3Cscript%3E').expect(302);
    expect(res.headers.location).toBe('/onboarding?error=invalid_response');
  });

  it('the client throws "Failed to fetch signicat tokens" when the exchange fails', async () => {
    const broker = createOidcBroker({
      issuerUrl: `${stack.sandboxUrl}/oidc`,
      clientId: 'onboarding-sandbox',
      clientSecret: 'sandbox-only-client-secret-not-for-production',
      timeoutMs: 5000,
    });
    const { marker } = await broker.authorizationRequest({ country: 'DK', redirectUri: 'http://127.0.0.1:1/onboarding/signicat', params: {} });
    await expect(broker.personFromCode({ code: 'nope', state: marker.state, iss: undefined, marker })).rejects.toThrow(TOKEN_FETCH_FAILED);
  });
});
