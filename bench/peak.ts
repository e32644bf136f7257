// `npm run bench:peak`: the worker and the creation streams at peak, each beside its bare baseline (poll lateness
// and Redis commands per poll; the memory of N open streams and one outcome's fan-out). Writes its section ("## At
// peak") into docs/benchmarks.md and checks its targets (exit code 0 unless --strict). Method: docs/benchmarkMethods.md.
//   npm run bench:peak [-- --creations 5000] [-- --capacity-steps 3] [-- --streams 10000] [-- --only worker|streams] [-- --strict]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatMs, formatRatio, markdownTable, ratio } from './benchMath.ts';
import { machineLine } from './report.ts';
import { runBounded } from './benchStack.ts';
import {
  CAPACITY_SLACK_MS,
  CAPACITY_TARGET,
  capacityFound,
  cpuPerPoll,
  latenessOf,
  measureWorkerAtPeak,
  POLL_INTERVAL_MS,
  POLLING_TRIES,
  type Capacity,
  type WorkerAtPeak,
} from './peakWorker.ts';
import { measureStreamsAtPeak, type StreamsAtPeak } from './peakStreams.ts';
import { percentile } from './peakMath.ts';
import { BENCHMARKS_FILE, writeBenchmarks } from './report.ts';
import { keptPart, sectionOf } from './reportSections.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
};
const creations = Number(arg('creations') ?? 5000);
const capacitySteps = Number(arg('capacity-steps') ?? 3);
const streams = Number(arg('streams') ?? 10_000);
const only = arg('only');
const strict = process.argv.includes('--strict');
const RUN_LIMIT_MS = 20 * 60_000;
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Budget {
  target: string;
  actual: string;
  pass: boolean;
}

function workerSection(w: WorkerAtPeak): { text: string; budgets: Budget[] } {
  const [p, b] = [latenessOf(w.product), latenessOf(w.bare)];
  const row = (name: string, t: WorkerAtPeak['product'], l: { p50: number; p99: number }) => [
    name,
    `${t.runsFinished} / ${w.runs}`,
    formatMs(l.p50),
    formatMs(l.p99),
    formatMs(percentile(t.lastPollMs, 50)),
    formatMs(percentile(t.lastPollMs, 99)),
    (t.redisCommands / Math.max(1, t.polls)).toFixed(1),
    `${cpuPerPoll(t).toFixed(3)} ms`,
    `${Math.round(t.seconds)} s`,
  ];
  const capacity = (c: Capacity) => {
    const missed = c.missed.filter((n) => n > capacityFound(c));
    return `${capacityFound(c)}${missed.length ? ` (${Math.min(...missed)} missed)` : ' (no size tried missed)'}`;
  };
  const due = POLLING_TRIES * POLL_INTERVAL_MS;
  const lastP99 = percentile(w.product.lastPollMs, 99);
  const cpuRatio = ratio(cpuPerPoll(w.product), cpuPerPoll(w.bare));
  const capacityRatio = ratio(capacityFound(w.capacity.product), capacityFound(w.capacity.bare));
  const text = [
    `### The worker: ${w.runs} customer creations at once`,
    '',
    `Each run polls every ${POLL_INTERVAL_MS} ms to its ${POLLING_TRIES}th try (a stub brokerage keeps it queued). Lateness of poll n: when it reached`,
    'the brokerage (bare chain: when its job started) less its due time, the run’s start + n × the interval (the product’s',
    'start: its initial status check, just before the worker sets the grid, so the product’s lateness is if anything',
    'overstated). The 45th poll: its time from the run’s start. Redis commands: INFO commandstats over the phase, per poll.',
    'CPU / poll: the process’s CPU time (user + system) from its first creation to the phase’s end, over the polls it ran.',
    '',
    markdownTable(
      ['chain', 'runs finished', 'lateness p50', 'lateness p99', '45th poll p50', '45th poll p99', 'Redis commands / poll', 'CPU / poll', 'phase'],
      [row('product worker', w.product, p), row('bare BullMQ chain', w.bare, b)],
    ),
    '',
    `Lateness p99: product ÷ bare = ${formatRatio(ratio(p.p99, b.p99))}; CPU per poll: ${formatRatio(cpuRatio)}.`,
    '',
    `Capacity: the most creations at once whose ${POLLING_TRIES}th poll lands within ${CAPACITY_SLACK_MS} ms of its due time at p99, every run`,
    `finished (searched from ${w.runs}, at most ${capacitySteps} more phases a side: the bare chain's doubling, halving, then halfway; the`,
    `product's first at ${CAPACITY_TARGET}× the bare chain's, then likewise; so each a lower bound within its search's step):`,
    `product worker ${capacity(w.capacity.product)}, bare BullMQ chain ${capacity(w.capacity.bare)}; product ÷ bare = ${formatRatio(capacityRatio)}.`,
  ].join('\n');
  const latenessRatio = ratio(Math.max(p.p99, 1), Math.max(b.p99, 1));
  return {
    text,
    budgets: [
      {
        target: `worker poll lateness p99 at ${w.runs} creations ≤ 1.5× the bare chain`,
        actual: `${formatMs(p.p99)} vs ${formatMs(b.p99)} (${formatRatio(latenessRatio)})`,
        pass: latenessRatio <= 1.5,
      },
      { target: `${POLLING_TRIES}th poll p99 ≤ ${formatMs(due + 2000)}`, actual: formatMs(lastP99), pass: lastP99 <= due + 2000 },
      { target: 'worker CPU per poll ≤ 2× the bare chain', actual: formatRatio(cpuRatio), pass: cpuRatio <= 2 },
      { target: `worker capacity ≥ ${CAPACITY_TARGET}× the bare chain`, actual: formatRatio(capacityRatio), pass: capacityRatio >= CAPACITY_TARGET },
      { target: `every run reaches its ${POLLING_TRIES}th poll`, actual: `${w.product.runsFinished} of ${w.runs}`, pass: w.product.runsFinished === w.runs },
    ],
  };
}

function streamsSection(s: StreamsAtPeak): { text: string; budgets: Budget[] } {
  const row = (name: string, side: StreamsAtPeak['product']) => [
    name,
    `${side.before.rssMb.toFixed(0)} MB`,
    `${side.open.rssMb.toFixed(0)} MB`,
    `${side.perStreamKb.toFixed(1)} kB`,
    `${side.heapPerStreamKb.toFixed(1)} kB`,
    formatMs(side.fanOutMs),
  ];
  const perStream = ratio(s.product.perStreamKb, s.bare.perStreamKb);
  const fanOut = ratio(s.product.fanOutMs, s.bare.fanOutMs);
  const text = [
    `### Creation streams: ${s.streams} open on one web process`,
    '',
    'RSS before and with the streams open (the product’s of as many people, each with a session), and per stream, RSS and JS',
    'heap, each read after a full garbage collection; fan-out:',
    'one outcome to that many streams of one person, from the publish (the product: through Redis, as the worker publishes) to',
    'the last stream receiving it.',
    '',
    markdownTable(
      ['server', 'RSS before', `RSS with ${s.streams} streams`, 'RSS per stream', 'heap per stream', 'fan-out'],
      [row('web process', s.product), row('bare node:http SSE', s.bare)],
    ),
    '',
    `Per stream: product ÷ bare = ${formatRatio(perStream)}; fan-out: ${formatRatio(fanOut)}.`,
  ].join('\n');
  return {
    text,
    budgets: [
      { target: `${s.streams} open streams ≤ 250 MB RSS`, actual: `${s.product.open.rssMb.toFixed(0)} MB`, pass: s.product.open.rssMb <= 250 },
      { target: 'memory per stream ≤ 1.5× the bare server', actual: formatRatio(perStream), pass: perStream <= 1.5 },
      { target: `one outcome to ${s.streams} streams ≤ 1.5× the bare broadcast`, actual: formatRatio(fanOut), pass: fanOut <= 1.5 },
    ],
  };
}

async function main(): Promise<void> {
  const startedAt = new Date();
  log(`npm run bench:peak on ${machineLine()}`);
  execFileSync(process.execPath, ['esbuild.server.mjs', '--quiet'], { stdio: 'inherit', timeout: 120_000 });
  const logDir = mkdtempSync(join(tmpdir(), 'bench-peak-'));
  log(`process logs in ${logDir}`);
  const parts: Array<{ text: string; budgets: Budget[] }> = [];
  // A part not run this time keeps the last run's figures and verdicts, marked as such (bench/reportSections.ts).
  const before = sectionOf(existsSync(BENCHMARKS_FILE) ? readFileSync(BENCHMARKS_FILE, 'utf8') : '', 'At peak');
  const kept = (heading: string, targets: RegExp) => {
    const { text, rows } = keptPart(before, heading, targets);
    return { text, budgets: rows.map(([target = '', actual = '', verdict = '']) => ({ target, actual, pass: verdict === 'PASS' })) };
  };
  parts.push(
    only === 'streams' ? kept('The worker', /worker|poll|every run/) : workerSection(await measureWorkerAtPeak(creations, capacitySteps, logDir, log)),
  );
  parts.push(only === 'worker' ? kept('Creation streams', /stream|outcome to/) : streamsSection(await measureStreamsAtPeak(streams, logDir, log)));
  const budgets = parts.flatMap((p) => p.budgets);
  const section = [
    '## At peak',
    '',
    `Written by \`npm run bench:peak\` (bench/peak.ts). Run: ${startedAt.toISOString()}, ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s; ${machineLine()}.`,
    '',
    ...parts.map((p) => p.text).filter(Boolean),
    '',
    markdownTable(
      ['target', 'this run', 'verdict'],
      budgets.map((b) => [b.target, b.actual, b.pass ? 'PASS' : 'FAIL']),
    ),
  ].join('\n\n');
  await writeBenchmarks({ sections: { 'At peak': section } });
  log(`\n${section}\n\nwrote ${BENCHMARKS_FILE}`);
  if (strict && budgets.some((b) => !b.pass)) process.exitCode = 1;
}

runBounded('npm run bench:peak', RUN_LIMIT_MS, main);
