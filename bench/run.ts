// `npm run bench`: builds what main holds, starts it on loopback with its baselines, measures throughput, work per
// request, bytes per page, start time and the throttled phone's screens, writes the tables to docs/benchmarks.md and
// checks the budgets (PASS/FAIL; exit code 0 unless --strict). Bounded: the whole run gives up after 18 minutes.
//   npm run bench [-- --strict] [-- --quick] [-- --only lighthouse|throughput]   (one part alone: printed, the document kept)
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBounded, startBenchStack, startHelloServers, type BenchStack, type HelloServers } from './benchStack.ts';
import { peopleOn, type Person } from './people.ts';
import { measureThroughput, type Target } from './throughput.ts';
import { measurePerRequest } from './perRequest.ts';
import { measurePageBytes, ScriptSizes } from './pageBytes.ts';
import { measureStartTimes } from './startTime.ts';
import { COLD_BANKID, measurePhoneTimings } from './phoneTimings.ts';
import { loadManifest } from '../server/render.tsx';
import { lighthouseTable, measureLighthouse } from './lighthouse.ts';
import { checkBudgets, verdictWord, type ThroughputPage } from './budgets.ts';
import { ratio } from './benchMath.ts';
import { BENCHMARKS_FILE, commitLine, machineLine, renderReport, throughputTable, writeBenchmarks } from './report.ts';

const strict = process.argv.includes('--strict');
const quick = process.argv.includes('--quick');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const settings = {
  rounds: quick ? 2 : 3,
  seconds: quick ? 2 : 4,
  warmupSeconds: quick ? 1 : 2,
  connections: 8,
  /** People per page: two per connection. */
  people: 16,
  perRequest: 5,
  startRuns: 5,
};
// Lighthouse (at most LIGHTHOUSE_CAP_MS) takes about as long as the rest together.
const LIGHTHOUSE_CAP_MS = 8 * 60_000;
const RUN_LIMIT_MS = 18 * 60_000;

const log = (line: string) => process.stdout.write(`${line}\n`);

function build(): void {
  log('building (client and server, as npm run build)');
  execFileSync(process.execPath, ['esbuild.config.mjs', '--quiet'], { stdio: 'inherit', timeout: 120_000 });
  execFileSync(process.execPath, ['esbuild.server.mjs', '--quiet'], { stdio: 'inherit', timeout: 120_000 });
}

async function prepare(stack: BenchStack): Promise<Record<'step' | 'kyc' | 'legacy', Person[]>> {
  const started = performance.now();
  const [step, kyc, legacy] = await Promise.all([
    peopleOn('step', settings.people, stack.webUrl, stack.sandboxUrl),
    peopleOn('kyc', settings.people, stack.webUrl, stack.sandboxUrl),
    peopleOn('legacy', settings.people + 1, stack.webUrl, stack.sandboxUrl),
  ]);
  log(`identified ${step.length + kyc.length + legacy.length} people in ${Math.round((performance.now() - started) / 1000)} s`);
  return { step, kyc, legacy };
}

/** `--only lighthouse`: the bench's stack and that part, printed. */
async function lighthouseOnly(): Promise<void> {
  build();
  const logDir = mkdtempSync(join(tmpdir(), 'bench-'));
  log(`process logs in ${logDir}`);
  const stack = await startBenchStack(logDir);
  try {
    log('Lighthouse on every page (mobile, simulated throttling)');
    const scores = await measureLighthouse(stack.webUrl, stack.sandboxUrl, log, LIGHTHOUSE_CAP_MS);
    log(`\n${lighthouseTable(scores)}\n`);
    const verdict = checkBudgets({
      ratioToExpress: {},
      startToFirstAnswerMs: NaN,
      screens: [],
      reactBrotli: NaN,
      coldBankidUsableMs: null,
      lighthouse: scores,
    }).at(-1)!;
    log(`${verdictWord(verdict.pass).padEnd(4)}  ${verdict.target}: ${verdict.actual}`);
    if (strict && verdict.pass === false) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

/** The throughput targets: the hellos, /healthz, each page, and each page with brotli accepted (its compressed figure). */
function throughputTargets(stack: BenchStack, hellos: HelloServers, people: Record<'step' | 'kyc' | 'legacy', Person[]>) {
  const visitors = (list: Person[]) => list.map((p) => ({ cookie: p.cookie, path: p.page }));
  const pages: Array<Target & { page?: ThroughputPage }> = [
    { name: 'Express hello', url: hellos.expressUrl, path: '/' },
    { name: 'node:http hello', url: hellos.httpUrl, path: '/' },
    { name: '/healthz', page: 'healthz', url: stack.webUrl, path: '/healthz' },
    { name: 'start page', page: 'start', url: stack.webUrl, path: '/onboarding' },
    { name: 'step page (account picker)', page: 'step', url: stack.webUrl, path: people.step[0]!.page, visitors: visitors(people.step) },
    { name: 'KYC question page', page: 'kyc', url: stack.webUrl, path: people.kyc[0]!.page, visitors: visitors(people.kyc) },
    // The first legacy person is kept for the phone's walk.
    { name: 'legacy form', page: 'legacy', url: stack.webUrl, path: people.legacy[1]!.page, visitors: visitors(people.legacy.slice(1)) },
  ];
  const compressed = pages
    .filter((t) => t.page !== undefined && t.page !== 'healthz')
    .map(({ page: _page, ...t }) => ({ ...t, name: `${t.name}, brotli`, headers: { 'accept-encoding': 'br' } }));
  return { pages: [...pages, ...compressed], productPages: pages.filter((t) => t.page) };
}

async function main(): Promise<void> {
  if (only === 'lighthouse') return lighthouseOnly();
  if (only !== undefined && only !== 'throughput') throw new Error(`--only ${only}: the bench knows only --only lighthouse and --only throughput`);
  const startedAt = new Date();
  const started = performance.now();
  log(`npm run bench${only ? ` -- --only ${only}` : ''} on ${machineLine()}`);
  build();
  const logDir = mkdtempSync(join(tmpdir(), 'bench-'));
  log(`process logs in ${logDir}`);
  let stack: BenchStack | undefined;
  let hellos: HelloServers | undefined;
  try {
    [stack, hellos] = await Promise.all([startBenchStack(logDir), startHelloServers(logDir)]);
    const people = await prepare(stack);
    const { pages, productPages } = throughputTargets(stack, hellos, people);
    log(`throughput: ${settings.rounds} rounds × ${settings.seconds} s per target, ${settings.connections} connections`);
    const rates = await measureThroughput(pages, { ...settings, log });
    // `--only throughput`: that table, printed.
    if (only === 'throughput') {
      log(`\n${throughputTable(rates)}\n`);
      return;
    }

    log('work per request');
    const perRequest = await measurePerRequest(productPages, {
      redisPort: stack.redis.port,
      upstreamCalls: stack.upstream.calls,
      worker: stack.worker,
      requests: settings.perRequest,
    });

    log('bytes per page');
    const manifest = loadManifest();
    const sizes = new ScriptSizes(manifest.react);
    const bytes = [];
    for (const t of productPages.filter((p) => p.page !== 'healthz'))
      bytes.push(await measurePageBytes(t.name, new URL(t.path, t.url).href, sizes, t.visitors?.[0]?.cookie));

    log(`process start to first answer, ${settings.startRuns} runs`);
    const startTimes = await measureStartTimes(stack.webEnv, logDir, settings.startRuns);

    log('the journey on a throttled phone');
    const screens = await measurePhoneTimings(stack.webUrl, stack.sandboxUrl, people.legacy[0]!, sizes, log);

    log('Lighthouse on every page (mobile, simulated throttling)');
    const lighthouse = await measureLighthouse(stack.webUrl, stack.sandboxUrl, log, LIGHTHOUSE_CAP_MS);

    const express = rates.find((r) => r.name === 'Express hello')?.median ?? NaN;
    const ratioToExpress = Object.fromEntries(productPages.map((t) => [t.page, ratio(rates.find((r) => r.name === t.name)?.median ?? NaN, express)]));
    const budgets = checkBudgets({
      ratioToExpress,
      // The slower of the two roles.
      startToFirstAnswerMs: Math.max(startTimes.webMedian, startTimes.workerMedian),
      screens: screens.filter((s) => s.name !== COLD_BANKID).map((s) => ({ name: s.name, usableMs: s.usableMs, ownJsBrotli: s.ownJs.br })),
      reactBrotli: (await sizes.of(new URL(manifest.react!, stack.webUrl).href)).br,
      coldBankidUsableMs: screens.find((s) => s.name === COLD_BANKID)?.usableMs ?? null,
      lighthouse,
    });
    const report = renderReport({
      startedAt,
      seconds: (performance.now() - started) / 1000,
      commit: commitLine(),
      settings: `${settings.rounds} rounds × ${settings.seconds} s per target (alternating order, median), ${settings.connections} connections, ${settings.people} people per page; ${settings.perRequest} requests per page for the work per request; ${settings.startRuns} process starts`,
      rates,
      perRequest,
      bytes,
      startTimes,
      screens,
      lighthouse,
      budgets,
    });
    // The sections of `npm run bench:peak` and `npm run soak` stay.
    await writeBenchmarks({ main: report });
    log(`\n${report}`);
    log(`wrote ${BENCHMARKS_FILE}`);
    for (const b of budgets) log(`${verdictWord(b.pass).padEnd(4)}  ${b.target}: ${b.actual}`);
    if (strict && budgets.some((b) => b.pass === false)) process.exitCode = 1;
  } finally {
    await Promise.all([stack?.stop(), hellos?.stop()]);
  }
}

runBounded('npm run bench', RUN_LIMIT_MS, main);
