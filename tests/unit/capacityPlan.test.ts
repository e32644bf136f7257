// The README's capacity table follows from docs/benchmarks.md (bench/capacityPlan.ts): the figures operators plan with
// are the last run's, worked out the same way each time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capacityRows, capacityTable, withCapacityTable } from '../../bench/capacityPlan.ts';
import { repoRoot } from '../support/repoFiles.ts';

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

const benchmarks = [
  '| step page (account picker) | 1,000          | 1,000 / 990 / 1,010 | 0.10× |',
  '| KYC question page          | 1,000          | 1,000 / 990 / 1,010 | 0.10× |',
  '| legacy form                | 500            | 500 / 490 / 510     | 0.05× |',
  '### Creation streams: 10000 open on one web process',
  '| web process        | 116 MB     | 218 MB                 | 10.4 kB        |',
  'Capacity: the most creations at once whose 45th poll lands within 2000 ms of its due time at p99, every run',
  'finished: product worker 7500 (10000 missed), bare BullMQ chain 10000; product ÷ bare = 0.75×.',
].join('\n');

describe('the capacity table', () => {
  it('works out each role from the figures: a journey of 24 page views and 24 heavier requests, half of it planned with', () => {
    expect(capacityRows(benchmarks).map(([role, measured, plan]) => [role, measured, plan])).toEqual([
      // 24 × 1 ms + 24 × 2 ms = 72 ms a journey: 50,000 an hour, 25,000 planned.
      ['`web`: prospects an hour', '1,000 step pages/s, 1,000 KYC questions/s, 500 legacy forms/s: 72 ms of the process a journey', '25,000'],
      ['`web`: open creation streams', '10,000 in 218 MB RSS', '5,000'],
      ['`worker`: creations at once', '7,500 runs on their 2-second grid', '3,700 (150,000 an hour if every run polled 45 times)'],
    ]);
  });

  it('leaves out what the document has no figure for', () => {
    expect(capacityRows('# Benchmarks\n')).toEqual([]);
    expect(capacityTable('# Benchmarks\n')).toContain('No bench run on record.');
  });

  it('replaces only what stands between its markers', () => {
    const readme = `# Title\n\n${capacityTable('')}\n\nAfter.\n`;
    expect(withCapacityTable(readme, benchmarks)).toBe(`# Title\n\n${capacityTable(benchmarks)}\n\nAfter.\n`);
    expect(withCapacityTable('# No table here\n', benchmarks)).toBe('# No table here\n');
  });

  it("is the README's, as the last bench run gives it (npm run bench or bench:peak rewrites it)", () => {
    const readme = read('README.md');
    expect(readme).toContain(capacityTable(read('docs/benchmarks.md')));
  });
});
