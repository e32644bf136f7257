// The visit cookie (server/visit.ts) and the rule that a page view without a stored session stores none
// (server/session.ts), on a small Express app with the development memory store.
import express from 'express';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { decodeVisit, keepVisit, MAX_VISIT_COOKIE_CHARS, visitCookieName, visitOf, type KeptVisit } from '../../server/visit.ts';
import { sessionMiddleware } from '../../server/session.ts';

const secret = 'unit-test-secret-0123456789-0123456789';
const config = { sessionSecret: secret, cookieSecure: false };

/** An app whose GET /keep keeps the query's values in the visit cookie and answers what it then holds. */
function visitApp() {
  const app = express();
  app.get('/keep', (req, res) => {
    const values: KeptVisit = {};
    if (typeof req.query.locale === 'string') values.locale = req.query.locale as KeptVisit['locale'];
    if (req.query.webview === 'true') values.webview = true;
    const params = Object.fromEntries(Object.entries(req.query).filter(([k]) => k.startsWith('p')) as [string, string][]);
    if (Object.keys(params).length > 0) values.queryParams = params;
    keepVisit(req, res, config, values);
    res.json(visitOf(req, config));
  });
  app.get('/read', (req, res) => res.json(visitOf(req, config)));
  return app;
}

const visitValue = (res: { headers: Record<string, unknown> }): string | undefined => {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? (raw as string[]) : [];
  const found = all.find((c) => c.startsWith(`${visitCookieName(false)}=`));
  return found ? decodeURIComponent(found.split(';')[0]!.slice(visitCookieName(false).length + 1)) : undefined;
};

describe('visit cookie', () => {
  it('keeps the values signed and reads them back; the entry query is added to', async () => {
    const app = visitApp();
    const first = await request(app).get('/keep?locale=sv-SE&webview=true&p1=a').expect(200);
    const value = visitValue(first)!;
    expect(value).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(first.headers['set-cookie']![0]).toMatch(/; HttpOnly; SameSite=Lax$/);
    const second = await request(app).get('/keep?p2=b').set('cookie', `onb.visit=${value}`).expect(200);
    expect(second.body).toEqual({ locale: 'sv-SE', webview: true, queryParams: { p1: 'a', p2: 'b' } });
    expect(decodeVisit(secret, visitValue(second))).toEqual(second.body);
  });

  const genuine = () => {
    const res = { cookie: vi.fn() };
    keepVisit({ headers: {}, secure: false } as never, res as never, config, { locale: 'fi-FI', webview: true });
    return res.cookie.mock.calls[0]![1] as string;
  };
  const swapContent = (value: string, content: object) => {
    const [version, , mac] = value.split('.');
    return `${version}.${Buffer.from(JSON.stringify(content)).toString('base64url')}.${mac}`;
  };
  const resign = (content: string) => {
    // Signed with another secret: the MAC does not match ours.
    const res = { cookie: vi.fn() };
    keepVisit(
      { headers: {}, secure: false } as never,
      res as never,
      { ...config, sessionSecret: 'another-secret-0123456789-0123456789' },
      JSON.parse(content) as KeptVisit,
    );
    return res.cookie.mock.calls[0]![1] as string;
  };

  it.each<[string, () => string | undefined]>([
    ['no cookie', () => undefined],
    ['empty', () => ''],
    ['content changed, MAC kept', () => swapContent(genuine(), { locale: 'en', webview: false })],
    ['signed with another secret', () => resign('{"locale":"en"}')],
    ['MAC cut short', () => genuine().slice(0, -4)],
    ['another version', () => genuine().replace(/^v1\./, 'v2.')],
    ['an extra part', () => `${genuine()}.x`],
    ['oversized', () => `v1.${'A'.repeat(MAX_VISIT_COOKIE_CHARS)}.x`],
    ['not base64 JSON', () => 'v1.%%%.x'],
  ])('ignores a cookie that is %s', (_name, value) => {
    expect(decodeVisit(secret, value())).toEqual({});
  });

  it('honours the genuine one', () => {
    expect(decodeVisit(secret, genuine())).toEqual({ locale: 'fi-FI', webview: true });
  });

  it('refuses signed content that is not a visit (unknown fields, wrong types)', () => {
    // Signed by us but not of the visit's shape (a cookie of an older or newer build): ignored.
    const res = { cookie: vi.fn() };
    keepVisit({ headers: {}, secure: false } as never, res as never, config, { locale: 'xx' as never });
    expect(decodeVisit(secret, res.cookie.mock.calls[0]![1] as string)).toEqual({});
  });

  it('leaves the last entry parameters out when everything does not fit in a cookie; language and webview stay', async () => {
    const params = Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, '0')}=${'v'.repeat(400)}`).join('&');
    const res = await request(visitApp()).get(`/keep?locale=da-DK&webview=true&${params}`).expect(200);
    const value = visitValue(res)!;
    expect(value.length).toBeLessThanOrEqual(MAX_VISIT_COOKIE_CHARS);
    const kept = decodeVisit(secret, value);
    expect(kept).toMatchObject({ locale: 'da-DK', webview: true });
    const names = Object.keys(kept.queryParams ?? {});
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThan(12);
    expect(names).toEqual(Array.from({ length: names.length }, (_, i) => `p${String(i).padStart(2, '0')}`));
  });

  it('is not handed out over plain http when cookies are secure', async () => {
    const app = express();
    app.get('/keep', (req, res) => {
      keepVisit(req, res, { ...config, cookieSecure: true }, { webview: true });
      res.end();
    });
    const res = await request(app).get('/keep').expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('a page view without a stored session stores none', () => {
  function sessionApp(logger: { warn: (...args: unknown[]) => void }) {
    const app = express();
    app.use(sessionMiddleware({ secret, ttlMinutes: 30, secureCookie: false, prefix: 'unit', logger }));
    // A handler that (wrongly) keeps something in the session on any method.
    app.all('/write', (req, res) => {
      (req.session as unknown as Record<string, unknown>).note = req.method;
      req.session.save(() => res.json({ read: (req.session as unknown as Record<string, unknown>).note ?? null }));
    });
    app.get('/read', (req, res) => res.json({ note: (req.session as unknown as Record<string, unknown>).note ?? null }));
    return app;
  }
  const sid = (res: { headers: Record<string, unknown> }) => ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('onb.sid='));

  it('a GET or HEAD that writes a new session: no cookie, nothing stored, and a warning names it', async () => {
    const warn = vi.fn();
    const app = sessionApp({ warn });
    const get = await request(app).get('/write').expect(200);
    expect(sid(get)).toBeUndefined();
    const head = await request(app).head('/write').expect(200);
    expect(sid(head)).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ method: 'GET', path: '/write', fields: ['note'] }), expect.any(String));
  });

  it('a POST stores it, and a later GET of that stored session still changes it', async () => {
    const warn = vi.fn();
    const agent = request.agent(sessionApp({ warn }));
    expect(sid(await agent.post('/write').expect(200))).toBeDefined();
    expect((await agent.get('/read').expect(200)).body).toEqual({ note: 'POST' });
    await agent.get('/write').expect(200);
    expect((await agent.get('/read').expect(200)).body).toEqual({ note: 'GET' });
    expect(warn).not.toHaveBeenCalled();
  });
});
