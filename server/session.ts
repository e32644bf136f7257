// Sessions: Redis (connect-redis 9 + node-redis) when REDIS_URL is set, the memory store otherwise.
// The cookie lives only for the browser session (no Max-Age or Expires); the server forgets a session
// after SESSION_TTL_MINUTES without a request (rolling idle timeout, as a bank's): connect-redis sets
// the key's TTL from its `ttl` option on every save and touch when the cookie has no expiry, and the
// memory store below does the same in development.
import type { IncomingMessage } from 'node:http';
import { unsign } from 'cookie-signature';
import session, { type SessionData } from 'express-session';
import { RedisStore } from 'connect-redis';
import type { RedisConnection } from './infra/redis.ts';
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { readCookie } from './cookies.ts';
import { sessionKeyPrefix } from './infra/keyLayout.ts';
import { randomBytesPooled } from './security.ts';

/**
 * The session cookie's name. With secure cookies it carries the `__Host-` prefix: browsers then only
 * accept it when it is Secure, has Path=/ and no Domain, so no sibling host or plain-http page can set
 * or overwrite it. Without Secure (local http) browsers would refuse a `__Host-` cookie.
 */
export function sessionCookieName(secureCookie: boolean): string {
  return secureCookie ? '__Host-onb.sid' : 'onb.sid';
}

function cookieOptions(secureCookie: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: secureCookie, path: '/' };
}

/** Tells the browser to drop the session cookie (same name, path and flags as when it was set). */
export function clearSessionCookie(res: Response, secureCookie: boolean): void {
  res.clearCookie(sessionCookieName(secureCookie), cookieOptions(secureCookie));
}

/**
 * express-session's memory store expires a session only by its cookie's expiry, which a browser-session
 * cookie has not: this one forgets a session idle for longer than `idleMs`, like the Redis key's TTL.
 */
export class IdleMemoryStore extends session.MemoryStore {
  private readonly lastSeen = new Map<string, number>();
  private nextSweep = 0;

  constructor(private readonly idleMs: number) {
    super();
  }

  private seen(sid: string): void {
    const now = Date.now();
    this.lastSeen.set(sid, now);
    if (now < this.nextSweep) return;
    // Sessions never asked for again are dropped here, at most once a minute.
    this.nextSweep = now + 60_000;
    for (const [id, at] of this.lastSeen) if (now - at > this.idleMs) this.destroy(id);
  }

  override get(sid: string, callback: (err: unknown, session?: session.SessionData | null) => void): void {
    const at = this.lastSeen.get(sid);
    if (at !== undefined && Date.now() - at > this.idleMs) {
      this.destroy(sid, () => callback(null, null));
      return;
    }
    super.get(sid, callback);
  }

  override set(sid: string, sess: session.SessionData, callback?: (err?: unknown) => void): void {
    this.seen(sid);
    super.set(sid, sess, callback);
  }

  override touch(sid: string, sess: session.SessionData, callback?: () => void): void {
    if (this.lastSeen.has(sid)) this.seen(sid);
    super.touch(sid, sess, callback);
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.lastSeen.delete(sid);
    super.destroy(sid, callback);
  }
}

// The sessions of GET and HEAD requests that arrived without a stored one (see pageViewsStoreNoSession).
const unstored = new WeakSet<Request>();

const readsOnly = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * Nobody who has not acted gets a session from a page view: a GET or HEAD without a
 * stored session never stores one and never sets the session cookie, whatever its handler does. Values a
 * visitor's page views keep go into the visit cookie (server/visit.ts); a session starts with the
 * person's first post (choosing the applicant type, identifying). A GET that tried to keep something in
 * such a session is logged, so a route that relies on it is found.
 */
function pageViewsStoreNoSession(logger?: Pick<Logger, 'warn'>): RequestHandler {
  return (req, res, next) => {
    // A session holding anything besides its cookie was loaded from the store (empty ones are never stored).
    if (!readsOnly(req.method) || !req.session || Object.keys(req.session).some((key) => key !== 'cookie')) return next();
    unstored.add(req);
    const session = req.session;
    let warned = false;
    // Back to an untouched new session: express-session then neither saves it nor sets its cookie.
    const forget = () => {
      const kept = Object.keys(session).filter((key) => key !== 'cookie');
      if (kept.length > 0 && !warned) {
        warned = true;
        logger?.warn({ method: req.method, path: req.path, fields: kept }, 'a page view kept something in a new session; not stored');
      }
      for (const key of kept) delete (session as unknown as Record<string, unknown>)[key];
    };
    // The cookie is decided when the headers are written (before express-session's own wrapper, as below).
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((...args: unknown[]) => {
      forget();
      return writeHead(...args);
    }) as typeof res.writeHead;
    settleBeforeSaving(session, res, forget);
    next();
  };
}

/**
 * Runs `settle` on a save the handler asks for, which then stores nothing, and when the answer ends, before
 * express-session's own end (registered earlier, so called after this one) decides on a save or a touch.
 */
function settleBeforeSaving(kept: session.Session, res: Response, settle: () => void): void {
  Object.defineProperty(kept, 'save', {
    configurable: true,
    enumerable: false,
    writable: true,
    value(callback?: (err?: Error) => void) {
      settle();
      callback?.();
      return kept;
    },
  });
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    settle();
    return end(...args);
  }) as typeof res.end;
}

// The page views that only read (a declared page's `session: 'reads'`, server/pageKit/mountPages.ts).
const readOnly = new WeakSet<Request>();

/**
 * True for a page view that writes nothing back: one declared read-only, or one without a stored session. It has nothing
 * to take turns with, so infra/sessionLocks.ts takes no lock, re-reads nothing and saves nothing for it.
 */
export function writesNothingBack(req: Request): boolean {
  return readOnly.has(req) || unstored.has(req);
}

/**
 * The session as express-session hashes it to decide on a save: everything but its cookie. Without a replacer, which
 * would take JSON.stringify off its fast path for every value of the session.
 */
const storedForm = (session: object): string => {
  const { cookie: _cookie, ...stored } = session as Record<string, unknown>;
  return JSON.stringify(stored);
};

/** The dotted paths (names only, no values) at which `after` differs from `before`, a few levels down. */
function changedPaths(before: unknown, after: unknown, path = '', depth = 3): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (depth === 0 || !isObject(before) || !isObject(after)) return [path || '(session)'];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].flatMap((key) => changedPaths(before[key], after[key], path ? `${path}.${key}` : key, depth - 1));
}

// A renewed access token (shared/asPerson.ts) is the one change a read-only view makes by design: not kept (the next post
// renews it again and keeps it), and not worth a warning.
const renewedToken = 'journey.jwt';

/**
 * A GET or HEAD of a page that only reads takes no session lock and writes nothing back: only the session's idle TTL
 * is rolled, and it never waits behind a post. Whatever its handler changes in the session is put back as it was
 * loaded before express-session looks, and logged with the changed fields' names, so a route that does write is found
 * (docs/infrastructure.md "Read-only page views").
 */
export function readOnlyPageViews(options: { secureCookie: boolean; logger?: Pick<Logger, 'warn' | 'debug'> }): RequestHandler {
  const { logger } = options;
  const ownCookie = `${sessionCookieName(options.secureCookie)}=`;
  return (req, res, next) => {
    if (!readsOnly(req.method) || !req.session || unstored.has(req)) return next();
    readOnly.add(req);
    // Nor is the session cookie sent again (rolling): it has no Max-Age, so sending it changes nothing for the browser,
    // except when a post replaced the session meanwhile (identifying again), whose new cookie this answer would undo.
    const setHeader = res.setHeader.bind(res);
    res.setHeader = ((name: string, value: number | string | readonly string[]) => {
      if (name.toLowerCase() !== 'set-cookie') return setHeader(name, value);
      const cookies = (Array.isArray(value) ? value : [String(value)]).filter((c: string) => !c.startsWith(ownCookie));
      return cookies.length > 0 ? setHeader(name, cookies) : res;
    }) as typeof res.setHeader;
    const session = req.session;
    const loaded = storedForm(session);
    let logged = false;
    const putBack = () => {
      const now = storedForm(session);
      if (now === loaded) return;
      const before = JSON.parse(loaded) as Record<string, unknown>;
      if (!logged) {
        logged = true;
        const fields = changedPaths(before, JSON.parse(now));
        if (fields.length === 1 && fields[0] === renewedToken) logger?.debug('a read-only page view renewed the access token; not stored');
        else logger?.warn({ method: req.method, route: req.route?.path, fields }, 'a read-only page view changed its session; not stored');
      }
      for (const key of Object.keys(session)) if (key !== 'cookie') delete (session as unknown as Record<string, unknown>)[key];
      Object.assign(session, before);
    };
    // express-session then finds the session as loaded and only touches it.
    settleBeforeSaving(session, res, putBack);
    next();
  };
}

/** The sessions' store: Redis (connect-redis, `<prefix>:sess:<id>`) with `redis`, else the idle memory store. */
export function createSessionStore(options: { ttlMinutes: number; redis?: RedisConnection; prefix: string }): session.Store {
  const store: session.Store = options.redis
    ? new RedisStore({ client: options.redis, prefix: sessionKeyPrefix(options.prefix), ttl: options.ttlMinutes * 60 })
    : new IdleMemoryStore(options.ttlMinutes * 60_000);
  // saveUninitialized: false for every save, not only express-session's own: the per-session lock
  // (infra/sessionLocks.ts) saves each session it handled, and an anonymous page view's session holds
  // nothing but its cookie. Such a session is never stored, so no one can fill Redis with page views.
  const set = store.set.bind(store);
  store.set = (sid, sess, callback) => (Object.keys(sess).some((key) => key !== 'cookie') ? set(sid, sess, callback) : callback?.());
  return store;
}

/**
 * The session id a session cookie's value names when express-session signed it with `secret` (`s:<id>.<signature>`,
 * checked by cookie-signature, the library express-session signs with), else null: absent, unsigned or signed otherwise.
 */
export function signedSessionId(value: string | undefined, secret: string): string | null {
  if (!value?.startsWith('s:')) return null;
  const sid = unsign(value.slice(2), secret);
  return sid === false || sid === '' ? null : sid;
}

/** A request's stored session, read once; null without a valid session cookie or a stored session. */
export type SessionReader = (req: Pick<IncomingMessage, 'headers'>) => Promise<Partial<SessionData> | null>;

/**
 * Reads a request's session as express-session would (the same cookie, signature and store) for a route that runs
 * without it (the creation event stream): the stored data once, no Session object on the request,
 * nothing saved or touched afterwards, no cookie set. A store that fails (Redis away) rejects, as express-session passes
 * its error on.
 */
export function sessionReader(options: { store: session.Store; secret: string; secureCookie: boolean }): SessionReader {
  const { store, secret } = options;
  const name = sessionCookieName(options.secureCookie);
  return (req) => {
    const sid = signedSessionId(readCookie(req, name), secret);
    if (sid === null) return Promise.resolve(null);
    return new Promise((resolve, reject) =>
      store.get(sid, (err: unknown, sess) => {
        // express-session's own reading: ENOENT is no session, any other error is passed on.
        if (err && (err as { code?: unknown }).code !== 'ENOENT') reject(err);
        else resolve(sess ?? null);
      }),
    );
  };
}

/** `store`: one shared with a sessionReader (server/app.ts); without it, one of its own (createSessionStore). */
export function sessionMiddleware(options: {
  secret: string;
  ttlMinutes: number;
  secureCookie: boolean;
  redis?: RedisConnection;
  prefix: string;
  store?: session.Store;
  logger?: Pick<Logger, 'warn'>;
}): RequestHandler {
  const store = options.store ?? createSessionStore(options);
  const sessions = session({
    name: sessionCookieName(options.secureCookie),
    secret: options.secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    // express-session's own form of id (24 random bytes, base64url), drawn from the pool: every page view without a
    // session gets a new one, stored or not.
    genid: () => randomBytesPooled(24).toString('base64url'),
    // proxy unset: express-session follows the app's 'trust proxy' (TRUST_PROXY) for X-Forwarded-Proto.
    // No maxAge: the cookie ends with the browser session; the store's idle TTL ends it on the server.
    cookie: cookieOptions(options.secureCookie),
  });
  const pageViews = pageViewsStoreNoSession(options.logger);
  return (req, res, next) => sessions(req, res, (err?: unknown) => (err ? next(err) : pageViews(req, res, next)));
}
