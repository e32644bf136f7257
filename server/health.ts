// /healthz: the process is up. /readyz: what this process needs to serve answers (Redis), so the router may send
// it traffic. An upstream that is down is not a reason to take every web process out of rotation: the pages then
// show the spec's try-again screen, which only a process in rotation can show (issue 24). The upstream pings stay in
// the answer for a look (`upstreams`), without deciding it. Each check is bounded: the Redis PING fails at once while
// the connection is down and after REDIS_COMMAND_TIMEOUT_MS when Redis stalls (server/infra/redis.ts), the upstream
// pings by their timeout and the request deadline. So /readyz answers 503 while Redis is away, and 200 again once it
// is back.
//
// /healthz is the app's first route (server/app.ts), before the request log, the deadline, the security headers and
// the session: it needs none of them and the platform asks it often (issue 23 item 2: as fast as an Express hello).
// So it carries no x-request-id and is never logged (nor was it before: the request log skipped it).
import { Router, type RequestHandler } from 'express';
import type { AppDeps } from './deps.ts';

const healthy = JSON.stringify({ ok: true });

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
    const check = async (fn: () => Promise<boolean>) => {
      try {
        return await fn();
      } catch {
        return false;
      }
    };
    const [redis, bankid, brokerage] = await Promise.all([
      deps.redis ? check(async () => (await deps.redis!.ping()) === 'PONG') : Promise.resolve(true),
      check(deps.bankid.ping),
      check(deps.brokerage.ping),
    ]);
    res
      .status(redis ? 200 : 503)
      .set('cache-control', 'no-store')
      .json({ ok: redis, checks: { redis }, upstreams: { bankid, brokerage } });
  });
  return router;
}
