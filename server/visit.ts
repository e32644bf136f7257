// The visit's values kept before the person identifies (journey.ts VisitState: the language, the webview, the campaign,
// the carried entry query), in a signed cookie `v1.<content>.<mac>` instead of a server-side session, so a stranger's
// page views store nothing. The journey reads them from here until the person identifies; then they are the session
// journey's (server/pages.ts journeyOf). A tampered, oversized or unreadable cookie is ignored, never an error; its
// attributes follow the session cookie's (docs/infrastructure.md "No session for a page view").
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { supportedLocales } from '../shared/i18n.ts';
import { campaigns } from '../shared/shell.ts';
import type { VisitState } from './journey.ts';
import { readCookie } from './cookies.ts';

/** The visit values the cookie can hold (the country comes from the host, the customer type from a post). */
export type KeptVisit = Partial<Pick<VisitState, 'locale' | 'webview' | 'campaign' | 'queryParams'>>;

const keptVisit = z
  .object({
    locale: z.enum(supportedLocales).optional(),
    webview: z.boolean().optional(),
    campaign: z.enum(campaigns).optional(),
    queryParams: z.record(z.string(), z.string()).optional(),
  })
  .strict();

/** Browsers keep about 4096 bytes per cookie, name and attributes included. */
export const MAX_VISIT_COOKIE_CHARS = 3600;
const VERSION = 'v1';

export function visitCookieName(secureCookie: boolean): string {
  return secureCookie ? '__Host-onb.visit' : 'onb.visit';
}

// A key of its own, so this MAC can never stand in for another use of the secret (express-session's).
const keys = new Map<string, Buffer>();
function keyFor(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('onboarding visit cookie').digest();
    keys.set(secret, key);
  }
  return key;
}

const macOf = (secret: string, signed: string): Buffer => createHmac('sha256', keyFor(secret)).update(signed).digest();

/** The cookie's value for `visit`, or null when it would be too large for a cookie. */
function encode(secret: string, visit: KeptVisit): string | null {
  const signed = `${VERSION}.${Buffer.from(JSON.stringify(visit), 'utf8').toString('base64url')}`;
  const value = `${signed}.${macOf(secret, signed).toString('base64url')}`;
  return value.length <= MAX_VISIT_COOKIE_CHARS ? value : null;
}

/** The visit the cookie's value holds, or an empty one when it is missing, too large, unsigned, tampered with or unreadable. */
export function decodeVisit(secret: string, value: string | undefined): KeptVisit {
  if (!value || value.length > MAX_VISIT_COOKIE_CHARS) return {};
  const [version, content, mac, ...rest] = value.split('.');
  if (version !== VERSION || !content || !mac || rest.length > 0) return {};
  const expected = macOf(secret, `${version}.${content}`);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return {};
  try {
    const parsed = keptVisit.safeParse(JSON.parse(Buffer.from(content, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export interface VisitCookieConfig {
  sessionSecret: string;
  cookieSecure: boolean;
}

// What this request's cookie holds, read once; a value kept during the request replaces it.
const current = new WeakMap<Request, KeptVisit>();

/** The visit values the request's cookie holds (empty when it has none or one that is not ours). */
export function visitOf(req: Request, config: VisitCookieConfig): KeptVisit {
  let visit = current.get(req);
  if (!visit) {
    visit = decodeVisit(config.sessionSecret, readCookie(req, visitCookieName(config.cookieSecure)));
    current.set(req, visit);
  }
  return visit;
}

/**
 * Keeps `values` in the visit cookie, over what it held (the entry query is added to, as the journey's was).
 * When everything does not fit in a cookie, the entry query's last parameters are left out: the language,
 * webview and campaign are always kept.
 */
export function keepVisit(req: Request, res: Response, config: VisitCookieConfig, values: KeptVisit): void {
  // A Secure cookie is never handed out over plain http (as express-session does with the session cookie).
  if (config.cookieSecure && !req.secure) return;
  const before = visitOf(req, config);
  const next: KeptVisit = { ...before, ...values };
  if (values.queryParams) next.queryParams = { ...before.queryParams, ...values.queryParams };
  let value = encode(config.sessionSecret, next);
  const entries = Object.entries(next.queryParams ?? {});
  while (value === null && entries.length > 0) {
    entries.pop();
    next.queryParams = Object.fromEntries(entries);
    value = encode(config.sessionSecret, next);
  }
  if (value === null) return;
  current.set(req, next);
  res.cookie(visitCookieName(config.cookieSecure), value, { httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, path: '/' });
}

/** Tells the browser to drop the visit cookie (the visit ends: Exit, Return to site). */
export function clearVisitCookie(res: Response, secureCookie: boolean): void {
  res.clearCookie(visitCookieName(secureCookie), { httpOnly: true, sameSite: 'lax', secure: secureCookie, path: '/' });
}
