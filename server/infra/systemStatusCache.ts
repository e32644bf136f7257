// The brokerage's system status for the page shell (identification-routing-creation §3, §8, §9): the maintenance
// banner or the high-load notice on every page. One call per web process per SYSTEM_STATUS_CACHE_MS, shared by the pages
// that ask meanwhile. A notice, never a reason for a page to fail or hang: its own short deadline, run outside the
// request, a failure remembered as "unknown" (no banner) for the cache time (docs/infrastructure.md "Caches").
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { SystemStatus } from '../../shared/contracts/brokerageContract.ts';
import { outsideRequest, withDeadline } from './deadline.ts';

export interface SystemStatusCache {
  /**
   * The status for a page being made now: the cached one while it is fresh, else the answer of the call in flight
   * (started if none), waited on at most until the call's own deadline. Null when the status is unknown (the call
   * failed or took too long). Never rejects.
   */
  current(): Promise<SystemStatus | null>;
}

export interface SystemStatusCacheOptions {
  /** The public status call (server/upstream/brokerageClient.ts systemStatus without a person's token). */
  fetch: () => Promise<SystemStatus>;
  /** How long an answer (or a failure) is used before the next page asks again. */
  ttlMs: number;
  /** The call's own deadline. */
  timeoutMs: number;
  logger: Logger;
  now?: () => number;
}

class StatusCallTimedOut extends Error {
  constructor(ms: number) {
    super(`system status call took longer than ${ms} ms`);
    this.name = 'StatusCallTimedOut';
  }
}

/** `promise`, or a rejection after `ms` if it has not settled by then (a call that ignores its deadline still ends). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StatusCallTimedOut(ms)), ms);
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export function createSystemStatusCache(options: SystemStatusCacheOptions): SystemStatusCache {
  const now = options.now ?? Date.now;
  let cached: { status: SystemStatus | null; at: number } | undefined;
  let inFlight: Promise<SystemStatus | null> | undefined;

  function refresh(): Promise<SystemStatus | null> {
    // Background work: outside the page's request, with a deadline of its own (server/infra/deadline.ts).
    inFlight ??= outsideRequest(() =>
      within(
        withDeadline(options.timeoutMs, async () => options.fetch()),
        options.timeoutMs,
      )
        .catch((err: unknown) => {
          options.logger.warn({ err }, 'system status unavailable: pages show no status banner');
          return null;
        })
        .then((status) => {
          cached = { status, at: now() };
          inFlight = undefined;
          return status;
        }),
    );
    return inFlight;
  }

  return {
    current() {
      if (cached && now() - cached.at < options.ttlMs) return Promise.resolve(cached.status);
      // Not raced against the request's deadline: the page asks before its handler runs, with its whole budget left,
      // and asking for that deadline would start its clock while an upload's body is still arriving.
      return refresh();
    },
  };
}

const LOCALS_KEY = 'systemStatus';

/**
 * Reads the status before a page's handler runs, for the page shell (server/pages.ts sendPage), which renders
 * synchronously. `forPage` says which requests may render a page (not the JSON polls or the event stream).
 */
export function systemStatusForPages(cache: SystemStatusCache, forPage: (req: Request) => boolean): RequestHandler {
  return (req, res, next) => {
    if (!forPage(req)) return next();
    void cache
      .current()
      .catch(() => null)
      .then((status) => {
        res.locals[LOCALS_KEY] = status;
        next();
      });
  };
}

/** The status the middleware read for this response; null when unknown or not read (no banner). */
export function systemStatusOf(res: Response): SystemStatus | null {
  return (res.locals[LOCALS_KEY] as SystemStatus | null | undefined) ?? null;
}
