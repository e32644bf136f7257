// The static checks of a whole-suite run (ESLint, Prettier, dependency-cruiser, tsc: package.json "test:checks"),
// started beside the tests: the tests leave a fifth of two cores idle (they wait on pages, processes and polls), which
// the checks fill instead of taking a minute of their own before the first test. The run fails when they fail, with
// their output. `npm test` asks for them (STATIC_CHECKS=beside); a run of chosen files does not.
import { spawn } from 'node:child_process';

export const STATIC_CHECKS = 'STATIC_CHECKS';

export interface StaticChecksOutcome {
  code: number;
  output: string;
  seconds: number;
}

/** Starts the checks; the answer waits for their outcome. */
export function startStaticChecks(): () => Promise<StaticChecksOutcome> {
  const started = Date.now();
  // npm as the one that runs this run (npm_execpath), else the npm on PATH.
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const [command, ...args] = [...npm, 'run', '--silent', 'test:checks'];
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const outcome = new Promise<StaticChecksOutcome>((resolve) => {
    const done = (code: number) => resolve({ code, output, seconds: Math.round((Date.now() - started) / 1000) });
    child.on('error', (err) => {
      output += `${err.stack ?? err.message}\n`;
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
  return () => outcome;
}
