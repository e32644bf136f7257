// /healthz: the process is up. /readyz: what this process needs to serve answers (Redis), so the router may send
// it traffic. An upstream that is down is not a reason to take every web process out of rotation: the pages then
// show the spec's try-again screen, which only a process in rotation can show. So /readyz asks Redis alone and sends
// nothing upstream (a router asks it every few seconds, from every instance: no BankID or brokerage call may cost
// that, nor wait on a hanging upstream). Its one wait is bounded: the Redis PING fails at once while the connection is
// down, and /readyz answers 503 after READY_WAIT_MS however long a stalled Redis keeps the PING, within a router's
// 1–5 s health-check timeout. So it answers 503 while Redis is away, and 200 again once it is back.
//
// /healthz is the app's first route (server/app.ts), before the request log, the deadline, the security headers and
// the session: it needs none of them and the platform asks it often (issue 23 item 2: as fast as an Express hello).
// So it carries no x-request-id and is never logged (nor was it before: the request log skipped it).
import { Router, type RequestHandler } from 'express';
import type { AppDeps } from './deps.ts';

const healthy = JSON.stringify({ ok: true });

/** The longest /readyz waits for Redis before it answers not ready. */
export const READY_WAIT_MS = 1000;

/** Whether `check` answers true within `ms` (a failure or no answer in time is false); the check is not waited for after. */
async function answersWithin(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([check().catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

export const healthz: RequestHandler = (_req, res) => {
  res.set({ 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' }).send(healthy);
};

export function readinessRoutes(deps: AppDeps): Router {
  const router = Router();
  // The metrics are never served on the public app's port (they are on METRICS_PORT, server/infra/metrics.ts): a
  // scraper pointed here gets a plain 404, not the journey's redirect to the start page.
  router.all('/metrics', (_req, res) => {
    res.status(404).set('cache-control', 'no-store').json({ error: 'Not found' });
  });
  router.get('/readyz', async (_req, res) => {
    const redis = deps.redis ? await answersWithin(READY_WAIT_MS, async () => (await deps.redis!.ping()) === 'PONG') : true;
    res
      .status(redis ? 200 : 503)
      .set('cache-control', 'no-store')
      .json({ ok: redis, checks: { redis } });
  });
  return router;
}
