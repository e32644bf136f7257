// The pure parts of `npm run bench:peak` (bench/peakMath.ts): percentiles and the lateness of each poll on its run's grid.
import { describe, expect, it } from 'vitest';
import { chainTimes, keptGrid, nextCapacityTry, percentile } from '../../bench/peakMath.ts';

describe('percentile (nearest rank)', () => {
  it.each([
    { values: [], p: 50, expected: NaN },
    { values: [7], p: 99, expected: 7 },
    { values: [3, 1, 2], p: 50, expected: 2 },
    { values: [1, 2, 3, 4], p: 50, expected: 2 },
    { values: Array.from({ length: 100 }, (_, i) => i + 1), p: 99, expected: 99 },
    { values: Array.from({ length: 100 }, (_, i) => i + 1), p: 100, expected: 100 },
    { values: [5, Number.NaN, 1], p: 100, expected: 5 },
  ])('p$p of $values is $expected', ({ values, p, expected }) => {
    expect(percentile(values, p)).toBe(expected);
  });
});

describe('chainTimes: each poll against its due time, the run start + n × interval', () => {
  it('measures lateness on the grid, so a late poll does not make the next ones look early', () => {
    // Start at 1000; poll 1 due 3000 ran at 3500 (500 late); poll 2 due 5000 ran on time; poll 3 due 7000 ran at 7100.
    const times = chainTimes([[1000, 3500, 5000, 7100]], 3, 2000);
    expect(times).toEqual({ lateness: [500, 0, 100], lastPollMs: [6100], runsFinished: 1, polls: 3 });
  });

  it('counts a run without its last poll as unfinished and one without a start not at all', () => {
    const times = chainTimes(
      [
        [0, 2000, undefined],
        [undefined, 2000, 4000],
      ],
      2,
      2000,
    );
    expect(times).toEqual({ lateness: [0], lastPollMs: [], runsFinished: 0, polls: 1 });
  });
});

describe('the capacity search: the most creations whose last poll keeps its grid', () => {
  it('keeps the grid only when every run finished and the last poll is within the slack at p99', () => {
    const onTime = { lastPollMs: Array.from({ length: 100 }, (_, i) => 90_000 + i * 10), runsFinished: 100 };
    expect(keptGrid(onTime, 100, 90_000, 2000)).toBe(true);
    expect(keptGrid(onTime, 101, 90_000, 2000)).toBe(false);
    expect(keptGrid({ lastPollMs: [...onTime.lastPollMs.slice(0, 98), 92_500, 93_000], runsFinished: 100 }, 100, 90_000, 2000)).toBe(false);
  });

  it.each([
    { kept: [5000], missed: [], next: 10_000 },
    { kept: [], missed: [5000], next: 2500 },
    { kept: [], missed: [250], next: null },
    { kept: [5000], missed: [10_000], next: 7500 },
    { kept: [5000, 7500], missed: [10_000], next: 8750 },
    { kept: [5000], missed: [5250], next: null },
  ])('after kept $kept and missed $missed it tries $next', ({ kept, missed, next }) => {
    expect(nextCapacityTry(kept, missed)).toBe(next);
  });

  it.each([
    { kept: [5000], missed: [], aim: 7400, next: 7500 },
    { kept: [5000], missed: [10_000], aim: 6000, next: 6000 },
    { kept: [5000, 6000], missed: [10_000], aim: 6000, next: 8000 },
    { kept: [5000], missed: [], aim: 3000, next: 10_000 },
    { kept: [], missed: [5000], aim: 6000, next: 2500 },
  ])('aiming at $aim after kept $kept and missed $missed it tries $next', ({ kept, missed, aim, next }) => {
    expect(nextCapacityTry(kept, missed, { aim })).toBe(next);
  });
});
