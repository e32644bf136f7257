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
