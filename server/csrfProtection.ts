// Cross-site request forgery defence (issue "Hardening what exists", item 7). The session cookie's
// SameSite=Lax alone let any site post forms into a person's journey from a same-site host or an old
// browser; now every state-changing request must show where it comes from (shared/csrf.ts decides):
// Sec-Fetch-Site, else Origin, else a token.
//
// The token (browsers that send neither header): a signed double submit. A random value lives in its
// own cookie (`__Host-` prefixed with secure cookies, so no other host can plant one; HttpOnly;
// SameSite=Lax; browser-session lifetime), set when a page renders a post form; the form carries
// HMAC(SESSION_SECRET, value) in `_csrf` (views/components/CsrfField.tsx). A site that cannot read our
// pages cannot compute it. It needs no server-side session: an anonymous visitor's page stores nothing.
//
// Where the token is read: the urlencoded or JSON body's `_csrf`, or the X-CSRF-Token header. Multipart
// posts (uploads) are parsed by their route after this check, so their form carries the token in the
// action's query instead (withCsrfQuery); that is only read for multipart bodies.
//
// GETs are not checked: the journey is entered by links from anywhere, and some GETs that move it on
// arrive from other sites by design. The broker's return reaches /onboarding?code= and then
// /onboarding/routing through a redirect chain that browsers mark cross-site, and the signing service
// sends the browser to the creation page. Those GETs act only on what this session itself started (the
// OIDC state, shared/oidcState.ts callbackAction; an identified session's prospect) and at most once
// per identification, so a stranger's link can only trigger the step the person is due to take anyway.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Config } from './config.ts';
import { readCookie } from './cookies.ts';
import { ownOrigins } from './origins.ts';
import { csrfVerdict, type TokenState } from '../shared/csrf.ts';
import { CSRF_FIELD } from '../views/components/CsrfField.tsx';

type CsrfConfig = Pick<Config, 'publicUrl' | 'countryByHost' | 'sessionSecret' | 'cookieSecure'>;

export const CSRF_HEADER = 'x-csrf-token';

/** `__Host-`: only this exact host, over https, path / can set it (not a sibling subdomain, not plain http). */
export const csrfCookieName = (secure: boolean): string => (secure ? '__Host-onb.csrf' : 'onb.csrf');

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

function sign(secret: string, value: string): string {
  // Domain-separated from the session cookie's signature, which uses the same secret.
  return createHmac('sha256', secret).update(`csrf-token:${value}`).digest('base64url');
}

/**
 * The token for the forms of the page being rendered; sets the cookie when the browser has none yet.
 * Memoised per response: several forms on one page share one cookie value.
 */
export function csrfTokenFor(req: Request, res: Response, config: CsrfConfig): string {
  const memo = res.locals.csrfToken as string | undefined;
  if (memo) return memo;
  const name = csrfCookieName(config.cookieSecure);
  let value = readCookie(req, name);
  if (!value || !COOKIE_VALUE.test(value)) {
    value = randomBytes(32).toString('base64url');
    res.cookie(name, value, { httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, path: '/' });
  }
  const token = sign(config.sessionSecret, value);
  res.locals.csrfToken = token;
  return token;
}

function postedToken(req: Request): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const fromBody = body && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
  if (typeof fromBody === 'string') return fromBody;
  const fromHeader = req.get(CSRF_HEADER);
  if (fromHeader) return fromHeader;
  if (req.is('multipart/form-data')) {
    const fromQuery = req.query[CSRF_FIELD];
    if (typeof fromQuery === 'string') return fromQuery;
  }
  return undefined;
}

function tokenState(req: Request, config: CsrfConfig): TokenState {
  const token = postedToken(req);
  if (!token) return 'missing';
  const value = readCookie(req, csrfCookieName(config.cookieSecure));
  if (!value || !COOKIE_VALUE.test(value)) return 'invalid';
  const expected = Buffer.from(sign(config.sessionSecret, value));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid';
}

/** A state-changing request we will not run: 403, rendered by server/errors.ts. */
export class CsrfRefusedError extends Error {
  readonly status = 403;
  constructor(readonly reason: string) {
    super(`state-changing request refused: ${reason}`);
    this.name = 'CsrfRefusedError';
  }
}

/** Refuses state-changing requests that do not come from our own pages. Mount after the body parsers. */
export function csrfProtection(config: CsrfConfig): RequestHandler {
  return (req, _res, next) => {
    const verdict = csrfVerdict({
      method: req.method,
      secFetchSite: req.get('sec-fetch-site'),
      origin: req.get('origin'),
      // Per request: tests learn the port only after listen (server/origins.ts).
      ownOrigins: ownOrigins(config).map((o) => o.origin),
      token: () => tokenState(req, config),
    });
    if (verdict.ok) return next();
    next(new CsrfRefusedError(verdict.reason));
  };
}
