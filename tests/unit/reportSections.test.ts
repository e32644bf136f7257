// docs/benchmarks.md has three writers (npm run bench, bench:peak, soak): each replaces its own part and keeps the others'.
import { describe, expect, it } from 'vitest';
import { keptPart, sectionOf, withSections } from '../../bench/reportSections.ts';

const main = '# Benchmarks\n\n## Throughput\n\nrows\n';
const peak = '## At peak\n\nfigures\n\n### Creation streams\n\nmore figures';
const soak = '## Chaos soak\n\n| figure | this run |';

describe('the sections of docs/benchmarks.md', () => {
  it('are added after the main report, in a fixed order, whichever comes first', () => {
    const soakFirst = withSections(main, { sections: { 'Chaos soak': soak } });
    expect(withSections(soakFirst, { sections: { 'At peak': peak } })).toBe(`${main}\n${peak}\n\n${soak}\n`);
  });

  it('are replaced on the next run of their own command, the others kept', () => {
    const both = withSections(main, { sections: { 'At peak': peak, 'Chaos soak': soak } });
    const newPeak = '## At peak\n\nnew figures';
    expect(withSections(both, { sections: { 'At peak': newPeak } })).toBe(`${main}\n${newPeak}\n\n${soak}\n`);
    const newSoak = '## Chaos soak\n\nnew';
    expect(withSections(both, { sections: { 'Chaos soak': newSoak } })).toBe(`${main}\n${peak}\n\n${newSoak}\n`);
  });

  it('survive a new main report, which replaces the old one', () => {
    const both = withSections(main, { sections: { 'At peak': peak, 'Chaos soak': soak } });
    const newMain = '# Benchmarks\n\n## Throughput\n\nnew rows';
    expect(withSections(both, { main: newMain })).toBe(`${newMain}\n\n${peak}\n\n${soak}\n`);
  });

  it('are read back with their own ### parts, and empty when absent', () => {
    const both = withSections(main, { sections: { 'At peak': peak, 'Chaos soak': soak } });
    expect(sectionOf(both, 'At peak')).toBe(peak);
    expect(sectionOf(both, 'Chaos soak')).toBe(soak);
    expect(sectionOf(main, 'At peak')).toBe('');
  });
});

describe('a part of bench:peak not run this time', () => {
  const lastRun = [
    '## At peak',
    '',
    'Written by `npm run bench:peak` (bench/peak.ts). Run: 2026-12-06T11:06:58.274Z, 439 s.',
    '',
    '### The worker: 5000 customer creations at once',
    '',
    'worker figures',
    '',
    '### Creation streams: 10000 open on one web process',
    '',
    'stream figures',
    '',
    '| target | this run | verdict |',
    '| --- | --- | --- |',
    '| worker CPU per poll ≤ 2× the bare chain | 3.14× | FAIL |',
    '| 10000 open streams ≤ 250 MB RSS | 218 MB | PASS |',
    '| one outcome to 10000 streams ≤ 1.5× the bare broadcast (2026-11-29) | 1.55× | FAIL |',
  ].join('\n');

  it('keeps its subsection, saying whose figures they are, and its targets with that run’s date', () => {
    expect(keptPart(lastRun, 'Creation streams', /stream|outcome to/)).toEqual({
      text: '### Creation streams: 10000 open on one web process\n\nNot run this time: the 2026-12-06 run’s figures, kept.\n\nstream figures',
      rows: [
        ['10000 open streams ≤ 250 MB RSS (2026-12-06)', '218 MB', 'PASS'],
        // Kept twice: the date of the run that measured it stays.
        ['one outcome to 10000 streams ≤ 1.5× the bare broadcast (2026-11-29)', '1.55×', 'FAIL'],
      ],
    });
    expect(keptPart(lastRun, 'The worker', /worker|poll/).text).toBe(
      '### The worker: 5000 customer creations at once\n\nNot run this time: the 2026-12-06 run’s figures, kept.\n\nworker figures',
    );
  });

  it('is nothing when the last run had no such part', () => {
    expect(keptPart('## At peak\n\nRun: 2026-12-06T11:06:58.274Z', 'Creation streams', /stream/)).toEqual({ text: '', rows: [] });
  });
});
