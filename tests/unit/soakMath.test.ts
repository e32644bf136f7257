// The pure parts of `npm run soak` (bench/soakMath.ts): the figures from what the journeys saw and what was read out,
// and which of them fail the soak.
import { describe, expect, it } from 'vitest';
import { between, soakFailed, soakFigures, soakSection, type JourneyRecord, type ProspectReadOut } from '../../bench/soakMath.ts';

const EXPECTED = { onboarding: 'done', customerExists: 'customerExists' } as const;

const journey = (over: Partial<JourneyRecord> = {}): JourneyRecord => ({
  scenario: 'onboarding',
  prospectId: 'p1',
  signed: true,
  seen: 'done',
  retries: 0,
  ...over,
});
const readOut = (over: Partial<ProspectReadOut> = {}): ProspectReadOut => ({
  latest: 'done',
  finalEvents: [{ runId: 'r1', outcome: 'done' }],
  createCustomer: [200],
  loginSessions: 1,
  leadNumbers: 1,
  ...over,
});

describe('soakFigures', () => {
  it('counts a clean journey as completed, with nothing lost, duplicated or wrong', () => {
    const f = soakFigures([journey({ retries: 3 })], new Map([['p1', readOut()]]), EXPECTED);
    expect(f).toMatchObject({ started: 1, signed: 1, completed: 1, stranded: 0, retries: 3, outcomes: { done: 1 }, lost: [], duplicated: [], wrong: [] });
    expect(soakFailed(f)).toBe(false);
  });

  it('counts journeys without a final outcome on the page as stranded, before and after signing', () => {
    const journeys = [journey({ seen: undefined, signed: false, prospectId: undefined }), journey({ seen: undefined })];
    const f = soakFigures(journeys, new Map([['p1', readOut()]]), EXPECTED);
    expect(f).toMatchObject({ started: 2, signed: 1, completed: 0, stranded: 2, strandedBeforeSigning: 1 });
    expect(soakFailed(f)).toBe(true);
  });

  it.each([
    { name: 'no final outcome kept', r: readOut({ latest: 'queued', finalEvents: [] }), kind: 'lost' },
    { name: 'no state kept at all', r: readOut({ latest: null, finalEvents: [] }), kind: 'lost' },
    { name: 'no creation request accepted', r: readOut({ createCustomer: [401] }), kind: 'lost' },
    { name: 'two creation requests accepted', r: readOut({ createCustomer: [200, 200] }), kind: 'duplicated' },
    {
      name: 'two final outcomes published',
      r: readOut({
        finalEvents: [
          { runId: 'r1', outcome: 'done' },
          { runId: 'r1', outcome: 'done' },
        ],
      }),
      kind: 'duplicated',
    },
    { name: 'two login sessions', r: readOut({ loginSessions: 2 }), kind: 'duplicated' },
    { name: 'two lead numbers', r: readOut({ leadNumbers: 2 }), kind: 'duplicated' },
    {
      name: 'an outcome other than the persona plays',
      r: readOut({ latest: 'unspecifiedApiResponseError' }),
      kind: 'wrong',
      seen: 'unspecifiedApiResponseError',
    },
  ] as const)('$name: $kind, and the soak fails', ({ r, kind, ...seen }) => {
    const f = soakFigures([journey(seen)], new Map([['p1', r]]), EXPECTED);
    expect(f[kind]).toHaveLength(1);
    expect(f[kind][0]).toMatch(/^p1: /);
    expect(soakFailed(f)).toBe(true);
  });

  it('a 401 answered before the accepted creation request is no duplicate (the call was retried with a fresh token)', () => {
    const f = soakFigures([journey()], new Map([['p1', readOut({ createCustomer: [401, 200] })]]), EXPECTED);
    expect(f.duplicated).toEqual([]);
    expect(soakFailed(f)).toBe(false);
  });

  it('a page showing another outcome than Redis keeps is wrong', () => {
    const f = soakFigures([journey({ scenario: 'customerExists', seen: 'done' })], new Map([['p1', readOut({ latest: 'customerExists' })]]), EXPECTED);
    expect(f.wrong).toEqual(['p1: the page showed done, Redis keeps customerExists']);
  });

  it('a signed journey with nothing read out is lost; an unsigned one is not read out at all', () => {
    const f = soakFigures([journey(), journey({ prospectId: 'p2', signed: false, seen: undefined })], new Map(), EXPECTED);
    expect(f.lost).toEqual(['p1: nothing read out']);
  });
});

describe('between', () => {
  it.each([
    { random: 0, expected: 20_000 },
    { random: 0.5, expected: 40_000 },
    { random: 0.999999, expected: 59_999 },
  ])('maps $random into [20 s, 60 s) as $expected', ({ random, expected }) => {
    expect(between(20_000, 60_000, random)).toBe(expected);
  });
});

describe('soakSection', () => {
  const figures = {
    started: 3,
    signed: 3,
    completed: 2,
    stranded: 1,
    strandedBeforeSigning: 0,
    retries: 4,
    outcomes: { done: 1, customerExists: 1 },
    lost: [],
    duplicated: [],
    wrong: [],
  };
  const run = {
    at: '2026-11-29T06:47:53.000Z',
    commit: 'abc1234',
    machine: 'AMD EPYC, 2 cores',
    minutes: 10,
    minutesRun: 10.23,
    chaos: ['36 s: worker1 SIGKILLed, down 2102 ms', '254 s: Redis SIGKILLed and started again (same port and AOF)'],
    retryCauses: [['ECONNREFUSED', 3] as [string, number], ['answered 503', 1] as [string, number]],
    failed: true,
  };

  it('gives the run, the verdict, every figure and every kill', () => {
    const text = soakSection(figures, run);
    expect(text.startsWith('## Chaos soak')).toBe(true);
    expect(text).toContain('- Run: 2026-11-29T06:47:53.000Z, 10.2 min (10 min of journeys), commit abc1234');
    expect(text).toContain('- Verdict: FAILED');
    expect(text).toContain('| completed | 2 (done 1, customerExists 1) |');
    expect(text).toContain('| stranded | 1 (before signing 0) |');
    expect(text).toContain('| reloads or presses again after an error | 4 (ECONNREFUSED 3, answered 503 1) |');
    expect(text).toContain('Kills (2):\n\n- 36 s: worker1 SIGKILLed, down 2102 ms\n- 254 s: Redis SIGKILLed');
    expect(soakSection({ ...figures, stranded: 0 }, { ...run, failed: false })).toContain('- Verdict: passed');
  });
});
