// The Redis the suite shares, found or started once per run by tests/support/globalSetup.ts: the one that takes a write
// on TEST_REDIS_URL (default redis://127.0.0.1:6379), else a redis-server of the run's own on a free loopback port with
// no persistence, stopped when the run ends. The test processes read its URL from TEST_REDIS_URL (redisKeys.ts).
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createClient } from 'redis';
import { answers, sigkill } from './ownRedis.ts';
import { freePort } from './productEnv.ts';

const log = (line: string) => console.log(`test Redis: ${line}`);

/**
 * Why the Redis at `url` cannot serve the run, or undefined when it takes a write (a key of its own that expires): one
 * that answers PING may still refuse every write (a replica, a full memory, a failed snapshot with
 * stop-writes-on-bgsave-error), which would fail each Redis test with a 503 far from the cause.
 */
export async function whyRedisUnfit(url: string): Promise<string | undefined> {
  const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 2_000 } });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    return `no answer (${err instanceof Error ? err.message : String(err)})`;
  }
  try {
    const reply = String(await client.sendCommand(['SET', `test-run-probe:${randomUUID()}`, '1', 'PX', '10000']));
    return reply === 'OK' ? undefined : `a write answered ${reply}`;
  } catch (err) {
    return `a write was refused: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    client.destroy();
  }
}

/** Finds or starts the run's Redis; answers how to stop what it started (nothing when it found one). */
export async function testRedis(): Promise<() => Promise<void>> {
  const wanted = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const unfit = await whyRedisUnfit(wanted);
  if (unfit === undefined) {
    log(`using the Redis answering on ${wanted}`);
    return async () => {};
  }
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const spawned = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!spawned) {
    log(
      `the Redis on ${wanted} cannot serve the run (${unfit}) and redis-server is not installed: every test that uses Redis will fail. ` +
        'Install it (Debian: apt-get install redis-server; npm test does so when run as root) or set TEST_REDIS_URL to a running one.',
    );
    return async () => {};
  }
  await answers(url, ['PING'], (reply) => reply === 'PONG', 10_000);
  process.env.TEST_REDIS_URL = url;
  log(`the Redis on ${wanted} cannot serve the run, ${unfit}: started redis-server on ${url} (no persistence) for this run`);
  return () => sigkill(child);
}
