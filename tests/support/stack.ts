// Starts the whole product for a test, in either mode it runs in (docs/architecture.md):
// - embedded: sandbox, web and worker in this process with in-memory stand-ins (no REDIS_URL);
// - redis: sandbox, web and worker as three separate processes sharing Redis, as on the PaaS.
import type { DestinationStream } from 'pino';
import { Writable } from 'node:stream';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { keepDaysOption } from '../../sandbox/keptProspects.ts';
import { startSandbox } from '../../sandbox/main.ts';
import { start } from '../../server/main.ts';
import { productProcessArgs } from './productProcess.ts';
import { freePort, redisModeEnv } from './productEnv.ts';
import { deleteRedisKeys, REDIS_URL } from './redisKeys.ts';

export { freePort };

export { REDIS_URL };

export interface Stack {
  webUrl: string;
  sandboxUrl: string;
  mode: 'embedded' | 'redis';
  /** Redis mode: stop the worker process abruptly (SIGKILL) and start a fresh one. */
  killWorker(): Promise<void>;
  startWorker(): Promise<void>;
  /** Redis mode: a second worker process beside the first (stopped with the stack). */
  startExtraWorker(): Promise<void>;
  /** Redis mode: a second web process on the same Redis; answers its URL. */
  startExtraWeb(): Promise<string>;
  /** Sends the signal to the extra web process and answers its exit code. */
  stopExtraWeb(signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * How long a BankID order of a test's sandbox lives (the real service's and the sandbox's default: 30 s): longer than
 * any test, so that no walk races it on a busy machine. A test of expiry uses a persona whose orders run out sooner
 * (bankidExpires) or a lifetime of its own (BANKID_ORDER_LIFETIME_MS in extraEnv).
 */
export const TEST_BANKID_ORDER_LIFETIME_MS = '600000';

/** Fast test timings; the spec's values stay the defaults in production. */
export function testTimings(): Record<string, string> {
  return {
    // Each Redis command's deadline (production: 1 s): a busy test machine can hold a process's event loop longer than
    // that, and a page then answers 503 although Redis is up. A test of a stalled Redis sets its own.
    REDIS_COMMAND_TIMEOUT_MS: '10000',
    BANKID_ORDER_LIFETIME_MS: TEST_BANKID_ORDER_LIFETIME_MS,
    ROUTING_RETRIES: '5',
    ROUTING_RETRY_DELAY_MS: '20',
    INTENT_WAIT_MS: '50',
    BANKID_POLL_MS: '250',
    CREATION_POLL_MS: '300',
    KYC_START_INTERVAL_MS: '10',
    KYC_RISK_POLL_BASE_MS: '5',
    KYC_RISK_POLL_STEP_MS: '1',
    SSE_HEARTBEAT_MS: '5000',
    WORKER_LOCK_MS: '2000',
    LOG_LEVEL: 'silent',
    // The tests read English texts; the market-language default has its own test.
    DEFAULT_LOCALE: 'en',
    // Each identification gets a fresh application at the sandbox unless a test keeps them (sandbox/keptProspects.ts).
    SANDBOX_PROSPECT_KEEP_DAYS: '0',
  };
}

/** A log destination for startEmbeddedStack whose JSON lines a test reads (with LOG_LEVEL info). */
export function logCapture() {
  let lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  return {
    stream,
    /** The lines logged with message `msg`, parsed. */
    logged: (msg: string) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg),
    text: () => lines.join('\n'),
    clear: () => {
      lines = [];
    },
  };
}

/** `logDestination`: where the web and worker log lines go (a test that reads them); `now`: the web's clock. */
export async function startEmbeddedStack(
  extraEnv: Record<string, string> = {},
  options: { logDestination?: DestinationStream; now?: () => number } = {},
): Promise<Stack> {
  const sandboxPort = await freePort();
  // The signing page expires its orders after the web's lifetime when a test sets one.
  const signingLifetime = extraEnv.SIGNING_ORDER_LIFETIME_MS;
  const sandbox = await startSandbox({
    port: sandboxPort,
    orderLifetimeMs: Number(extraEnv.BANKID_ORDER_LIFETIME_MS ?? TEST_BANKID_ORDER_LIFETIME_MS),
    ...(signingLifetime ? { signingLifetimeMs: Number(signingLifetime) } : {}),
    ...keepDaysOption({ ...testTimings(), ...extraEnv }),
  });
  const running = await start(
    {
      NODE_ENV: 'development',
      PORT: '0',
      BANKID_API_URL: sandbox.url,
      BROKERAGE_API_URL: sandbox.url,
      SIGNING_ORIGINS: sandbox.url,
      SUCCESS_URL: `${sandbox.url}/sandbox/overview`,
      BANK_SITE_URL: sandbox.url,
      BANK_SITE_HANDOFF_PATH: '/sandbox/bank-site/login/handoff',
      // The tests' browsers stand behind a router on loopback: X-Forwarded-For names each one's address.
      TRUST_PROXY: 'loopback',
      OIDC_ISSUER_URL: `${sandbox.url}/oidc`,
      ...testTimings(),
      ...extraEnv,
    },
    'all',
    options,
  );
  return {
    mode: 'embedded',
    webUrl: running.url!,
    sandboxUrl: sandbox.url,
    killWorker: () => Promise.reject(new Error('embedded mode has no worker process')),
    startWorker: () => Promise.reject(new Error('embedded mode has no worker process')),
    startExtraWorker: () => Promise.reject(new Error('embedded mode has no worker process')),
    startExtraWeb: () => Promise.reject(new Error('embedded mode has one web process')),
    stopExtraWeb: () => Promise.reject(new Error('embedded mode has one web process')),
    async stop() {
      await running.close();
      await sandbox.close();
    },
  };
}

function spawnRole(entry: 'server' | 'sandbox', args: string[], env: Record<string, string>): ChildProcess {
  // Logs go to a file per process: an undrained stdout pipe would fill up and block the child.
  mkdirSync('test-results', { recursive: true });
  const log = openSync(`test-results/${args[0] ?? 'sandbox'}-${env.PORT ?? ''}.log`, 'a');
  const child = spawn(process.execPath, productProcessArgs(entry, ...args), {
    env: { ...process.env, ...env },
    stdio: ['ignore', log, 'pipe'],
  });
  closeSync(log);
  // Surface crashes in the test output without flooding it.
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${args[0] ?? 'sandbox'}] ${d}`));
  return child;
}

/**
 * Until `url` answers 2xx. A process that starts beside other test files on a 2-core machine may take seconds. A web
 * process listens before its Redis client connects and answers 503 until then: wait on its /readyz, as the router does.
 */
export async function waitUntilUp(url: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * `extraEnv.REDIS_URL`: a Redis of the test's own (the stack then cleans up there). `roleEnv`: settings of one role
 * only, over extraEnv (e.g. each its own METRICS_PORT).
 */
export async function startRedisStack(
  extraEnv: Record<string, string> = {},
  roleEnv: { web?: Record<string, string>; worker?: Record<string, string> } = {},
): Promise<Stack> {
  const redisUrl = extraEnv.REDIS_URL ?? REDIS_URL;
  const [sandboxPort, webPort] = await Promise.all([freePort(), freePort()]);
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  // A test may name its prefix to read the keys; stop() removes everything under it.
  const prefix = extraEnv.REDIS_PREFIX ?? `test-${randomUUID().slice(0, 8)}`;
  const env: Record<string, string> = {
    ...redisModeEnv({ redisUrl, prefix, webPort, sandboxPort }),
    ...testTimings(),
    // Each process logs to its own file under test-results/, which helps when a test fails.
    LOG_LEVEL: 'info',
    ...extraEnv,
  };
  // The processes' log files are named by the web port, which an earlier stack of the run may have had: this stack's
  // start afresh, so that a test reading them (journeyOnRedisCluster's worker log) sees only its own processes' lines.
  mkdirSync('test-results', { recursive: true });
  for (const role of ['sandbox', 'worker', 'web']) writeFileSync(`test-results/${role}-${webPort}.log`, '');
  const sandbox = spawnRole('sandbox', [], env);
  const workerEnv = { ...env, ...roleEnv.worker };
  let worker = spawnRole('server', ['worker'], workerEnv);
  const web = spawnRole('server', ['web'], { ...env, ...roleEnv.web });
  const webUrl = `http://127.0.0.1:${webPort}`;
  try {
    await Promise.all([waitUntilUp(`${sandboxUrl}/sandbox/healthz`), waitUntilUp(`${webUrl}/readyz`)]);
  } catch (err) {
    // A stack that did not come up is not returned, so nobody would stop it: its processes would outlive the run.
    for (const child of [web, worker, sandbox]) child.kill('SIGKILL');
    throw err;
  }

  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
  let extraWeb: ChildProcess | undefined;
  const extraWorkers: ChildProcess[] = [];
  return {
    mode: 'redis',
    webUrl,
    sandboxUrl,
    async killWorker() {
      worker.kill('SIGKILL');
      await exited(worker);
    },
    async startWorker() {
      worker = spawnRole('server', ['worker'], workerEnv);
    },
    async startExtraWorker() {
      extraWorkers.push(spawnRole('server', ['worker'], workerEnv));
    },
    async startExtraWeb() {
      const port = await freePort();
      // Each test web process is reached on its own port; on a PaaS they share one PUBLIC_URL.
      extraWeb = spawnRole('server', ['web'], { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
      const url = `http://127.0.0.1:${port}`;
      await waitUntilUp(`${url}/readyz`);
      return url;
    },
    async stopExtraWeb(signal) {
      const child = extraWeb!;
      child.kill(signal);
      await exited(child);
      extraWeb = undefined;
      return child.exitCode;
    },
    async stop() {
      const children = [web, worker, sandbox, ...extraWorkers, ...(extraWeb ? [extraWeb] : [])];
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(children.map(exited));
      // A Redis Cluster is the test's own (tests/support/ownRedisCluster.ts), removed whole.
      if (env.REDIS_CLUSTER !== 'true') await deleteRedisKeys(prefix, redisUrl);
    },
  };
}
