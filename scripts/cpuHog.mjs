// Runs a command beside a CPU hog: one busy process per core, for as long as the command runs, so that a test run
// shows whether any test depends on how fast the machine is (`npm run test:loaded` runs `npm test` so).
//   node scripts/cpuHog.mjs <command> [args…]
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/cpuHog.mjs <command> [args…]');
  process.exit(2);
}

const cores = availableParallelism();
const hogs = Array.from({ length: cores }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopHogs = () => hogs.forEach((hog) => hog.kill('SIGKILL'));
console.log(`cpu hog: ${cores} busy process(es), one per core, beside: ${[command, ...args].join(' ')}`);

const started = Date.now();
const child = spawn(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  stopHogs();
  console.log(`cpu hog: stopped; the command ended (${signal ?? `exit ${code}`}) after ${Math.round((Date.now() - started) / 1000)} s`);
  process.exit(code ?? 1);
});
