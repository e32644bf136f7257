// The start page is rendered once per variant and served from server/pageCache.ts. Each variant —
// market (host), locale, system-status banners, campaign, webview — reads byte for byte as a web process without the
// cache renders it (PAGE_CACHE=false), apart from the request's own CSP nonce and anti-forgery token, which no two
// requests share, and each token is the one its own cookie accepts. A banner change shows at once: the banner state
// is part of what the page is kept by (the status is read anew per page here: SYSTEM_STATUS_CACHE_MS=0).
import { createHash } from 'node:crypto';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { supportedLocales } from '../../shared/i18n.ts';
import { cspOf, setCookies, stack, startWeb, useServerStack, type Res } from '../support/serverHttp.ts';

const env = {
  SYSTEM_STATUS_CACHE_MS: '0',
  SUPPORT_PHONE_SE: '+46 8 120 000 01',
  SUPPORT_PHONE_NO: '+47 21 00 00 02',
  SUPPORT_PHONE_DK: '+45 33 00 00 03',
  SUPPORT_PHONE_FI: '+358 9 4000 0004',
};
useServerStack(env);

let cached: string;
let uncached: string;
beforeAll(async () => {
  [cached, uncached] = await Promise.all([startWeb(env), startWeb({ ...env, PAGE_CACHE: 'false' })]);
});

const setStatus = (body: object) => request(stack.sandboxUrl).post('/sandbox/system-status').send(body).expect(200);
const bannerStates = [{}, { creationPaused: true }, { feedbackBanner: 'HIGH_LOAD' }, { creationPaused: true, feedbackBanner: 'HIGH_LOAD' }];
// The default host (127.0.0.1, DEFAULT_COUNTRY) and each market's host (COUNTRY_HOSTS' defaults).
const hosts = ['127.0.0.1', 'se.localhost', 'no.localhost', 'dk.localhost', 'fi.localhost'];

interface Variant {
  host: string;
  locale?: string;
  campaign?: string;
  query?: string;
}

const nonceOf = (res: Res) =>
  /^'nonce-(.+)'$/.exec(
    cspOf(res)
      .get('script-src')!
      .find((s) => s.startsWith("'nonce-"))!,
  )![1]!;
const tokenOf = (html: string) => /<input type="hidden" name="_csrf" value="([^"]+)"/.exec(html)?.[1];

function get(base: string, v: Variant): Promise<Res> {
  const port = new URL(base).port;
  const cookies = [v.locale && `locale=${v.locale}`, v.campaign && `campaign=${v.campaign}`].filter(Boolean).join('; ');
  const req = request(base)
    .get(`/onboarding${v.query ?? ''}`)
    .set('host', `${v.host}:${port}`);
  return (cookies ? req.set('cookie', cookies) : req).expect(200);
}

/** The page with its per-request values (and the process's port) named. */
function normalised(res: Res, base: string): string {
  const token = tokenOf(res.text);
  let html = res.text.replaceAll(`:${new URL(base).port}`, ':PORT').replaceAll(nonceOf(res), 'NONCE');
  if (token) html = html.replaceAll(token, 'TOKEN');
  return html;
}

describe('start page cache', () => {
  const variants: Variant[] = [
    ...hosts.flatMap((host) => supportedLocales.map((locale) => ({ host, locale }))),
    ...hosts.map((host) => ({ host })),
    ...['level-up', 'ask', 'other'].map((campaign) => ({ host: 'se.localhost', locale: 'sv-SE', campaign })),
    { host: 'no.localhost', locale: 'nb-NO', query: '?webview=true' },
    { host: 'dk.localhost', query: '?webview=true&campaign=ask' },
  ];

  it('serves every variant as an uncached render does, in every banner state, the change shown at once', async () => {
    for (const status of bannerStates) {
      await setStatus(status);
      for (const v of variants) {
        const first = await get(cached, v);
        const again = await get(cached, v);
        const reference = normalised(await get(uncached, v), uncached);
        const label = JSON.stringify({ status, ...v });
        expect(normalised(first, cached), label).toBe(reference);
        expect(normalised(again, cached), label).toBe(reference);
        expect(tokenOf(again.text), label).toBeDefined();
        expect(tokenOf(again.text), label).not.toBe(tokenOf(first.text));
        expect(nonceOf(again), label).not.toBe(nonceOf(first));
      }
    }
    await setStatus({});
  });

  it('gives each request its own token, the one its own cookie accepts', async () => {
    const pages = await Promise.all([get(cached, { host: '127.0.0.1' }), get(cached, { host: '127.0.0.1' })]);
    const [a, b] = pages.map((res) => ({
      token: tokenOf(res.text)!,
      cookie: setCookies(res)
        .find((c) => c.startsWith('onb.csrf='))!
        .split(';')[0]!,
    }));
    expect(a!.token).not.toBe(b!.token);
    expect(a!.cookie).not.toBe(b!.cookie);
    // Neither Sec-Fetch-Site nor Origin: the token fallback decides (server/csrfProtection.ts).
    const post = (cookie: string, token: string) =>
      request(cached).post('/onboarding/customer-type').set('cookie', cookie).type('form').send({ customerType: 'corporate', _csrf: token });
    await post(a!.cookie, b!.token).expect(403);
    await post(a!.cookie, a!.token).expect(303);
    await post(b!.cookie, b!.token).expect(303);
  });
});

describe("the entry page's stylesheet (the start page paints on a first visit without a second request)", () => {
  const inlineStyle = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];

  it('is inline on the start page, allowed by its hash in the CSP (and only that), the file prefetched', async () => {
    for (const base of [cached, uncached]) {
      const res = await get(base, { host: 'se.localhost' });
      const css = inlineStyle(res.text);
      expect(css).toMatch(/\.btn/);
      const hash = createHash('sha256').update(css!).digest('base64');
      expect(cspOf(res).get('style-src')).toEqual(["'self'", `'sha256-${hash}'`]);
      expect(res.text).toMatch(/<link rel="prefetch" href="\/build\/[\w-]+\.css"\/>/);
      expect(res.text).not.toContain('rel="stylesheet"');
    }
  });

  it('is linked on the pages after it, which find the prefetched file cached', async () => {
    const agent = request.agent(cached);
    const start = await agent.get('/onboarding').expect(200);
    const token = /<input type="hidden" name="_csrf" value="([^"]+)"/.exec(start.text)![1]!;
    await agent.post('/onboarding/customer-type').type('form').send({ customerType: 'corporate', _csrf: token }).expect(303);
    const next = await agent.get('/onboarding').expect(200);
    expect(inlineStyle(next.text)).toBeUndefined();
    const prefetched = /<link rel="prefetch" href="([^"]+)"/.exec(start.text)![1]!;
    expect(next.text).toContain(`<link rel="stylesheet" href="${prefetched}"/>`);
  });
});
