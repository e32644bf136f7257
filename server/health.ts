// /healthz: the process is up. /readyz: Redis and the upstreams answer, so the router may send traffic.
// Each check is bounded: the Redis PING fails at once while the connection is down and after
// REDIS_COMMAND_TIMEOUT_MS when Redis stalls (server/infra/redis.ts), the upstream pings by their timeout
// and the request deadline. So /readyz answers 503 while Redis is away, and 200 again once it is back.
import { Router } from 'express';
import type { AppDeps } from './deps.ts';

export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('cache-control', 'no-store').json({ ok: true });
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
    const ok = redis && bankid && brokerage;
    res
      .status(ok ? 200 : 503)
      .set('cache-control', 'no-store')
      .json({ ok, checks: { redis, bankid, brokerage } });
  });
  return router;
}
