// The README's capacity table, worked out from docs/benchmarks.md (the last `npm run bench` and `bench:peak`), so
// that the figures operators plan with always follow from a run: each bench rewrites it after writing its part, and
// tests/unit/capacityPlan.test.ts fails when the README's table is not the one the document gives.
import { markdownTable } from './benchMath.ts';

/**
 * A prospect's journey over plain HTTP (docs/operations/capacity.md): 24 page views, each costed as the mean of the step
 * and KYC pages measured, and 24 other requests (step posts and their redirects, BankID, routing, creation), not
 * benched one by one, each costed as the legacy form: the heaviest page measured, which calls the brokerage as a post does.
 */
const PAGE_VIEWS = 24;
const OTHER_REQUESTS = 24;
/** A creation run polls at most 45 times, 2 s apart (identification-routing-creation §8): 90 s a run at most. */
const RUN_SECONDS = 90;
/** Operators plan with half of what one process managed on the bench (it shared its cores with Redis and the load). */
const PLAN_SHARE = 0.5;

export const CAPACITY_START = '<!-- capacity table: written by npm run bench and bench:peak (bench/capacityPlan.ts) -->';
export const CAPACITY_END = '<!-- end of capacity table -->';

/** The median req/s of a throughput row (`| step page (account picker) | 857 | …`), or undefined. */
function ratePerSecond(benchmarks: string, target: string): number | undefined {
  const row = benchmarks.split('\n').find((line) => line.startsWith(`| ${target} `));
  const cell = row?.split('|')[2]?.trim().replace(/,/g, '');
  return cell && /^\d+(\.\d+)?$/.test(cell) ? Number(cell) : undefined;
}

/** The worker's capacity (`product worker 5000 (…)` on the "Capacity:" lines of bench:peak), or undefined. */
function workerCapacity(benchmarks: string): number | undefined {
  const capacity = /Capacity:[\s\S]*?product worker (\d+)/.exec(benchmarks);
  return capacity ? Number(capacity[1]) : undefined;
}

/** The streams row of bench:peak (`| web process | 116 MB | 218 MB | …`): how many were open and the RSS with them. */
function streams(benchmarks: string): { open: number; rssMb: number } | undefined {
  const open = /Creation streams: (\d+) open/.exec(benchmarks);
  const row = benchmarks.split('\n').find((line) => line.startsWith('| web process '));
  const rss = row
    ?.split('|')[3]
    ?.trim()
    .match(/^(\d+) MB$/);
  return open && rss ? { open: Number(open[1]), rssMb: Number(rss[1]) } : undefined;
}

const grouped = (n: number) => Math.round(n).toLocaleString('en');
/** Rounded down to two significant digits: a plan, not a measurement. */
const roughly = (n: number) => {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return grouped(Math.floor(n / unit) * unit);
};

/** The capacity table's rows (role, measured, plan with) from docs/benchmarks.md's text. */
export function capacityRows(benchmarks: string): string[][] {
  const step = ratePerSecond(benchmarks, 'step page (account picker)');
  const kyc = ratePerSecond(benchmarks, 'KYC question page');
  const legacy = ratePerSecond(benchmarks, 'legacy form');
  const rows: string[][] = [];
  if (step && kyc && legacy) {
    const msPerJourney = PAGE_VIEWS * ((1000 / step + 1000 / kyc) / 2) + OTHER_REQUESTS * (1000 / legacy);
    rows.push([
      '`web`: prospects an hour',
      `${grouped(step)} step pages/s, ${grouped(kyc)} KYC questions/s, ${grouped(legacy)} legacy forms/s: ${Math.round(msPerJourney)} ms of the process a journey`,
      roughly((3_600_000 / msPerJourney) * PLAN_SHARE),
      'CPU',
    ]);
  }
  const open = streams(benchmarks);
  if (open) rows.push(['`web`: open creation streams', `${grouped(open.open)} in ${open.rssMb} MB RSS`, roughly(open.open * PLAN_SHARE), 'memory']);
  const runs = workerCapacity(benchmarks);
  if (runs)
    rows.push([
      '`worker`: creations at once',
      `${grouped(runs)} runs on their 2-second grid`,
      `${roughly(runs * PLAN_SHARE)} (${roughly(((runs * PLAN_SHARE) / RUN_SECONDS) * 3600)} an hour if every run polled 45 times)`,
      'CPU (one brokerage call a poll)',
    ]);
  return rows;
}

/** The table itself, between its markers. */
export function capacityTable(benchmarks: string): string {
  const rows = capacityRows(benchmarks);
  const table = rows.length
    ? markdownTable(['per process', 'measured (docs/benchmarks.md)', 'plan with (half)', 'what limits it'], rows)
    : 'No bench run on record.';
  return `${CAPACITY_START}\n\n${table}\n\n${CAPACITY_END}`;
}

/** `readme` with its capacity table replaced by the one `benchmarks` gives (unchanged when it has no markers). */
export function withCapacityTable(readme: string, benchmarks: string): string {
  const start = readme.indexOf(CAPACITY_START);
  const end = readme.indexOf(CAPACITY_END);
  if (start === -1 || end < start) return readme;
  return `${readme.slice(0, start)}${capacityTable(benchmarks)}${readme.slice(end + CAPACITY_END.length)}`;
}
