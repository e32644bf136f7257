// Cross-site request forgery defence: every state-changing request must show where it comes from (shared/csrf.ts
// decides): Sec-Fetch-Site, else Origin, else a signed double-submit token (views/components/CsrfField.tsx), since the
// session cookie's SameSite=Lax alone let a same-site host or an old browser post into a person's journey. GETs are not
// checked. How the token works and why GETs may come from anywhere: docs/security.md "The anti-forgery token".
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Config } from './config.ts';
import { readCookie } from './cookies.ts';
import { ownOrigins } from './origins.ts';
import { randomBytesPooled } from './security.ts';
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
    value = randomBytesPooled(32).toString('base64url');
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
      // Per request (tests learn the port only after listen, server/origins.ts), and only when asked: a GET never is.
      get ownOrigins() {
        return ownOrigins(config).map((o) => o.origin);
      },
      token: () => tokenState(req, config),
    });
    if (verdict.ok) return next();
    next(new CsrfRefusedError(verdict.reason));
  };
}
