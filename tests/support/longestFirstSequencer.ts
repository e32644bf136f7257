// The order test files start in: the longest first, so that the short ones fill in beside them at the end
// instead of a long browser walk starting last and running alone. vitest's own order (the last run's durations,
// else the larger file first) knows nothing on a clean clone, where the four-market walks (small files that
// drive tests/support/marketWalk.ts for minutes) would start last. Browser tests are the long ones, then the
// tests that start processes; within a kind, vitest's order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Lower runs earlier: the four-market walks (the status page's too), the other browser tests, the process tests, the rest. */
function rank(file: string): number {
  if (/customerInformationMarkets|e2e\/caseStatus\./.test(file)) return 0;
  if (file.includes('/tests/e2e/')) return 1;
  if (file.includes('/tests/reliability/')) return 2;
  return 3;
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    // Array.prototype.sort is stable: vitest's order holds within a rank.
    return [...ordered].sort((a, b) => rank(a.moduleId) - rank(b.moduleId));
  }
}
