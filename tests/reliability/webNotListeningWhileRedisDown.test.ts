// A web process started while Redis was down did not listen at all (start-up waited for the Redis connection), so the
// platform's /healthz check saw nothing and could only restart it. Now it listens at once: /healthz 200, /readyz and
// pages 503 until Redis comes, then 200 without a restart. The web role runs as its own process against a Redis of the
// test's own (tests/support/ownRedis.ts), started only once the test has seen the web process answer.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/main.ts';
import { freePort, testTimings } from '../support/stack.ts';
import { productProcessArgs } from '../support/productProcess.ts';
import { createOwnRedis, type OwnRedis } from '../support/ownRedis.ts';

let redis: OwnRedis;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let web: ChildProcess | undefined;
let webUrl: string;

/** The answer's status, or 'no answer' while nothing listens (or the answer does not come within 3 s). */
async function statusOf(path: string): Promise<number | 'no answer'> {
  try {
    return (await fetch(`${webUrl}${path}`, { signal: AbortSignal.timeout(3000), redirect: 'manual' })).status;
  } catch {
    return 'no answer';
  }
}

beforeAll(async () => {
  redis = await createOwnRedis('web-before-redis');
  sandbox = await startSandbox({ port: await freePort() });
  const port = await freePort();
  webUrl = `http://127.0.0.1:${port}`;
  mkdirSync('test-results', { recursive: true });
  const log = openSync(`test-results/web-before-redis-${port}.log`, 'a');
  web = spawn(process.execPath, productProcessArgs('server', 'web'), {
    env: {
      ...process.env,
      ...testTimings(),
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      // Nothing listens there yet.
      REDIS_URL: redis.url,
      REDIS_PREFIX: `test-${randomUUID().slice(0, 8)}`,
      SESSION_SECRET: randomUUID() + randomUUID(),
      JOB_SECRET_KEY: randomBytes(32).toString('base64'),
      COOKIE_SECURE: 'false',
      PORT: String(port),
      PUBLIC_URL: webUrl,
      BANKID_API_URL: sandbox.url,
      BROKERAGE_API_URL: sandbox.url,
      SIGNING_ORIGINS: sandbox.url,
      SUCCESS_URL: `${sandbox.url}/sandbox/overview`,
      BANK_SITE_URL: `${sandbox.url}/sandbox/bank-site`,
      OIDC_ISSUER_URL: `${sandbox.url}/oidc`,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
});

afterAll(async () => {
  if (web && web.exitCode === null && web.signalCode === null) {
    const exited = new Promise((r) => web!.once('exit', r));
    web.kill('SIGTERM');
    await exited;
  }
  await redis?.remove();
  await sandbox?.close();
});

describe('web not listening while Redis is down', () => {
  it('listens at once with Redis down: /healthz 200, /readyz and pages 503 until Redis comes, then 200', async () => {
    // Redis stays down all along this wait: the process must come up without it.
    await expect.poll(() => statusOf('/healthz'), { timeout: 20_000, interval: 200 }).toBe(200);
    expect(redis.process).toBeUndefined();
    expect(await statusOf('/readyz')).toBe(503);
    const page = await fetch(`${webUrl}/onboarding?lang=en`, { redirect: 'manual' });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('Temporarily unavailable');

    await redis.start();
    await expect.poll(() => statusOf('/readyz'), { timeout: 20_000, interval: 200 }).toBe(200);
    expect(await statusOf('/onboarding?lang=en')).toBe(200);
    expect(await statusOf('/healthz')).toBe(200);
  });
});
