// The pure helpers of `npm run bench` (bench/benchMath.ts, bench/budgets.ts): medians, ratios, the tables it writes
// to docs/benchmarks.md, the order of its rounds and the budgets' verdicts. The budgets themselves are never
// checked here: figures are the bench's business, not npm test's.
import { describe, expect, it } from 'vitest';
import { countedList, formatKb, formatRatio, markdownTable, median, ratio, roundOrder } from '../../bench/benchMath.ts';
import { checkBudgets, verdictWord, type BudgetInput } from '../../bench/budgets.ts';

describe('median', () => {
  it.each([
    [[], NaN],
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[10, NaN, 30, 20], 20],
    [[7, 7, 1], 7],
  ])('median(%j) = %d', (values, expected) => {
    expect(median(values)).toEqual(expected);
  });

  it('leaves its input in its order', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('ratio and its format', () => {
  it.each([
    [470, 1000, '0.47×'],
    [87, 1000, '0.087×'],
    [28, 1000, '0.028×'],
    [1600, 1000, '1.60×'],
    [5, 0, 'n/a'],
    [NaN, 1000, 'n/a'],
  ])('%d / %d reads %s', (value, base, shown) => {
    expect(formatRatio(ratio(value, base))).toBe(shown);
  });

  it('kB are thousands of bytes', () => {
    expect(formatKb(75_000)).toBe('75.0 kB');
    expect(formatKb(10_240)).toBe('10.2 kB');
  });
});

describe('markdownTable', () => {
  it('pads every column to its widest cell, with the separator row markdown needs', () => {
    expect(
      markdownTable(
        ['page', 'req/s'],
        [
          ['start page', '451'],
          ['/healthz', '1,219'],
        ],
      ),
    ).toBe(['| page       | req/s |', '| ---------- | ----- |', '| start page | 451   |', '| /healthz   | 1,219 |'].join('\n'));
  });
});

describe('countedList', () => {
  it('counts the names, most frequent first, then by name', () => {
    expect(countedList(['GET', 'EVALSHA', 'SET', 'EVALSHA', 'GET', 'EVALSHA'])).toBe('EVALSHA×3, GET×2, SET');
    expect(countedList([])).toBe('');
  });
});

describe('roundOrder', () => {
  it('runs forwards, then backwards, so no target is always first', () => {
    expect([0, 1, 2].map((r) => roundOrder(['a', 'b', 'c'], r).join(''))).toEqual(['abc', 'cba', 'abc']);
  });
});

describe('checkBudgets', () => {
  const passing: BudgetInput = {
    ratioToExpress: { start: 0.6, step: 0.35, kyc: 0.4, legacy: 0.25, healthz: 0.9 },
    startToFirstAnswerMs: 400,
    screens: [
      { name: 'BankID', usableMs: 1500, ownJsBrotli: 12_000 },
      { name: 'milestone one', usableMs: 900, ownJsBrotli: 3_000 },
    ],
    reactBrotli: 60_000,
    coldBankidUsableMs: 2500,
  };
  const verdicts = (input: BudgetInput) => checkBudgets(input).map((v) => `${verdictWord(v.pass)} ${v.target}`);

  it('passes every measured target at its limit; Lighthouse is not measured', () => {
    expect(verdicts(passing)).toEqual([
      'PASS start page ≥ 0.6× Express hello',
      'PASS step page ≥ 0.35× Express hello',
      'PASS KYC question page ≥ 0.35× Express hello',
      'PASS legacy form ≥ 0.25× Express hello',
      'PASS /healthz ≥ 0.85× Express hello',
      'PASS every screen usable within 1500 ms (slow 4G, 4× CPU)',
      'PASS process start to first answer ≤ 400 ms (item 2)',
      'PASS a cold visit straight to the BankID page usable within 2500 ms (slow 4G, 4× CPU, empty cache)',
      'PASS React and react-dom, one shared chunk, ≤ 60.0 kB brotli',
      "PASS a page's own island code (besides the React chunk) ≤ 12.0 kB brotli",
      '— Lighthouse mobile performance ≥ 98, accessibility and best practices 100',
    ]);
  });

  it('fails each target just past its limit, and names the worst screen', () => {
    const failing: BudgetInput = {
      ratioToExpress: { start: 0.59, step: 0.34, kyc: 0.34, healthz: 0.84 },
      startToFirstAnswerMs: 401,
      screens: [
        { name: 'BankID', usableMs: 1501, ownJsBrotli: 12_001 },
        { name: 'milestone one', usableMs: null, ownJsBrotli: 3_000 },
      ],
      reactBrotli: 60_001,
      coldBankidUsableMs: 2501,
    };
    const result = checkBudgets(failing);
    expect(result.slice(0, 10).map((v) => v.pass)).toEqual(Array(10).fill(false));
    // legacy was not measured at all: a failure, not a pass.
    expect(result[3]!.actual).toBe('n/a');
    // A screen that never became usable (null) is the slowest.
    expect(result[5]!.actual).toBe('slowest milestone one: n/a');
    expect(result[9]!.actual).toBe('heaviest BankID: 12.0 kB');
  });

  it('a cold visit that never became usable fails', () => {
    expect(checkBudgets({ ...passing, coldBankidUsableMs: null })[7]!.pass).toBe(false);
  });
});
