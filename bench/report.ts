// The bench's report: the machine, then one table per measurement, then the budgets; printed and written to
// docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { withSections } from './reportSections.ts';
import { cpus } from 'node:os';
import { withCapacityTable } from './capacityPlan.ts';
import { formatKb, formatMs, formatRate, formatRatio, markdownTable, ratio } from './benchMath.ts';
import { verdictWord, type BudgetVerdict } from './budgets.ts';
import type { TargetRate } from './throughput.ts';
import type { PerRequestWork } from './perRequest.ts';
import type { PageBytes } from './pageBytes.ts';
import type { StartTimes } from './startTime.ts';
import type { ScreenTiming } from './phoneTimings.ts';
import { lighthouseTable, type LighthouseScores } from './lighthouse.ts';

export interface BenchReport {
  startedAt: Date;
  seconds: number;
  commit: string;
  settings: string;
  rates: TargetRate[];
  perRequest: PerRequestWork[];
  bytes: PageBytes[];
  startTimes: StartTimes;
  screens: ScreenTiming[];
  lighthouse: LighthouseScores[];
  budgets: BudgetVerdict[];
}

/** docs/benchmarks.md, which npm run bench, bench:peak and soak each write their part of (bench/reportSections.ts). */
export const BENCHMARKS_FILE = 'docs/benchmarks.md';

/** Rewrites docs/benchmarks.md with `changes`, the other parts kept, in the project's format (npm test checks it). */
export async function writeBenchmarks(changes: Parameters<typeof withSections>[1]): Promise<void> {
  mkdirSync('docs', { recursive: true });
  const before = existsSync(BENCHMARKS_FILE) ? readFileSync(BENCHMARKS_FILE, 'utf8') : '# Benchmarks\n';
  const benchmarks = await format(withSections(before, changes), { ...(await resolveConfig(BENCHMARKS_FILE)), parser: 'markdown' });
  writeFileSync(BENCHMARKS_FILE, benchmarks);
  // The README's capacity table follows from the figures just written.
  const readme = readFileSync('README.md', 'utf8');
  writeFileSync('README.md', await format(withCapacityTable(readme, benchmarks), { ...(await resolveConfig('README.md')), parser: 'markdown' }));
}

/** The commit the bench ran on, marked when the tree had uncommitted changes. */
export function commitLine(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

export function machineLine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, Node ${process.version}, ${process.platform} ${process.arch}`;
}

export function throughputTable(rates: TargetRate[]): string {
  const rate = (name: string) => rates.find((r) => r.name === name)?.median ?? NaN;
  const express = rate('Express hello');
  const http = rate('node:http hello');
  return markdownTable(
    ['target', 'req/s (median)', 'rounds', '× Express hello', '× node:http hello', 'latency p50', 'failed answers'],
    rates.map((r) => [
      r.name,
      formatRate(r.median),
      r.rounds.map((x) => formatRate(x)).join(' / '),
      formatRatio(ratio(r.median, express)),
      formatRatio(ratio(r.median, http)),
      formatMs(r.latencyP50.sort((a, b) => a - b)[Math.floor(r.latencyP50.length / 2)]),
      String(r.failures),
    ]),
  );
}

export function renderReport(r: BenchReport): string {
  const screens = markdownTable(
    ['screen', 'painted (FCP)', 'usable', 'usable from the click', 'islands', 'JS br', 'own island JS br'],
    r.screens.map((s) => [
      s.name,
      formatMs(s.fcpMs),
      s.hydrated ? formatMs(s.usableMs) : `${formatMs(s.usableMs)} (not hydrated)`,
      formatMs(s.usableFromPostMs),
      s.islands.join(', ') || '—',
      formatKb(s.js.br),
      formatKb(s.ownJs.br),
    ]),
  );
  const bytes = markdownTable(
    ['page', 'HTML br', 'HTML gzip', 'HTML raw', 'JS br', 'JS gzip', 'JS raw', 'lazy JS gzip'],
    r.bytes.map((b) => [
      b.name,
      formatKb(b.html.br),
      formatKb(b.html.gzip),
      formatKb(b.html.raw),
      formatKb(b.js.br),
      formatKb(b.js.gzip),
      formatKb(b.js.raw),
      formatKb(b.lazyJs.gzip),
    ]),
  );
  const work = markdownTable(
    ['page', 'Redis commands / request', 'upstream calls / request', 'commands of one request', 'upstream calls of one request'],
    r.perRequest.map((w) => [w.name, w.redisCommands.toFixed(1), w.upstreamCalls.toFixed(1), w.commands || '—', w.calls || '—']),
  );
  const start = markdownTable(
    ['process', 'start to first answer (median)', 'runs'],
    [
      ['web (`node dist/server.js web`, /healthz)', formatMs(r.startTimes.webMedian), r.startTimes.webMs.map((m) => formatMs(m)).join(' / ')],
      [
        'worker (`node dist/server.js worker`, its metrics /healthz)',
        formatMs(r.startTimes.workerMedian),
        r.startTimes.workerMs.map((m) => formatMs(m)).join(' / '),
      ],
      ['Express hello', formatMs(r.startTimes.expressHelloMedian), r.startTimes.expressHelloMs.map((m) => formatMs(m)).join(' / ')],
      ['web ÷ Express hello', formatRatio(ratio(r.startTimes.webMedian, r.startTimes.expressHelloMedian)), ''],
    ],
  );
  const budgets = markdownTable(
    ['target', 'this run', 'verdict'],
    r.budgets.map((b) => [b.target, b.actual, verdictWord(b.pass)]),
  );
  return `# Benchmarks

Written by \`npm run bench\` (bench/run.ts); re-run it to replace this file. Absolute figures depend on the machine
and on what else runs on it; the ratios within one run are what the budgets judge.

- Run: ${r.startedAt.toISOString()}, ${Math.round(r.seconds)} s, commit ${r.commit}
- Machine: ${machineLine()}
- Settings: ${r.settings}

## Throughput (production web on Redis, one process)

${throughputTable(r.rates)}

## Work per request

Redis: the commands the web sent (MONITOR on the bench's own Redis, the worker paused; commands a Lua script runs
inside Redis not counted). Upstream: the calls reaching the sandbox. Averages over a few GETs of each page.

${work}

## Bytes per page as sent

JavaScript: the page's scripts and the modules they import statically (the critical path); lazy: modules imported later.

${bytes}

## Process start to first answer

${start}

## The journey on a throttled phone (slow 4G, 4× CPU, 360×740)

Painted: First Contentful Paint. Usable: the latest of that paint, the load event's end, the moment the page's last
island had hydrated (its \`island:<name>\` mark) and the end of the last long task before 500 ms without one. Both from the start of the screen's own GET, as a page loaded by its address; "from the click" adds the
form post and its redirect that led there. One person walks the journey with JavaScript, the browser keeping its
cache along the way (the start page is a first visit); the legacy form is a second person's, in the same browser.
"Own island JS" is the page's JavaScript but the shared React chunk. Last, a cold visit: a new browser whose first
page of ours to load its files is the BankID page (the start page's files refused), with an empty cache.

${screens}

## Lighthouse (mobile, simulated throttling)

Lighthouse 12's defaults (mobile screen, slow 4G and 4× CPU simulated, cache cleared before each page) in the same
Chromium, with the person's cookies: each distinct screen a person reaches once (the first KYC question for all).
Scores as Lighthouse shows them; for a page under target, the audits that cost the most. benchmarkIndex: Lighthouse's
measure of this host's CPU during the audit (Chrome DevTools' calibration puts a Pixel 5 at about 1000, a low-end phone
at about 260); the simulated 4× slowdown multiplies what this host took, so a busy host scores its script-heavy pages lower.

${lighthouseTable(r.lighthouse)}

## Budgets

${budgets}
`;
}
