// The first step of `npm test` (package.json "pretest"): finds what the suite needs outside node_modules, installs
// what is missing from Debian's packages when it can (run as root, apt-get present), and otherwise stops saying what
// is missing and how to get it. Redis itself is started, when none answers, by the test run, which also builds the
// client and runs the static checks beside the tests (tests/support/globalSetup.ts): here only redis-server is sought.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

// The browser tests run in CHROMIUM_PATH when it is set; else in Debian's chromium-headless-shell where installed (the
// same Chromium without the browser's own UI, a third less CPU: tests/support/chromiumPaths.ts), else in Debian's chromium.
const chromiumPath = process.env.CHROMIUM_PATH;
const [fullChromium, headlessShell] = ['/usr/bin/chromium', '/usr/bin/chromium-headless-shell'];

/** What the suite runs outside Node, and the Debian package that brings each; an `optional` one only saves time. */
const needs = [
  chromiumPath
    ? { what: `Chromium at ${chromiumPath} (the browser tests)`, found: () => executable(chromiumPath), pkg: 'chromium' }
    : { what: `Chromium at ${fullChromium} (the browser tests)`, found: () => executable(fullChromium) || executable(headlessShell), pkg: 'chromium' },
  ...(chromiumPath
    ? []
    : [
        {
          what: `its headless shell at ${headlessShell} (the browser tests, on a third less CPU)`,
          found: () => executable(headlessShell),
          pkg: 'chromium-headless-shell',
          optional: true,
        },
      ]),
  { what: 'java (the Nu HTML Checker, vnu-jar)', found: () => onPath('java'), pkg: 'default-jre-headless' },
  { what: 'redis-server and redis-cli (the Redis-mode tests)', found: () => onPath('redis-server') && onPath('redis-cli'), pkg: 'redis-server' },
];

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const onPath = (command) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && executable(join(dir, command)));

const log = (line) => console.log(`test setup: ${line}`);

/** Runs `command` with a shell; resolves with its exit code and its output (shown only on failure). */
function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const canInstall = process.getuid?.() === 0 && onPath('apt-get');
const missing = needs.filter((need) => !need.found() && (canInstall || !need.optional));
const packages = missing.map((need) => need.pkg);

if (missing.length > 0 && !canInstall) {
  const why = process.getuid?.() === 0 ? 'apt-get is not here (not a Debian-like system)' : 'not run as root';
  console.error(
    [
      `test setup: the suite needs what this machine lacks, and ${why}, so it cannot install it:`,
      ...missing.map((need) => `  - ${need.what}: Debian package ${need.pkg}`),
      `Install it, then run npm test again: sudo apt-get install ${packages.join(' ')}`,
      "Elsewhere: install Chromium, a Java runtime (11 or later) and Redis with your system's packages; a Chromium",
      'installed at another path is named by CHROMIUM_PATH, a Redis already running by TEST_REDIS_URL.',
    ].join('\n'),
  );
  process.exit(1);
}

const skipped = needs.filter((need) => need.optional && !need.found() && !canInstall);
for (const need of skipped) log(`${need.pkg} is not installed: the browser tests run in ${fullChromium}, on more CPU (apt-get install ${need.pkg})`);
if (missing.length === 0) process.exit(0);
const started = Date.now();
log(`installing ${packages.join(', ')} from Debian's packages (apt-get)`);
const installed = await run(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 ${packages.join(' ')}`);
const still = missing.filter((need) => !need.found() && !need.optional);
if (installed.code !== 0 && still.length === 0) {
  // What could not be installed only saves time: the tests run in the Chromium that is here.
  log(`could not install ${packages.join(', ')} (exit ${installed.code}); the browser tests run in ${fullChromium}`);
  process.exit(0);
}
if (installed.code !== 0 || still.length > 0) {
  console.error(installed.output);
  const outcome = installed.code === 0 ? `installed ${packages.join(' ')}, yet` : `could not install ${packages.join(' ')} (exit ${installed.code}):`;
  console.error(`test setup: apt-get ${outcome} the suite still lacks:\n${still.map((need) => `  - ${need.what}: Debian package ${need.pkg}`).join('\n')}`);
  process.exit(1);
}
log(`installed ${packages.join(', ')} in ${Math.round((Date.now() - started) / 1000)} s`);
