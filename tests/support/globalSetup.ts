// Once per test run, before any test file: compiles the server and the sandbox (esbuild.server.mjs) into dist/,
// which the tests' own processes run as the Procfile runs production (tests/support/stack.ts productProcessArgs), and
// finds or starts the Redis the tests share (testRedis.ts; the test processes start after this and inherit its URL).
// Built every run (about a second), so a process never runs code older than the source under test.
import { execFileSync } from 'node:child_process';
import { testRedis } from './testRedis.ts';

export default async function setup(): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ['esbuild.server.mjs', '--quiet'], { stdio: 'inherit' });
  return testRedis();
}
