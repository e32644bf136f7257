// Once per test run, before any test file: builds the client (public/build) and compiles the server and the sandbox
// into dist/ (the Procfile's production build, for the tests' own processes: stack.ts), every run, so nothing runs code
// older than its source; finds or starts the shared Redis (testRedis.ts); names the tests' Chromium (chromiumPaths.ts);
// makes the directory where the markup checkers share findings (checkedOnce.ts), reported at the end; and for `npm
// test`, starts the static checks beside the tests (staticChecks.ts), whose failure fails the run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRedis } from './testRedis.ts';
import { CHECKED_SCREENS_DIR, checkedScreensReport, checkers } from './checkedOnce.ts';
import { STATIC_CHECKS, startStaticChecks } from './staticChecks.ts';
import { TEST_CHROMIUM_PATH } from './chromiumPaths.ts';

export default async function setup(): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ['esbuild.config.mjs', '--quiet'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['esbuild.server.mjs', '--quiet'], { stdio: 'inherit' });
  const staticChecks = process.env[STATIC_CHECKS] === 'beside' ? startStaticChecks() : null;
  const checked = mkdtempSync(join(tmpdir(), 'checked-screens-'));
  process.env[CHECKED_SCREENS_DIR] = checked;
  const stopRedis = await testRedis();
  console.log(`browser tests: ${execFileSync(TEST_CHROMIUM_PATH, ['--version'], { encoding: 'utf8' }).trim()} (${TEST_CHROMIUM_PATH})`);
  return async () => {
    await reportStaticChecks(staticChecks);
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

async function reportStaticChecks(outcome: ReturnType<typeof startStaticChecks> | null): Promise<void> {
  if (!outcome) return;
  // vitest ends with process.exit(), whose code this sets: a run whose teardown is cut short (teardownTimeout) before
  // the checks are in fails, and one whose checks failed fails however its tests went.
  const tests = process.exitCode;
  process.exitCode = 1;
  const { code, output, seconds } = await outcome();
  if (code !== 0) return void console.error(`${output}\nstatic checks (lint, format, boundaries, typecheck): FAILED (exit ${code}); their output is above`);
  process.exitCode = tests;
  console.log(`static checks (lint, format, boundaries, typecheck): passed, beside the tests, in ${seconds} s`);
}
