// Once per test run, before any test file: compiles the server and the sandbox (esbuild.server.mjs) into dist/,
// which the tests' own processes run as the Procfile runs production (tests/support/stack.ts productProcessArgs), finds
// or starts the Redis the tests share (testRedis.ts; the test processes start after this and inherit its URL), and
// makes the directory where the markup checkers' findings are shared (checkedOnce.ts), reported on at the end.
// Built every run (about a second), so a process never runs code older than the source under test.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRedis } from './testRedis.ts';
import { CHECKED_SCREENS_DIR, checkedScreensReport, checkers } from './checkedOnce.ts';

export default async function setup(): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ['esbuild.server.mjs', '--quiet'], { stdio: 'inherit' });
  const checked = mkdtempSync(join(tmpdir(), 'checked-screens-'));
  process.env[CHECKED_SCREENS_DIR] = checked;
  const stopRedis = await testRedis();
  return async () => {
    const report = checkedScreensReport(checked);
    rmSync(checked, { recursive: true, force: true });
    await stopRedis();
    if (checkers.every((checker) => report[checker].submitted === 0)) return;
    mkdirSync('test-results', { recursive: true });
    writeFileSync(join('test-results', 'checkedScreens.json'), `${JSON.stringify(report, null, 2)}\n`);
    for (const checker of checkers) {
      const { submitted, distinct, checked: runs } = report[checker];
      console.log(`markup checks: ${checker} given ${submitted} screens, ${distinct} distinct, checked ${runs} times (test-results/checkedScreens.json)`);
    }
  };
}
