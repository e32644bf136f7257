// The Redis the suite shares, found or started once per run by tests/support/globalSetup.ts: the one answering on
// TEST_REDIS_URL (default redis://127.0.0.1:6379), else a redis-server of the run's own on a free loopback port with no
// persistence, stopped when the run ends. The test processes read its URL from TEST_REDIS_URL (redisKeys.ts).
import { spawn } from 'node:child_process';
import { answers, sigkill } from './ownRedis.ts';
import { freePort } from './productEnv.ts';

const log = (line: string) => console.log(`test Redis: ${line}`);

/** Finds or starts the run's Redis; answers how to stop what it started (nothing when it found one). */
export async function testRedis(): Promise<() => Promise<void>> {
  const wanted = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const answering = await answers(wanted, ['PING'], (reply) => reply === 'PONG', 0).then(
    () => true,
    () => false,
  );
  if (answering) {
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
      `none answers on ${wanted} and redis-server is not installed: every test that uses Redis will fail. ` +
        'Install it (Debian: apt-get install redis-server; npm test does so when run as root) or set TEST_REDIS_URL to a running one.',
    );
    return async () => {};
  }
  await answers(url, ['PING'], (reply) => reply === 'PONG', 10_000);
  process.env.TEST_REDIS_URL = url;
  log(`none answered on ${wanted}: started redis-server on ${url} (no persistence) for this run`);
  return () => sigkill(child);
}
