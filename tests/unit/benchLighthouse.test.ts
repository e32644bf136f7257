// The bench's Lighthouse part (bench/lighthouse.ts, bench/budgets.ts): the verdict on the Lighthouse scores of
// every page, and which audits a page under target is told about. Lighthouse itself never runs here.
import { describe, expect, it } from 'vitest';
import { failingAudits, scoresOf } from '../../bench/lighthouse.ts';
import { checkBudgets, verdictWord, type BudgetInput } from '../../bench/budgets.ts';

const base: BudgetInput = { ratioToExpress: {}, startToFirstAnswerMs: NaN, screens: [], reactBrotli: NaN, coldBankidUsableMs: null };
const lighthouseVerdict = (pages: NonNullable<BudgetInput['lighthouse']>) => checkBudgets({ ...base, lighthouse: pages }).at(-1)!;
const page = (name: string, performance: number | null, accessibility: number | null = 100, bestPractices: number | null = 100) => ({
  page: name,
  scores: { performance, accessibility, 'best-practices': bestPractices },
});

describe('the Lighthouse target', () => {
  it('passes with performance at 98 and accessibility and best practices at 100 on every page', () => {
    const verdict = lighthouseVerdict([page('start page', 100), page('BankID', 98)]);
    expect(verdictWord(verdict.pass)).toBe('PASS');
    expect(verdict.actual).toBe('2 pages: performance lowest 98 (BankID); accessibility 100 on every page; best-practices 100 on every page');
  });

  it.each([
    ['performance 97', page('BankID', 97)],
    ['accessibility 99', page('BankID', 100, 99)],
    ['best practices 99', page('BankID', 100, 100, 99)],
    ['a page not audited', page('BankID', null, null, null)],
  ])('fails on one page with %s', (_, under) => {
    expect(lighthouseVerdict([page('start page', 100), under]).pass).toBe(false);
  });

  it('names the lowest page and how many more are under target', () => {
    const verdict = lighthouseVerdict([page('contact', 72), page('BankID', 78), page('KYC', 97), page('start page', 100), page('legacy', 100, 100, 96)]);
    expect(verdict.actual).toBe(
      '5 pages: performance lowest 72 (contact and 2 more under target); accessibility 100 on every page; best-practices lowest 96 (legacy)',
    );
  });

  it('is not judged without a Lighthouse run', () => {
    expect(checkBudgets(base).at(-1)!.pass).toBeUndefined();
    expect(lighthouseVerdict([]).actual).toBe('not measured');
  });
});

type Audit = { score: number | null; scoreDisplayMode: string; displayValue?: string; details?: unknown };
const lhrOf = (refs: Record<string, Array<[id: string, weight: number]>>, audits: Record<string, Audit>, scores: Record<string, number | null> = {}) =>
  ({
    categories: Object.fromEntries(
      Object.entries(refs).map(([id, pairs]) => [id, { id, score: scores[id] ?? null, auditRefs: pairs.map(([ref, weight]) => ({ id: ref, weight })) }]),
    ),
    audits: Object.fromEntries(Object.entries(audits).map(([id, a]) => [id, { id, ...a }])),
  }) as unknown as Parameters<typeof failingAudits>[0];

describe('failingAudits', () => {
  const lhr = lhrOf(
    {
      performance: [
        ['first-contentful-paint', 10],
        ['total-blocking-time', 30],
        ['largest-contentful-paint', 25],
        ['unused-javascript', 0],
        ['bf-cache', 0],
        ['uses-http2', 0],
        ['diagnostics', 0],
      ],
      accessibility: [
        ['color-contrast', 7],
        ['image-alt', 10],
      ],
    },
    {
      'first-contentful-paint': { score: 0.8, scoreDisplayMode: 'numeric', displayValue: '2.1 s' },
      'total-blocking-time': { score: 0.5, scoreDisplayMode: 'numeric', displayValue: '570 ms' },
      'largest-contentful-paint': { score: 1, scoreDisplayMode: 'numeric', displayValue: '1.2 s' },
      'unused-javascript': { score: 0, scoreDisplayMode: 'metricSavings', displayValue: 'Est savings of 32 KiB' },
      'bf-cache': {
        score: 0,
        scoreDisplayMode: 'binary',
        details: { items: [{ failureType: 'Not actionable' }, { failureType: 'Not actionable' }] },
      },
      'uses-http2': { score: 0, scoreDisplayMode: 'notApplicable' },
      diagnostics: { score: null, scoreDisplayMode: 'informative' },
      'color-contrast': { score: 0, scoreDisplayMode: 'binary' },
      'image-alt': { score: 1, scoreDisplayMode: 'binary' },
    },
  );

  it('lists what costs the score most first, with the value Lighthouse shows, and leaves out what is not actionable', () => {
    expect(failingAudits(lhr, ['performance'])).toEqual([
      'total-blocking-time (570 ms)',
      'first-contentful-paint (2.1 s)',
      'unused-javascript (Est savings of 32 KiB)',
    ]);
  });

  it('weighs across the categories under target, and keeps to the top ones', () => {
    expect(failingAudits(lhr, ['performance', 'accessibility'], 2)).toEqual(['total-blocking-time (570 ms)', 'color-contrast']);
  });

  it('keeps bf-cache when one of its reasons can be acted on', () => {
    const actionable = lhrOf(
      { performance: [['bf-cache', 0]] },
      { 'bf-cache': { score: 0, scoreDisplayMode: 'binary', details: { items: [{ failureType: 'Not actionable' }, { failureType: 'Actionable' }] } } },
    );
    expect(failingAudits(actionable, ['performance'])).toEqual(['bf-cache']);
  });

  it('names nothing for a category that is not under target', () => {
    expect(failingAudits(lhr, [])).toEqual([]);
  });
});

describe('scoresOf', () => {
  it('shows each category as Lighthouse does (0–100, rounded); a category without a score is null', () => {
    const lhr = lhrOf({ performance: [], accessibility: [], 'best-practices': [] }, {}, { performance: 0.975, accessibility: 1, 'best-practices': null });
    expect(scoresOf(lhr)).toEqual({ performance: 98, accessibility: 100, 'best-practices': null });
  });
});
