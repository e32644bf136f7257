// The request log line, one for every request (the Express app's and an event stream's, server/pageKit/streams.ts):
// the request's id, method and scrubbed URL, the status and the time it was open. Written when the answer closes,
// without a per-request child logger (pino-http made two for every request, and nothing read them).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { errorSerializer, requestIdFor, scrubUrl } from './logger.ts';

type Req = Pick<IncomingMessage, 'method' | 'url' | 'readableAborted'> & { id?: unknown };
type Res = Pick<ServerResponse, 'statusCode' | 'writableEnded'>;

const serializers = {
  req: (req: Req) => ({ id: req.id, method: req.method, url: scrubUrl(req.url ?? '') }),
  res: (res: Res) => ({ statusCode: res.statusCode }),
  // Type, message and stack, no other field of the error (server/logger.ts).
  err: errorSerializer,
};

/** A 5xx (or an error) is ours to look at; anything else is information. */
const levelOf = (_req: unknown, res: Res, err?: unknown) => (err || res.statusCode >= 500 ? 'error' : 'info');
/** An answer the client left before its end (a stream's usual end) is aborted. */
const messageOf = (req: Req, res: Res) => (!req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');

/** Requests without a log line (the readiness probe, the build files); their answers still say their id. */
const unlogged = (url: string) => url === '/readyz' || url.startsWith('/build/');

/** The Express app's request log (as logStreamRequest's, the probe and the build files left out). */
export function requestLogger(logger: Pick<Logger, 'info' | 'error'>) {
  const logRequest = logStreamRequest(logger);
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (!unlogged(req.url ?? '')) return logRequest(req, res, next);
    requestIdFor(req, res);
    next();
  };
}

/** A request's log line: its id now, the line when the answer closes. */
export function logStreamRequest(logger: Pick<Logger, 'info' | 'error'>) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const id = requestIdFor(req, res);
    const startedAt = Date.now();
    // `on`, not `once`: 'close' comes once, and `once` wraps the listener in a closure more.
    res.on('close', () => {
      const line = {
        req: serializers.req({ id, method: req.method, url: req.url, readableAborted: req.readableAborted }),
        res: serializers.res(res),
        responseTime: Date.now() - startedAt,
      };
      if (levelOf(req, res) === 'error')
        logger.error({ ...line, err: serializers.err(new Error(`failed with status code ${res.statusCode}`)) }, 'request errored');
      else logger.info(line, messageOf(req, res));
    });
    next();
  };
}
