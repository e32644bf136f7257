// The worker at peak: N customer creations at once on the compiled worker, every run polling to its last try, beside
// a bare BullMQ chain of delayed jobs on the same grid (bench/bareChain.mjs): each poll's lateness against its due time
// (chainTimes), the Redis commands and CPU per poll, and each side's capacity: the most creations whose last poll keeps
// its grid. Method: docs/benchmarkMethods.md.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { RedisClientType } from '@redis/client';
import pino from 'pino';
import { createOwnRedis, type OwnRedis } from '../tests/support/ownRedis.ts';
import { redisModeEnv } from '../tests/support/productEnv.ts';
import { freePort, spawnNode, stopChild, exited } from './benchStack.ts';
import { connectRedis } from '../server/infra/redis.ts';
import { createBullmqQueue } from '../server/infra/jobQueue.ts';
import { createRedisCreationCredentials } from '../server/infra/creationCredentials.ts';
import { enqueueCustomerCreation } from '../server/infra/creationJobs.ts';
import { brokeragePaths as paths } from '../shared/contracts/brokerageContract.ts';
import { chainTimes, keptGrid, nextCapacityTry, percentile, type ChainTimes } from './peakMath.ts';

export const POLL_INTERVAL_MS = 2000;
export const POLLING_TRIES = 45;
const PHASE_LIMIT_MS = POLL_INTERVAL_MS * POLLING_TRIES * 3 + 60_000;

/** A capacity run's last poll may land this much after its due time at p99. */
export const CAPACITY_SLACK_MS = 2000;

/** The capacity search of one side: the sizes that kept the grid and those that missed it. */
export interface Capacity {
  kept: number[];
  missed: number[];
}

export interface WorkerAtPeak {
  runs: number;
  product: ChainTimes;
  bare: ChainTimes;
  capacity: { product: Capacity; bare: Capacity };
}

/** A process's CPU time so far (user + system, ms), from /proc (Linux). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of stat, in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function totalCommands(client: RedisClientType): Promise<number> {
  const info = await client.info('commandstats');
  let total = 0;
  for (const m of info.matchAll(/calls=(\d+)/g)) total += Number(m[1]);
  return total;
}

/**
 * A brokerage that answers the worker's calls of a run that never finishes (identification-routing-creation §4: every
 * poll "queued", the 45th ends in maxPollingTries) and notes when each run's creation_status calls arrive.
 */
async function startStubBrokerage(onFirstCall: () => void): Promise<{ url: string; calls: Map<string, number[]>; server: Server }> {
  const calls = new Map<string, number[]>();
  const json = (body: unknown) => JSON.stringify(body);
  const status = json({ done: false, creation_process_status: 'customer_creation_started', nightly_downtime: false, creation_requests: [] });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    req.resume();
    req.on('end', () => {
      let body = '';
      if (req.method === 'GET' && url.pathname === paths.creationStatus) {
        const id = url.searchParams.get('prospect_id') ?? '';
        if (calls.size === 0) onFirstCall();
        const list = calls.get(id) ?? [];
        list.push(Date.now());
        calls.set(id, list);
        body = status;
      } else if (req.method === 'GET' && url.pathname === paths.systemStatus) body = json({ creationPaused: false, feedbackBanner: null });
      else if (req.method === 'POST' && url.pathname === paths.refreshToken) body = json({ jwt: `jwt-${randomUUID()}`, expiresIn: 1800 });
      if (!body) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, calls, server };
}

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const limit = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > limit) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function productPhase(redis: OwnRedis, runs: number, logDir: string, log: (line: string) => void): Promise<ChainTimes> {
  // The worker's CPU from its first creation on (its start-up apart).
  let cpuAtFirstCall = NaN;
  const stub = await startStubBrokerage(() => (cpuAtFirstCall = cpuMsOf(worker.pid)));
  const prefix = `peak-${randomUUID().slice(0, 8)}`;
  const env: Record<string, string> = {
    ...redisModeEnv({ redisUrl: redis.url, prefix, webPort: await freePort(), sandboxPort: await freePort() }),
    BROKERAGE_API_URL: stub.url,
    BANKID_API_URL: stub.url,
    LOG_LEVEL: 'warn',
  };
  // PEAK_CPU_PROFILE_DIR=<dir>: the worker writes a V8 CPU profile there when it stops (where a poll's time goes).
  const profile = process.env.PEAK_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PEAK_CPU_PROFILE_DIR}`] : [];
  const worker = spawnNode('peak-worker', [...profile, '--enable-source-maps', 'dist/server.js', 'worker'], env, logDir);
  const logger = pino({ level: 'silent' });
  const client = connectRedis(redis.url, logger, { commandTimeoutMs: 5000 });
  const queue = createBullmqQueue({ redisUrl: redis.url, prefix: env.REDIS_PREFIX!, commandTimeoutMs: 5000 });
  try {
    await until('the bench connects to Redis', () => client.isReady, 10_000);
    const credentials = createRedisCreationCredentials({ client, prefix: env.REDIS_PREFIX!, key: Buffer.from(env.JOB_SECRET_KEY!, 'base64') });
    const before = await totalCommands(client);
    const started = Date.now();
    const signedAt = new Date().toISOString();
    for (let i = 0; i < runs; i += 250) {
      await Promise.all(
        Array.from({ length: Math.min(250, runs - i) }, (_, k) =>
          enqueueCustomerCreation(
            { queue, credentials },
            // In the app's webview: no login session or affiliate call after the last poll, as the bare chain has none.
            { prospectId: `peak-${i + k}`, runId: '1', credentials: { refreshToken: `refresh-${i + k}` }, facts: { market: 'SE', webview: true, signedAt } },
          ),
        ),
      );
    }
    log(`  product: ${runs} creations queued in ${Math.round((Date.now() - started) / 1000)} s`);
    const finished = () => [...stub.calls.values()].filter((l) => l.length > POLLING_TRIES).length;
    // A phase that cannot finish in time (a loaded machine) is measured as far as it got: its unfinished runs miss the grid.
    await until('every creation run polled to its last try', () => finished() >= runs, PHASE_LIMIT_MS).catch((err: Error) => log(`  ${err.message}`));
    await new Promise((r) => setTimeout(r, 2000));
    const redisCommands = (await totalCommands(client)) - before;
    const cpuMs = cpuMsOf(worker.pid) - cpuAtFirstCall;
    // Index 0: the start job's initial status check; n: poll n.
    const times = chainTimes([...stub.calls.values()], POLLING_TRIES, POLL_INTERVAL_MS);
    return { ...times, redisCommands, cpuMs, seconds: (Date.now() - started) / 1000 };
  } finally {
    await queue.close();
    client.destroy();
    await stopChild(worker);
    await new Promise<void>((resolve) => stub.server.close(() => resolve()));
  }
}

async function barePhase(redis: OwnRedis, runs: number, concurrency: number, logDir: string, log: (line: string) => void): Promise<ChainTimes> {
  const out = join(logDir, 'bare-chain.json');
  const client = connectRedis(redis.url, pino({ level: 'silent' }), { commandTimeoutMs: 5000 });
  await until('the bench connects to Redis', () => client.isReady, 10_000);
  const before = await totalCommands(client);
  const started = Date.now();
  const child = spawnNode(
    'bare-chain',
    [
      'bench/bareChain.mjs',
      redis.url,
      `bare-${randomUUID().slice(0, 8)}`,
      String(runs),
      String(POLLING_TRIES),
      String(POLL_INTERVAL_MS),
      String(concurrency),
      out,
    ],
    {},
    logDir,
  );
  // Past the limit the chain writes what it has (bench/bareChain.mjs) and exits.
  const limit = setTimeout(() => child.kill('SIGTERM'), PHASE_LIMIT_MS);
  await exited(child);
  clearTimeout(limit);
  const redisCommands = (await totalCommands(client)) - before;
  client.destroy();
  const written = JSON.parse(readFileSync(out, 'utf8')) as { runs: Array<Array<number | null>>; cpuMs: number };
  log(`  bare chain: ${written.runs.length} runs done`);
  const times = chainTimes(
    written.runs.map((t) => t.map((v) => v ?? undefined)),
    POLLING_TRIES,
    POLL_INTERVAL_MS,
  );
  return { ...times, redisCommands, cpuMs: written.cpuMs, seconds: (Date.now() - started) / 1000 };
}

/** The product's capacity target: at least this share of the bare chain's. */
export const CAPACITY_TARGET = 0.6;

/**
 * A side's capacity: the most creations at once whose last poll lands within CAPACITY_SLACK_MS of its due time at p99,
 * searched from the size already measured (`aim` first, then doubling, halving, then halfway) in at most `steps` more phases.
 */
async function capacityOf(
  phase: (runs: number) => Promise<ChainTimes>,
  measured: { runs: number; times: ChainTimes },
  steps: number,
  log: (line: string) => void,
  aim?: number,
) {
  const due = POLLING_TRIES * POLL_INTERVAL_MS;
  const capacity: Capacity = { kept: [], missed: [] };
  const note = (runs: number, times: ChainTimes) => {
    const kept = keptGrid(times, runs, due, CAPACITY_SLACK_MS);
    (kept ? capacity.kept : capacity.missed).push(runs);
    log(`  ${runs} creations: 45th poll p99 ${Math.round(percentile(times.lastPollMs, 99))} ms, ${kept ? 'kept' : 'missed'} the grid`);
  };
  note(measured.runs, measured.times);
  for (let i = 0; i < steps; i++) {
    const next = nextCapacityTry(capacity.kept, capacity.missed, { aim });
    if (next === null) break;
    note(next, await phase(next));
  }
  return capacity;
}

export async function measureWorkerAtPeak(runs: number, capacitySteps: number, logDir: string, log: (line: string) => void): Promise<WorkerAtPeak> {
  const redis = await createOwnRedis('peak-redis', { appendfsync: 'everysec' });
  await redis.start();
  try {
    log(`worker at peak: ${runs} creations, then a bare BullMQ chain of as many runs`);
    const productRuns = (n: number) => productPhase(redis, n, logDir, log);
    const bareRuns = (n: number) => barePhase(redis, n, 50, logDir, log);
    const product = await productRuns(runs);
    const bare = await bareRuns(runs);
    log(`capacity: up to ${capacitySteps} more phases a side, the bare chain's first`);
    const bareCapacity = await capacityOf(bareRuns, { runs, times: bare }, capacitySteps, log);
    // The product's search tries first the size its target asks for, so a few phases answer whether it is met.
    const aim = CAPACITY_TARGET * capacityFound(bareCapacity);
    const productCapacity = await capacityOf(productRuns, { runs, times: product }, capacitySteps, log, aim);
    return { runs, product, bare, capacity: { product: productCapacity, bare: bareCapacity } };
  } finally {
    await redis.remove();
  }
}

export const latenessOf = (t: ChainTimes) => ({ p50: percentile(t.lateness, 50), p99: percentile(t.lateness, 99) });
/** CPU per poll (ms): the phase's CPU over the polls it ran. */
export const cpuPerPoll = (t: ChainTimes) => t.cpuMs / Math.max(1, t.polls);
/** A side's capacity as found: the largest size that kept the grid (0 if none did). */
export const capacityFound = (c: Capacity) => (c.kept.length ? Math.max(...c.kept) : 0);
