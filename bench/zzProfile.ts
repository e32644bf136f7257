// TEMP (not committed): profile the web on one page. tsx bench/zzProfile.ts <start|step|kyc|legacy> <seconds>
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBenchStack, startHelloServers } from './benchStack.ts';
import { peopleOn } from './people.ts';
import { measureThroughput, type Target } from './throughput.ts';

const which = process.argv[2] ?? 'step';
const seconds = Number(process.argv[3] ?? 10);
const br = process.argv.includes('--br');
const logDir = mkdtempSync(join(tmpdir(), 'bench-'));
const [stack, hellos] = await Promise.all([startBenchStack(logDir), startHelloServers(logDir)]);
try {
  let target: Target;
  if (which === 'start') target = { name: 'start', url: stack.webUrl, path: '/onboarding' };
  else {
    const people = await peopleOn(which as 'step', 16, stack.webUrl, stack.sandboxUrl);
    target = { name: which, url: stack.webUrl, path: people[0]!.page, visitors: people.map((p) => ({ cookie: p.cookie, path: p.page })) };
  }
  if (br) target.headers = { 'accept-encoding': 'br' };
  const rates = await measureThroughput([{ name: 'Express hello', url: hellos.expressUrl, path: '/' }, target], { rounds: 3, seconds, connections: 8, warmupSeconds: 2, log: console.log });
  for (const r of rates) console.log(r.name, Math.round(r.median));
  console.log('ratio', (rates[1]!.median / rates[0]!.median).toFixed(3));
} finally {
  await stack.stop();
  await hellos.stop();
}
