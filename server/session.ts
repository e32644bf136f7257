// Sessions: Redis (connect-redis 9 + node-redis) when REDIS_URL is set, the memory store otherwise.
// The cookie lives only for the browser session (no Max-Age or Expires); the server forgets a session
// after SESSION_TTL_MINUTES without a request (rolling idle timeout, as a bank's): connect-redis sets
// the key's TTL from its `ttl` option on every save and touch when the cookie has no expiry, and the
// memory store below does the same in development.
import session from 'express-session';
import { RedisStore } from 'connect-redis';
import type { RedisClientType } from 'redis';
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

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

/**
 * True for a GET or HEAD that came without a stored session: its session is never stored and its id is no
 * one else's, so it has nothing to take turns with (infra/sessionLocks.ts skips the lock).
 */
export function isUnstoredPageView(req: Request): boolean {
  return unstored.has(req);
}

const readsOnly = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * Nobody who has not acted gets a session from a page view (issue 17, item 12): a GET or HEAD without a
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
    Object.defineProperty(session, 'save', {
      configurable: true,
      enumerable: false,
      writable: true,
      value(callback?: (err?: Error) => void) {
        forget();
        callback?.();
        return session;
      },
    });
    // Before express-session's own wrappers (registered earlier, so called after these): the cookie is
    // decided when the headers are written, the save when the answer ends.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((...args: unknown[]) => {
      forget();
      return writeHead(...args);
    }) as typeof res.writeHead;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      forget();
      return end(...args);
    }) as typeof res.end;
    next();
  };
}

export function sessionMiddleware(options: {
  secret: string;
  ttlMinutes: number;
  secureCookie: boolean;
  redis?: RedisClientType;
  prefix: string;
  logger?: Pick<Logger, 'warn'>;
}): RequestHandler {
  const store: session.Store = options.redis
    ? new RedisStore({ client: options.redis, prefix: `${options.prefix}:sess:`, ttl: options.ttlMinutes * 60 })
    : new IdleMemoryStore(options.ttlMinutes * 60_000);
  // saveUninitialized: false for every save, not only express-session's own: the per-session lock
  // (infra/sessionLocks.ts) saves each session it handled, and an anonymous page view's session holds
  // nothing but its cookie. Such a session is never stored, so no one can fill Redis with page views.
  const set = store.set.bind(store);
  store.set = (sid, sess, callback) => (Object.keys(sess).some((key) => key !== 'cookie') ? set(sid, sess, callback) : callback?.());
  const sessions = session({
    name: sessionCookieName(options.secureCookie),
    secret: options.secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    // proxy unset: express-session follows the app's 'trust proxy' (TRUST_PROXY) for X-Forwarded-Proto.
    // No maxAge: the cookie ends with the browser session; the store's idle TTL ends it on the server.
    cookie: cookieOptions(options.secureCookie),
  });
  const pageViews = pageViewsStoreNoSession(options.logger);
  return (req, res, next) => sessions(req, res, (err?: unknown) => (err ? next(err) : pageViews(req, res, next)));
}
