// Redis connections. node-redis serves sessions and creation events; BullMQ brings its own ioredis
// connections, so it only gets connection options from here.
import { createClient, type RedisClientType } from 'redis';
import type { RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

/** Connects a node-redis client. Errors are logged, never thrown at the process: the client reconnects by itself. */
export async function connectRedis(url: string, logger: Pick<Logger, 'error' | 'warn'>): Promise<RedisClientType> {
  const client = createClient({ url }) as unknown as RedisClientType;
  // Without an 'error' listener a dropped connection would crash the process (EventEmitter semantics).
  client.on('error', (err: Error) => logger.error({ err: { message: err.message, name: err.name } }, 'redis client error'));
  client.on('reconnecting', () => logger.warn('redis client reconnecting'));
  await client.connect();
  return client;
}

/**
 * ioredis options for BullMQ from a redis:// or rediss:// URL. Workers need maxRetriesPerRequest null
 * (BullMQ refuses otherwise: blocking commands must wait out reconnects instead of failing).
 */
export function ioredisForBullmq(url: string, extra: Partial<RedisOptions> = {}): RedisOptions {
  const u = new URL(url);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: Number.isInteger(db) ? db : undefined,
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    ...extra,
  };
}
