// Limits on starting BankID orders: each order costs the bank money, and anyone can ask for one. A start
// is counted per session and per client address (rate-limiter-flexible, fixed one-minute windows). In
// Redis mode the counts live in Redis, so every web process shares them; in memory mode (one process,
// development) they live in the process.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisConnection } from './redis.ts';

/** allowed: go ahead; limited: over a limit; unavailable: the count could not be kept (Redis down). */
export type StartVerdict = 'allowed' | 'limited' | 'unavailable';

export interface BankidStartLimiter {
  /** Counts one order start against the session's and the address's allowance. */
  take(who: { ip: string; sessionId: string }): Promise<StartVerdict>;
}

export interface BankidStartLimits {
  perIpPerMinute: number;
  perSessionPerMinute: number;
  /** Key prefix of everything in Redis (REDIS_PREFIX). */
  prefix: string;
  /** Redis mode: the node-redis client every web process shares. */
  redis?: RedisConnection;
}

export function createBankidStartLimiter(limits: BankidStartLimits): BankidStartLimiter {
  const limiter = (name: string, points: number): RateLimiterAbstract => {
    const options = { points, duration: 60, keyPrefix: `${limits.prefix}:ratelimit:bankid-start:${name}` };
    return limits.redis
      ? // node-redis v4+ takes its commands in its own shape (useRedisPackage). Without a ready
        // connection the count fails at once instead of queueing, and the start is refused.
        new RateLimiterRedis({ ...options, storeClient: limits.redis, useRedisPackage: true, rejectIfRedisNotReady: true })
      : new RateLimiterMemory(options);
  };
  const perSession = limiter('session', limits.perSessionPerMinute);
  const perIp = limiter('ip', limits.perIpPerMinute);
  return {
    async take({ ip, sessionId }) {
      try {
        // The session first: a session over its own limit spends nothing of the address's allowance,
        // which people behind one address (an office, a mobile carrier's NAT) share.
        await perSession.consume(sessionId);
        await perIp.consume(ip);
        return 'allowed';
      } catch (err) {
        // The library rejects with a RateLimiterRes when over the limit, with an Error when the store fails.
        return err instanceof RateLimiterRes ? 'limited' : 'unavailable';
      }
    },
  };
}
