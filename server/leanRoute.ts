// A route answered before Express (issue 24 item 2): the creation event stream, of which thousands stay open at once
// for minutes. Express and the app's middleware chain (server/app.ts) held something per request for the request's
// whole life: pino-http a child logger and its listeners, the request deadline a timer and an AbortController,
// compression and express-session wrappers around the answer's methods, the session itself, and Express's own
// router state (its next() and the properties it puts on the request, which gave every request a hidden class of
// its own). Measured at 2,000 open streams: 32 kB of RSS and 30 kB of JS heap per stream (a bare node:http server:
// 11 kB and 5 kB).
//
// What such a request still gets here, at a small fixed cost: its request id, the security headers that matter for
// an answer that is no document, Redis known to be down a 503 at once, the errors answered as the app's error
// handler answers a JSON caller (server/errors.ts), the request log line at its end (pino-http's fields: the
// request's id, method and scrubbed URL, the status, the time it was open), and its route for the metrics.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RedisConnection } from './infra/redis.ts';
import { requestIdFor, scrubUrl } from './logger.ts';
import { isRedisUnavailable, RedisUnavailableError } from './infra/redis.ts';
import { jsonErrorOf, unavailableHeaders } from './errors.ts';

export interface LeanRoute {
  /** An Express route pattern with one parameter (shared/routes.ts routePatterns), answered for GET and HEAD. */
  pattern: string;
  /** Answers the request; `param` is the pattern's parameter, URI-decoded. A rejection is answered as below. */
  handle(req: IncomingMessage, res: ServerResponse, param: string): Promise<void>;
}

export interface LeanRouteOptions {
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The site is served over TLS: HSTS. */
  httpsOnly: boolean;
  /** Redis mode: while it is known to be down, 503 at once. */
  redis?: RedisConnection;
}

/**
 * Helmet's headers (server/security.ts) as they apply to an answer that is no document: no sniffing, no reading from
 * another origin's page (Cross-Origin-Resource-Policy; nor any CORS header, so no cross-origin EventSource reads it),
 * no referrer, HSTS over TLS, and a policy that allows nothing.
 */
export function leanSecurityHeaders(httpsOnly: boolean): ReadonlyArray<readonly [string, string]> {
  return [
    ['content-security-policy', "default-src 'none'; frame-ancestors 'self'"],
    ['cross-origin-resource-policy', 'same-origin'],
    ['referrer-policy', 'same-origin'],
    ['x-content-type-options', 'nosniff'],
    ...(httpsOnly ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as const] : []),
  ];
}

/**
 * The parameter of `pattern` (`/a/:p/b`) in `url` as sent (still URI-encoded), or null when `url` is not on it. As
 * Express matches: case-insensitive, a trailing slash allowed, the query ignored.
 */
export function patternMatcher(pattern: string): (url: string) => string | null {
  const source = pattern
    .split(/:\w+/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([^/?#]+)');
  const re = new RegExp(`^${source}/?(?:\\?.*)?$`, 'i');
  return (url) => re.exec(url)?.[1] ?? null;
}

/** JSON as Express's res.json sends it. */
function answerJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** `route` answered ahead of `app`, which gets every other request. */
export function withLeanRoute(app: RequestListener, route: LeanRoute, options: LeanRouteOptions): RequestListener {
  const { logger, redis } = options;
  const headers = leanSecurityHeaders(options.httpsOnly);
  const paramOf = patternMatcher(route.pattern);
  // What the metrics read as the route (server/infra/metrics.ts: Express's req.route.path), one object for all.
  const matched = { path: route.pattern };

  // The app's error handler's answers to a JSON caller (server/errors.ts), and its log lines.
  const failed = (res: ServerResponse, err: unknown) => {
    if (isRedisUnavailable(err)) logger.warn({ err }, 'redis unavailable: answered 503');
    else logger.error({ err }, 'request failed');
    if (res.headersSent) return void res.end();
    if (isRedisUnavailable(err)) answerJson(res, 503, jsonErrorOf(503), unavailableHeaders);
    else answerJson(res, 500, jsonErrorOf(500));
  };

  return (req, res) => {
    const raw = req.method === 'GET' || req.method === 'HEAD' ? paramOf(req.url ?? '') : null;
    if (raw === null) return app(req, res);
    (req as IncomingMessage & { route?: unknown }).route = matched;
    const id = requestIdFor(req, res);
    for (const [name, value] of headers) res.setHeader(name, value);
    const startedAt = Date.now();
    // `on`, not `once`: 'close' comes once, and `once` wraps the listener in a closure more.
    res.on('close', () => {
      const line = { req: { id, method: req.method, url: scrubUrl(req.url ?? '') }, res: { statusCode: res.statusCode }, responseTime: Date.now() - startedAt };
      // As pino-http logs: a 5xx as an error; an answer the client left before its end (a stream's usual end) as aborted.
      if (res.statusCode >= 500) logger.error({ ...line, err: new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
      else logger.info(line, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
    });
    // Redis known to be down: the 503 at once rather than a session read that fails (server/infra/redis.ts requireRedis).
    if (redis && !redis.isReady) return failed(res, new RedisUnavailableError('Redis is not connected'));
    let param: string;
    try {
      param = decodeURIComponent(raw);
    } catch (err) {
      logger.warn({ status: 400, message: (err as Error).message }, 'bad request');
      return answerJson(res, 400, jsonErrorOf(400));
    }
    route.handle(req, res, param).catch((err: unknown) => failed(res, err));
  };
}
