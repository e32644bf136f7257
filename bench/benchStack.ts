// What `npm run bench` starts on loopback, each bounded in time: a redis-server of its own (so INFO and MONITOR see
// only the product's commands), the sandbox, worker and web from the compiled build (dist/, as the Procfile runs
// them) with the env recipe of tests/support/stack.ts, an upstream counter in front of the sandbox, and the two
// hello servers. Every process logs to a file in the run's own temporary folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, Agent } from 'node:http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { freePort, redisModeEnv } from '../tests/support/productEnv.ts';
import { createOwnRedis, type OwnRedis } from '../tests/support/ownRedis.ts';

export { freePort };

/** Polls `url` until it answers 200; answers the milliseconds that took. Throws after `timeoutMs`. */
export async function waitForOk(url: string, timeoutMs = 60_000, everyMs = 100): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** Ends a child we started: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

/** Spawns `node <args>` with `env` on top of ours; stdout and stderr go to `<logDir>/<name>.log`. */
export function spawnNode(name: string, args: string[], env: Record<string, string>, logDir: string): ChildProcess {
  mkdirSync(logDir, { recursive: true });
  const log = openSync(join(logDir, `${name}.log`), 'a');
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', log, log] });
  closeSync(log);
  return child;
}

export interface CountingProxy {
  url: string;
  /** Requests passed to the sandbox so far. */
  count(): number;
  /** The calls passed so far, as "GET /api/2/prospects/:id" (ids: a segment of 6 or more with a digit), in order. */
  calls(): string[];
  close(): Promise<void>;
}

/** Passes every request on to `target` and counts them: the upstream calls the web and the worker make. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const calls: string[] = [];
  const server = createHttpServer((req, res) => {
    calls.push(`${req.method} ${(req.url ?? '').split('?')[0]!.replace(/\/(?=[^/]*\d)[^/]{6,}/g, '/:id')}`);
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => calls.length,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}

export interface BenchStack {
  webUrl: string;
  sandboxUrl: string;
  redis: OwnRedis;
  upstream: CountingProxy;
  /** The env the web runs with (a second web process for the start-time measurement takes it too). */
  webEnv: Record<string, string>;
  worker: ChildProcess;
  logDir: string;
  stop(): Promise<void>;
}

/**
 * Production settings (tests/support/productEnv.ts: NODE_ENV=production, Redis; logs at info to a file) with short
 * waits of routing, KYC preparation and creation only (no page GET measured waits on them), so that preparing people
 * is quick; BankID starts unlimited per address (every bench person comes from 127.0.0.1).
 */
export async function startBenchStack(logDir: string): Promise<BenchStack> {
  // A Redis of the bench's own, persisting as production Redis needs (AOF fsynced every second).
  const redis = await createOwnRedis('bench-redis', { appendfsync: 'everysec' });
  await redis.start();
  const [sandboxPort, webPort] = await Promise.all([freePort(), freePort()]);
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const upstream = await startCountingProxy(sandboxUrl);
  const env: Record<string, string> = {
    ...redisModeEnv({ redisUrl: redis.url, prefix: `bench-${randomUUID().slice(0, 8)}`, webPort, sandboxPort }),
    // The web's and the worker's calls go through the counter; the browser is sent to the sandbox itself (signing page).
    BANKID_API_URL: upstream.url,
    BROKERAGE_API_URL: upstream.url,
    ROUTING_RETRIES: '5',
    ROUTING_RETRY_DELAY_MS: '20',
    INTENT_WAIT_MS: '50',
    KYC_START_INTERVAL_MS: '10',
    KYC_RISK_POLL_BASE_MS: '5',
    KYC_RISK_POLL_STEP_MS: '1',
    CREATION_POLL_MS: '300',
    BANKID_STARTS_PER_IP_PER_MINUTE: '100000',
    LOG_LEVEL: 'info',
    DEFAULT_LOCALE: 'en',
  };
  const sandbox = spawnNode('sandbox', ['--enable-source-maps', 'dist/sandbox.js'], env, logDir);
  const worker = spawnNode('worker', ['--enable-source-maps', 'dist/server.js', 'worker'], env, logDir);
  // BENCH_WEB_CPU_PROFILE_DIR=<dir>: the web writes a V8 CPU profile there when it stops (where a page's time goes).
  const profile = process.env.BENCH_WEB_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WEB_CPU_PROFILE_DIR}`] : [];
  const web = spawnNode('web', [...profile, '--enable-source-maps', 'dist/server.js', 'web'], env, logDir);
  const webUrl = `http://127.0.0.1:${webPort}`;
  // The web listens before its Redis client connects, answering 503 until then: its /readyz says when it serves.
  await Promise.all([waitForOk(`${sandboxUrl}/sandbox/healthz`), waitForOk(`${webUrl}/readyz`)]);
  return {
    webUrl,
    sandboxUrl,
    redis,
    upstream,
    webEnv: env,
    worker,
    logDir,
    async stop() {
      await Promise.all([web, worker, sandbox].map((c) => stopChild(c)));
      await upstream.close();
      await redis.remove();
    },
  };
}

export interface HelloServers {
  expressUrl: string;
  httpUrl: string;
  stop(): Promise<void>;
}

export async function startHelloServers(logDir: string): Promise<HelloServers> {
  const [expressPort, httpPort] = await Promise.all([freePort(), freePort()]);
  const express = spawnNode('hello-express', ['bench/helloServer.mjs', 'express', String(expressPort)], {}, logDir);
  const http = spawnNode('hello-http', ['bench/helloServer.mjs', 'http', String(httpPort)], {}, logDir);
  const expressUrl = `http://127.0.0.1:${expressPort}`;
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  await Promise.all([waitForOk(`${expressUrl}/`), waitForOk(`${httpUrl}/`)]);
  return { expressUrl, httpUrl, stop: async () => void (await Promise.all([stopChild(express), stopChild(http)])) };
}

/** Runs a bench's `main`, giving up (exit code 1) after `limitMs`; a failure prints its stack and exits 1. */
export function runBounded(name: string, limitMs: number, main: () => Promise<void>): void {
  const limit = setTimeout(() => {
    process.stderr.write(`${name} gave up after ${limitMs / 60_000} minutes\n`);
    process.exit(1);
  }, limitMs);
  limit.unref();
  main().then(
    () => clearTimeout(limit),
    (err: unknown) => {
      process.stderr.write(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
