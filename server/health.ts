// /healthz: the process is up. /readyz: Redis answers, so the router may send it traffic; it sends nothing upstream (an
// upstream outage shows the try-again page, which only a process in rotation can show) and answers 503 within
// READY_WAIT_MS however long a stalled Redis keeps the PING. /healthz is the app's first route, before the request log and
// the session: fast, never logged, no x-request-id. Why: docs/infrastructure.md "Health".
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
