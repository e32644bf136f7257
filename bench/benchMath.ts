// Pure helpers of `npm run bench` (bench/run.ts): medians of rounds, ratios, sizes and the markdown tables it prints
// and writes to docs/benchmarks.md. No I/O here, so tests/unit/benchMath.test.ts can table-test them.

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (finite.length === 0) return NaN;
  const mid = Math.floor(finite.length / 2);
  return finite.length % 2 === 1 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

/** value / base, NaN when either is missing or the base is not positive. */
export function ratio(value: number, base: number): number {
  return Number.isFinite(value) && Number.isFinite(base) && base > 0 ? value / base : NaN;
}

/** A ratio as the budgets write them: two significant decimals below 0.1 (0.087×), else two decimals (0.47×). */
export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return 'n/a';
  return `${r < 0.1 ? r.toPrecision(2) : r.toFixed(2)}×`;
}

/** Bytes in kB (1 kB = 1000 bytes, as browsers' network panels count them), one decimal. */
export function formatKb(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1000).toFixed(1)} kB` : 'n/a';
}

/** Milliseconds, whole. */
export function formatMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? 'n/a' : `${Math.round(ms)} ms`;
}

/** Requests per second, whole, with thousands apart for reading. */
export function formatRate(perSecond: number): string {
  return Number.isFinite(perSecond) ? Math.round(perSecond).toLocaleString('en-US') : 'n/a';
}

/** A GitHub markdown table, columns padded so that it also reads as plain text in a terminal. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const widths = header.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: ReadonlyArray<string>) => `| ${widths.map((w, i) => (cells[i] ?? '').padEnd(w)).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** "EVALSHA×2, GET, SET": a command list counted, most frequent first, then by name. */
export function countedList(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([name, n]) => (n > 1 ? `${name}×${n}` : name))
    .join(', ');
}

/** The order of a round: forwards on even rounds, backwards on odd ones, so no target always runs first or last. */
export function roundOrder<T>(targets: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...targets] : [...targets].reverse();
}
