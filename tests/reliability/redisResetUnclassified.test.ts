// The soak (bench/soak.ts) killed Redis with a person's post in flight: node-redis failed the command with the
// socket's own error (`read ECONNRESET`), which isRedisUnavailable did not know, so the person got the 500 page
// instead of the 503 "temporarily unavailable" one. Now every command's failure to reach Redis counts as Redis
// being unavailable, while the same error from anything else (an upstream's socket) still does not.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { RedisClientType } from '@redis/client';
import { connectRedis, isRedisUnavailable } from '../../server/infra/redis.ts';
import { REDIS_URL } from '../support/redisKeys.ts';

const logger = pino({ level: 'silent' });
const redis = new URL(REDIS_URL);
/** A loopback proxy in front of Redis whose client-side sockets the test can reset (RST, as a killed peer's kernel sends). */
let proxy: net.Server;
const sockets = new Set<net.Socket>();
let client: RedisClientType;

beforeAll(async () => {
  proxy = net.createServer((inbound) => {
    const outbound = net.connect(Number(redis.port || 6379), redis.hostname);
    sockets.add(inbound);
    inbound.on('close', () => sockets.delete(inbound));
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as net.AddressInfo;
  client = connectRedis(`redis://127.0.0.1:${port}`, logger, { commandTimeoutMs: 5_000 });
  const until = Date.now() + 10_000;
  while (!client.isReady && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
});

afterAll(async () => {
  if (client?.isOpen) client.destroy();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => proxy?.close(resolve));
});

describe('a connection reset with a command in flight', () => {
  it('fails the command as Redis unavailable (503), not as a bug (500)', async () => {
    expect(client.isReady).toBe(true);
    // Waits in Redis for up to 3 s: in flight when the connection is reset.
    const inFlight = client.blPop(`never-${process.pid}-${Date.now()}`, 3).then(
      () => null,
      (err: unknown) => err,
    );
    await new Promise((r) => setTimeout(r, 100));
    for (const socket of sockets) socket.resetAndDestroy();
    const err = await inFlight;
    expect(err).toBeInstanceOf(Error);
    expect(isRedisUnavailable(err)).toBe(true);
  });

  it('leaves the same socket error from anything but Redis unclassified', () => {
    const upstreamReset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read', errno: -104 });
    expect(isRedisUnavailable(upstreamReset)).toBe(false);
  });
});
