// `npm run soak [-- --minutes N]`: a chaos soak. Journeys over HTTP on two web processes and two workers while a random
// one is SIGKILLed and restarted every 20–60 s, and Redis once; exits non-zero on any lost, duplicated, wrong or
// stranded outcome. Not part of `npm test`; every process it started is ended on exit and on Ctrl-C. Method:
// docs/benchmarkMethods.md.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { exited, freePort, runBounded, spawnNode, stopChild, waitForOk } from './benchStack.ts';
import { personaOf } from './people.ts';
import { soakFailed, soakFigures, soakSection, between, type JourneyRecord, type ProspectReadOut, type SoakFigures } from './soakMath.ts';
import { BENCHMARKS_FILE, commitLine, machineLine, writeBenchmarks } from './report.ts';
import { OUTCOME_WITHIN_MS, retryCauses, walk, type SoakSite } from './soakJourney.ts';
import { redisModeEnv } from '../tests/support/productEnv.ts';
import { createOwnRedis, type OwnRedis } from '../tests/support/ownRedis.ts';
import { isFinal, type CreationOutcome, type CreationState } from '../shared/creationOutcome.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
};
const MINUTES = Number(arg('minutes') ?? 10);
if (!(MINUTES > 0)) throw new Error('--minutes must be a positive number');
/** The SE personas that walk, one lane each (one journey at a time per persona, so the sandbox's per-person read-outs stay apart), and the outcome each plays. */
const EXPECTED: Record<string, CreationOutcome> = {
  onboarding: 'done',
  creationSlow: 'done',
  customerExists: 'customerExists',
  accountLimit: 'accountLimit',
  creationFailed: 'unspecifiedApiResponseError',
};
const KILL_EVERY_MS: [number, number] = [20_000, 60_000];
const DOWN_FOR_MS: [number, number] = [200, 3_000];
const RUN_LIMIT_MS = (MINUTES + 10) * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

// --- the processes -------------------------------------------------------------------------------------------------

interface Role {
  name: string;
  args: string[];
  env: Record<string, string>;
  /** /healthz of a web process (answers from the moment it listens). */
  health?: string;
  child?: ChildProcess;
}

const roles: Role[] = [];
let redis: OwnRedis | undefined;

function start(role: Role, logDir: string): void {
  role.child = spawnNode(role.name, role.args, role.env, logDir);
}

async function killRole(role: Role): Promise<void> {
  const child = role.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGKILL');
  await exited(child);
}

/** Ends everything this soak started: on the way out, on Ctrl-C, on a failure. */
async function cleanUp(): Promise<void> {
  await Promise.all(roles.flatMap((r) => (r.child ? [stopChild(r.child, 3000)] : [])));
  await redis?.remove();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping every process of the soak`);
    void cleanUp().finally(() => process.exit(130));
  });
}
// Last resort (an uncaught failure, the run limit): no child outlives the soak.
process.on('exit', () => {
  for (const r of roles) if (r.child && r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  redis?.process?.kill('SIGKILL');
});

// --- the soak ----------------------------------------------------------------------------------------------------------

interface Stack {
  site: SoakSite;
  prefix: string;
  webs: Role[];
  workers: Role[];
  redis: OwnRedis;
}

/** Redis, the sandbox, two web processes and two workers, with one set of secrets (sessions and sealed credentials cross them). */
async function startStack(logDir: string): Promise<Stack> {
  const own = (redis = await createOwnRedis('soak-redis'));
  await own.start();
  const [sandboxPort, ...webPorts] = await Promise.all([freePort(), freePort(), freePort()]);
  const prefix = `soak-${randomUUID().slice(0, 8)}`;
  const env = {
    ...redisModeEnv({ redisUrl: own.url, prefix, webPort: webPorts[0]!, sandboxPort }),
    // Every soak person comes from 127.0.0.1.
    BANKID_STARTS_PER_IP_PER_MINUTE: '100000',
    LOG_LEVEL: 'info',
    DEFAULT_LOCALE: 'en',
  };
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox: Role = { name: 'sandbox', args: ['--enable-source-maps', 'dist/sandbox.js'], env };
  const webs: Role[] = webPorts.map((port, i) => ({
    name: `web${i + 1}`,
    args: ['--enable-source-maps', 'dist/server.js', 'web'],
    env: { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    health: `http://127.0.0.1:${port}/healthz`,
  }));
  const workers: Role[] = [1, 2].map((i) => ({ name: `worker${i}`, args: ['--enable-source-maps', 'dist/server.js', 'worker'], env }));
  roles.push(sandbox, ...webs, ...workers);
  for (const r of roles) start(r, logDir);
  await Promise.all([waitForOk(`${sandboxUrl}/sandbox/healthz`), ...webs.map((w) => waitForOk(w.health!))]);
  return { site: { sandboxUrl, webUrls: webPorts.map((p) => `http://127.0.0.1:${p}`) }, prefix, webs, workers, redis: own };
}

/** Every creation state the workers publish, as the web processes hear them (node-redis subscribes again after Redis returns). */
async function listen(stack: Stack) {
  const published = new Map<string, CreationState[]>();
  const subscriber = createClient({ url: stack.redis.url });
  subscriber.on('error', () => {});
  await subscriber.connect();
  await subscriber.pSubscribe(`${stack.prefix}:creation:*:events`, (message) => {
    const { state } = JSON.parse(message) as { state: CreationState };
    published.set(state.prospectId, [...(published.get(state.prospectId) ?? []), state]);
  });
  return { published, stop: () => subscriber.quit().catch(() => undefined) };
}

/** A restarted web answers /healthz within 30 s; started once more if not (its log says why). Answers whether it came back. */
async function cameBack(role: Role, logDir: string): Promise<boolean> {
  for (let tries = 1; ; tries++) {
    try {
      await waitForOk(role.health!, 30_000);
      return tries === 1;
    } catch {
      if (tries === 2) return false;
      await killRole(role);
      start(role, logDir);
    }
  }
}

/** The chaos until `endsAt`: a random web or worker SIGKILLed and started again every 20–60 s; Redis once, in the middle third. */
async function chaos(stack: Stack, logDir: string, startedAt: number, endsAt: number): Promise<string[]> {
  const done: string[] = [];
  const at = () => `${Math.round((Date.now() - startedAt) / 1000)} s`;
  const processes = (async () => {
    for (;;) {
      await sleep(Math.min(between(...KILL_EVERY_MS, Math.random()), endsAt - Date.now()));
      if (Date.now() >= endsAt) return;
      const killable = [...stack.webs, ...stack.workers];
      const role = killable[Math.floor(Math.random() * killable.length)]!;
      await killRole(role);
      const down = between(...DOWN_FOR_MS, Math.random());
      done.push(`${at()}: ${role.name} SIGKILLed, down ${down} ms`);
      log(`chaos: ${role.name} SIGKILLed`);
      await sleep(down);
      start(role, logDir);
      if (role.health && !(await cameBack(role, logDir))) done.push(`${at()}: ${role.name} did not come back (see its log)`);
    }
  })();
  const span = endsAt - startedAt;
  const redisRestart = (async () => {
    await sleep(between(span / 3, (span * 2) / 3, Math.random()));
    await stack.redis.kill();
    done.push(`${at()}: Redis SIGKILLed and started again (same port and AOF)`);
    log('chaos: Redis SIGKILLed');
    await stack.redis.start();
  })();
  await Promise.all([processes, redisRestart]);
  return done;
}

/** The lanes: one persona each, one journey after another until `endsAt`; answers once the last journey has ended. */
async function walkLanes(site: SoakSite, endsAt: number, journeys: JourneyRecord[]): Promise<void> {
  const lane = async (scenario: string) => {
    const persona = await personaOf(site.sandboxUrl, scenario);
    while (Date.now() < endsAt) {
      const journey: JourneyRecord = { scenario, signed: false, retries: 0 };
      const n = journeys.push(journey);
      const began = Date.now();
      try {
        await walk(journey, site, persona);
        log(`journey ${n} (${scenario}): ${journey.seen} in ${Math.round((Date.now() - began) / 1000)} s, ${journey.retries} retries`);
      } catch (err) {
        journey.stoppedBecause = err instanceof Error ? err.message : String(err);
        log(`journey ${n} (${scenario}) stopped: ${journey.stoppedBecause}`);
      }
    }
  };
  await Promise.all(Object.keys(EXPECTED).map(lane));
}

/** Each signed prospect's read-out: the sandbox brokerage's calls for it, the state kept in Redis, the final states heard. */
async function readOut(stack: Stack, journeys: JourneyRecord[], published: Map<string, CreationState[]>): Promise<Map<string, ProspectReadOut>> {
  const reader = createClient({ url: stack.redis.url });
  reader.on('error', () => {});
  await reader.connect();
  const readOuts = new Map<string, ProspectReadOut>();
  const sandbox = async <T>(path: string, id: string) =>
    (await (await fetch(`${stack.site.sandboxUrl}${path}?prospectId=${encodeURIComponent(id)}`)).json()) as T;
  for (const j of journeys) {
    if (!j.prospectId || !j.signed) continue;
    const id = j.prospectId;
    const customers = await sandbox<{ createCustomer: number[] }>('/sandbox/customers', id);
    const after = await sandbox<{ loginSessions: number; leadNumbers: string[] }>('/sandbox/after-creation', id);
    const raw = await reader.get(`${stack.prefix}:creation:${id}:latest`);
    readOuts.set(id, {
      latest: raw ? (JSON.parse(raw) as { state: CreationState }).state.outcome : null,
      finalEvents: (published.get(id) ?? []).filter((s) => isFinal(s.outcome)).map((s) => ({ runId: s.runId ?? '-', outcome: s.outcome })),
      createCustomer: customers.createCustomer,
      loginSessions: after.loginSessions,
      leadNumbers: after.leadNumbers.length,
    });
  }
  await reader.quit();
  return readOuts;
}

function report(f: SoakFigures, journeys: JourneyRecord[], chaosDone: string[], minutesRun: number): void {
  log('');
  log(`soak over ${minutesRun.toFixed(1)} min (${MINUTES} min of journeys), 2 web processes, 2 workers, ${Object.keys(EXPECTED).length} lanes`);
  log(`chaos: ${chaosDone.length} kills (Redis included)`);
  for (const line of chaosDone) log(`  ${line}`);
  const outcomes = Object.entries(f.outcomes).map(([o, n]) => `${o} ${n}`);
  log(`journeys started   ${f.started}`);
  log(`signed             ${f.signed}`);
  log(`completed          ${f.completed}  (${outcomes.join(', ')})`);
  log(`stranded           ${f.stranded}  (before signing ${f.strandedBeforeSigning})`);
  log(`outcomes lost      ${f.lost.length}`);
  log(`duplicated         ${f.duplicated.length}`);
  log(`wrong outcome      ${f.wrong.length}`);
  log(`reloads / presses again after an error: ${f.retries}  (${[...retryCauses].map(([c, n]) => `${c} ${n}`).join(', ')})`);
  for (const line of [...f.lost, ...f.duplicated, ...f.wrong]) log(`  ${line}`);
  for (const [i, j] of journeys.entries())
    if (!j.seen) log(`  journey ${i + 1} (${j.scenario}${j.prospectId ? ` ${j.prospectId}` : ''}): ${j.stoppedBecause ?? 'no outcome'}`);
}

async function main(): Promise<void> {
  const logDir = mkdtempSync(join(tmpdir(), 'soak-'));
  log(`soak: ${MINUTES} min of journeys, logs in ${logDir}`);
  const stack = await startStack(logDir);
  const events = await listen(stack);
  const startedAt = Date.now();
  const endsAt = startedAt + MINUTES * 60_000;
  const journeys: JourneyRecord[] = [];
  const lanes = walkLanes(stack.site, endsAt, journeys);
  const chaosDone = await chaos(stack, logDir, startedAt, endsAt);
  log(`journeys until ${MINUTES} min; now waiting for the ones under way (at most ${OUTCOME_WITHIN_MS / 1000} s after signing each)`);
  await lanes;
  const readOuts = await readOut(stack, journeys, events.published);
  await events.stop();
  const f = soakFigures(journeys, readOuts, EXPECTED);
  const minutesRun = (Date.now() - startedAt) / 60_000;
  report(f, journeys, chaosDone, minutesRun);
  await cleanUp();
  const failed = soakFailed(f) || chaosDone.some((line) => line.includes('did not come back'));
  await writeBenchmarks({
    sections: {
      'Chaos soak': soakSection(f, {
        at: new Date().toISOString(),
        commit: commitLine(),
        machine: machineLine(),
        minutes: MINUTES,
        minutesRun,
        chaos: chaosDone,
        retryCauses: [...retryCauses],
        failed,
      }),
    },
  });
  log(`wrote ${BENCHMARKS_FILE}`);
  if (failed) {
    log('soak FAILED');
    process.exitCode = 1;
  } else log('soak passed');
}

runBounded('soak', RUN_LIMIT_MS, () => main().finally(cleanUp));
