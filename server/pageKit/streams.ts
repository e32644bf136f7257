// Event streams, answered ahead of Express: thousands stay open for minutes, and Express's middleware chain held
// tens of kilobytes per request for its whole life (docs/benchmarks.md). A stream still gets what every request
// gets, from the very functions the app uses: its request id and log line (server/requestLog.ts), its security
// headers (helmet), the 503 while Redis is down, the route matched as Express matches it, and errors answered as
// the error handler answers a JSON caller. The session is read once, never written.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { match } from 'path-to-regexp';
import type { AppDeps } from '../deps.ts';
import type { Page, StreamContext } from './definePage.ts';
import type { SessionReader } from '../session.ts';
import { journeyAllowed } from './access.ts';
import { failureStatusOf, jsonFailure, logFailure } from '../errors.ts';
import { routePatterns, type RouteName } from '../../shared/routes.ts';

/** A middleware of the app's own, run on a bare request: Express's (req, res, next) shape. */
export type BareMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export interface StreamPipeline {
  /** The app's request logger (server/requestLog.ts): the request id and the log line at the answer's end. */
  logRequest: BareMiddleware;
  /** The headers helmet gives an answer that is no document. */
  securityHeaders: BareMiddleware;
  /** Redis known to be down: the error at once (server/infra/redis.ts requireRedis). */
  requireRedis: BareMiddleware;
  readSession: SessionReader;
}

/** Decodes a parameter as Express's router does: a malformed escape is the caller's error (400). */
function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (err) {
    throw Object.assign(err as Error, { status: 400 });
  }
}

/** Express's matcher for `pattern` (path-to-regexp, as its router sets it up): case-insensitive, a trailing slash allowed. */
export function streamMatcher(pattern: string): (url: string) => Record<string, string> | null {
  const matches = match(pattern, { sensitive: false, end: true, trailing: true, decode: decodeParam });
  return (url) => {
    const found = matches(url.split('?')[0] ?? '');
    return found ? (found.params as Record<string, string>) : null;
  };
}

const run = (middleware: BareMiddleware, req: IncomingMessage, res: ServerResponse) =>
  new Promise<void>((resolve, reject) => middleware(req, res, (err) => (err ? reject(err) : resolve())));

/** `app` with the declared pages' event streams answered ahead of it; it gets every other request. */
export function withStreams(app: RequestListener, pages: readonly Page[], deps: AppDeps, pipeline: StreamPipeline): RequestListener {
  const streams = pages.flatMap((page) => {
    const stream = page.stream;
    if (!stream) return [];
    const pattern = routePatterns[page.route as RouteName];
    // What the metrics read as the route (Express's req.route.path), one object for all.
    return [{ page, stream, matches: streamMatcher(pattern), route: { path: pattern } }];
  });

  const failed = (res: ServerResponse, err: unknown) => {
    const status = failureStatusOf(err);
    logFailure(deps.logger, err, status);
    if (res.headersSent) return void res.end();
    const { headers, body } = jsonFailure(status);
    res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, found: (typeof streams)[number], params: Record<string, string>) => {
    await run(pipeline.securityHeaders, req, res);
    await run(pipeline.requireRedis, req, res);
    const session = await pipeline.readSession(req);
    const journey = journeyAllowed(found.page.access, session?.journey, params.prospectId);
    if (journey === null) {
      res.writeHead(403, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(JSON.stringify({ error: 'forbidden' }));
    }
    await (found.stream as (ctx: StreamContext<RouteName, 'anyone'>) => Promise<void>)({ req, res, params: params as never, journey: journey as undefined });
  };

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return app(req, res);
    let params: Record<string, string> | null = null;
    let badParam: unknown;
    const found = streams.find((s) => {
      try {
        params = s.matches(req.url ?? '');
      } catch (err) {
        badParam = err;
        return true;
      }
      return params !== null;
    });
    if (!found) return app(req, res);
    (req as IncomingMessage & { route?: unknown }).route = found.route;
    pipeline.logRequest(req, res, () => {});
    if (badParam) return failed(res, badParam);
    answer(req, res, found, params!).catch((err: unknown) => failed(res, err));
  };
}
