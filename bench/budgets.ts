// The bench's targets (the start page's throughput, Lighthouse scores, start time, page weights), checked against
// one run of `npm run bench`: PASS, FAIL or "not measured" per target. Never checked by `npm test`: figures on a
// shared machine are noise; the ratios within one run are what is judged.
import { formatKb, formatMs, formatRatio } from './benchMath.ts';

export type ThroughputPage = 'healthz' | 'start' | 'step' | 'kyc' | 'legacy';

export interface BudgetInput {
  /** Each page's median requests per second over the Express hello's, in the same run. */
  ratioToExpress: Partial<Record<ThroughputPage, number>>;
  /** Median time from spawning `node dist/server.js web` to its first 200 on /healthz. */
  startToFirstAnswerMs: number;
  /** Every screen walked in the throttled phone browser. */
  screens: ReadonlyArray<{ name: string; usableMs: number | null; ownJsBrotli: number }>;
  /** The shared React chunk's brotli bytes (manifest.react). */
  reactBrotli: number;
  /** A cold visit (empty cache) straight to the BankID page, on the throttled phone. */
  coldBankidUsableMs: number | null;
  /** Lighthouse's shown scores (0–100) per page of the journey (bench/lighthouse.ts); null: not audited. */
  lighthouse?: ReadonlyArray<{ page: string; scores: Record<LighthouseCategory, number | null> }>;
}

export interface BudgetVerdict {
  target: string;
  actual: string;
  /** undefined: the bench does not measure it. */
  pass: boolean | undefined;
}

const ratioTargets: Array<[ThroughputPage, number, string]> = [
  ['start', 0.6, 'start page'],
  ['step', 0.35, 'step page'],
  ['kyc', 0.35, 'KYC question page'],
  ['legacy', 0.25, 'legacy form'],
  ['healthz', 0.85, '/healthz'],
];

export type LighthouseCategory = 'performance' | 'accessibility' | 'best-practices';

/** Item 5: mobile performance ≥ 98, accessibility and best practices staying 100 (Lighthouse's shown scores). */
export const LIGHTHOUSE_TARGETS: Record<LighthouseCategory, number> = { performance: 98, accessibility: 100, 'best-practices': 100 };

const USABLE_MS = 1500;
const START_MS = 400;
const COLD_BANKID_MS = 2500;
const REACT_BROTLI = 60_000;
const OWN_JS_BROTLI = 12_000;

export function checkBudgets(input: BudgetInput): BudgetVerdict[] {
  const verdicts: BudgetVerdict[] = ratioTargets.map(([page, min, name]) => {
    const r = input.ratioToExpress[page] ?? NaN;
    return { target: `${name} ≥ ${min}× Express hello`, actual: formatRatio(r), pass: Number.isFinite(r) ? r >= min : false };
  });

  const screens = input.screens;
  const slowest = [...screens].sort((a, b) => (b.usableMs ?? Infinity) - (a.usableMs ?? Infinity))[0];
  const allUsable = screens.length > 0 && screens.every((s) => s.usableMs !== null && s.usableMs <= USABLE_MS);
  verdicts.push({
    target: `every screen usable within ${USABLE_MS} ms (slow 4G, 4× CPU)`,
    actual: slowest ? `slowest ${slowest.name}: ${formatMs(slowest.usableMs)}` : 'no screen walked',
    pass: allUsable,
  });

  verdicts.push({
    target: `process start to first answer ≤ ${START_MS} ms (item 2)`,
    actual: formatMs(input.startToFirstAnswerMs),
    pass: Number.isFinite(input.startToFirstAnswerMs) ? input.startToFirstAnswerMs <= START_MS : false,
  });

  verdicts.push({
    target: `a cold visit straight to the BankID page usable within ${COLD_BANKID_MS} ms (slow 4G, 4× CPU, empty cache)`,
    actual: formatMs(input.coldBankidUsableMs ?? NaN),
    pass: input.coldBankidUsableMs === null ? false : input.coldBankidUsableMs <= COLD_BANKID_MS,
  });

  verdicts.push({
    target: `React and react-dom, one shared chunk, ≤ ${formatKb(REACT_BROTLI)} brotli`,
    actual: formatKb(input.reactBrotli),
    pass: Number.isFinite(input.reactBrotli) ? input.reactBrotli <= REACT_BROTLI : undefined,
  });

  const heaviest = [...screens].sort((a, b) => b.ownJsBrotli - a.ownJsBrotli)[0];
  verdicts.push({
    target: `a page's own island code (besides the React chunk) ≤ ${formatKb(OWN_JS_BROTLI)} brotli`,
    actual: heaviest ? `heaviest ${heaviest.name}: ${formatKb(heaviest.ownJsBrotli)}` : 'no screen walked',
    pass: heaviest ? heaviest.ownJsBrotli <= OWN_JS_BROTLI : undefined,
  });

  verdicts.push(lighthouseVerdict(input.lighthouse ?? []));
  return verdicts;
}

function lighthouseVerdict(pages: NonNullable<BudgetInput['lighthouse']>): BudgetVerdict {
  const target = `Lighthouse mobile performance ≥ ${LIGHTHOUSE_TARGETS.performance}, accessibility and best practices ${LIGHTHOUSE_TARGETS.accessibility}`;
  if (pages.length === 0) return { target, actual: 'not measured', pass: undefined };
  const categories = Object.keys(LIGHTHOUSE_TARGETS) as LighthouseCategory[];
  const lowest = categories.map((c) => {
    const scored = pages.filter((p) => p.scores[c] !== null).sort((a, b) => a.scores[c]! - b.scores[c]!);
    const low = scored[0];
    const under = scored.filter((p) => p.scores[c]! < LIGHTHOUSE_TARGETS[c]).length;
    if (low?.scores[c] === 100) return `${c} 100 on every page`;
    return low ? `${c} lowest ${low.scores[c]} (${low.page}${under > 1 ? ` and ${under - 1} more under target` : ''})` : `${c} n/a`;
  });
  const missing = pages.filter((p) => categories.some((c) => p.scores[c] === null)).length;
  const pass = missing === 0 && pages.every((p) => categories.every((c) => p.scores[c]! >= LIGHTHOUSE_TARGETS[c]));
  return { target, actual: `${pages.length} pages: ${lowest.join('; ')}${missing ? `; ${missing} not audited` : ''}`, pass };
}

export const verdictWord = (pass: boolean | undefined): string => (pass === undefined ? '—' : pass ? 'PASS' : 'FAIL');
