// docs/benchmarks.md has three writers (npm run bench, bench:peak, soak): each replaces its own part and keeps the others'.
import { describe, expect, it } from 'vitest';
import { sectionOf, withSections } from '../../bench/reportSections.ts';

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
