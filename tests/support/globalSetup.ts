// Once per test run, before any test file: compiles the server and the sandbox (esbuild.server.mjs) into dist/,
// which the tests' own processes run as the Procfile runs production (tests/support/stack.ts productProcessArgs).
// Built every run (about a second), so a process never runs code older than the source under test.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['esbuild.server.mjs', '--quiet'], { stdio: 'inherit' });
}
