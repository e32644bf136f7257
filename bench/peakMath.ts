// Pure helpers of `npm run bench:peak` (bench/peak.ts). No I/O, so tests/unit/peakMath.test.ts can table-test them.

/** The p-th percentile (nearest rank: the smallest value with at least p % of the values at or below it); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (finite.length === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * finite.length));
  return finite[Math.min(rank, finite.length) - 1]!;
}

export interface ChainTimes {
  /** Per run: lateness of polls 2…45 (ms). */
  lateness: number[];
  /** Per run: poll 45's time from the run's start (ms). */
  lastPollMs: number[];
  runsFinished: number;
  polls: number;
  redisCommands: number;
  seconds: number;
  /** The process's CPU time (user + system) from its first poll's start to its last run's end (ms). */
  cpuMs: number;
}

/**
 * Lateness and the last poll's time from each run's times: index 0 the run's start (the product: its initial status
 * check, right before the worker sets the run's grid; the bare chain: its first job's start, which is its grid), n its
 * poll n, due at the start + n × interval.
 */
export function chainTimes(
  runs: ReadonlyArray<ReadonlyArray<number | undefined>>,
  polls: number,
  intervalMs: number,
): Pick<ChainTimes, 'lateness' | 'lastPollMs' | 'runsFinished' | 'polls'> {
  const lateness: number[] = [];
  const lastPollMs: number[] = [];
  let runsFinished = 0;
  let pollCount = 0;
  for (const t of runs) {
    const start = t[0];
    if (start === undefined) continue;
    for (let n = 1; n <= polls; n++) {
      const at = t[n];
      if (at === undefined) continue;
      pollCount++;
      lateness.push(at - (start + n * intervalMs));
    }
    const last = t[polls];
    if (last !== undefined) {
      runsFinished++;
      lastPollMs.push(last - start);
    }
  }
  return { lateness, lastPollMs, runsFinished, polls: pollCount };
}

/**
 * Whether a phase of `runs` creations kept its grid: every run reached its last poll, and that poll's time from the run's
 * start, at p99, is within `slackMs` of its due time (polls × interval).
 */
export function keptGrid(t: Pick<ChainTimes, 'lastPollMs' | 'runsFinished'>, runs: number, dueMs: number, slackMs: number): boolean {
  return t.runsFinished === runs && percentile(t.lastPollMs, 99) <= dueMs + slackMs;
}

/**
 * The next number of creations the capacity search tries, from the sizes that kept the grid and those that missed it:
 * `aim` first (rounded to `step`) while it lies between the two (the product's: the size its target asks for), then twice
 * the largest kept while none missed, half the smallest missed while none kept, else halfway between (to `step`); null
 * once the two are within a step of each other.
 */
export function nextCapacityTry(kept: readonly number[], missed: readonly number[], options: { step?: number; aim?: number } = {}): number | null {
  const step = options.step ?? 250;
  const best = kept.length ? Math.max(...kept) : undefined;
  const worst = missed.length ? Math.min(...missed) : undefined;
  const aim = options.aim === undefined ? undefined : Math.max(step, Math.round(options.aim / step) * step);
  if (aim !== undefined && aim > (best ?? 0) && aim < (worst ?? Infinity)) return aim;
  if (worst === undefined) return (best ?? step) * 2;
  if (best === undefined) return worst <= step ? null : Math.max(step, Math.round(worst / 2 / step) * step);
  const mid = Math.round((best + worst) / 2 / step) * step;
  return mid <= best || mid >= worst ? null : mid;
}
