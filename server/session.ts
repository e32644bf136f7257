// Sessions: Redis (connect-redis 9 + node-redis) when REDIS_URL is set, the memory store otherwise.
// 30-minute rolling TTL: every request extends it, as a bank's idle timeout does.
import session from 'express-session';
import { RedisStore } from 'connect-redis';
import type { RedisClientType } from 'redis';
import type { RequestHandler } from 'express';

export function sessionMiddleware(options: {
  secret: string;
  ttlMinutes: number;
  secureCookie: boolean;
  redis?: RedisClientType;
  prefix: string;
}): RequestHandler {
  const store = options.redis
    ? new RedisStore({ client: options.redis, prefix: `${options.prefix}:sess:`, ttl: options.ttlMinutes * 60 })
    : undefined;
  return session({
    name: 'onb.sid',
    secret: options.secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    // proxy unset: express-session follows the app's 'trust proxy' (TRUST_PROXY) for X-Forwarded-Proto.
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: options.secureCookie,
      maxAge: options.ttlMinutes * 60_000,
    },
  });
}
