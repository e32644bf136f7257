// TEMP (not committed): CPU µs per request of the web for each page. tsx bench/zzCpu.ts [seconds] [rounds]
import { mkdtempSync, readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startBenchStack } from './benchStack.ts';
import { peopleOn } from './people.ts';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
const logDir = mkdtempSync(join(tmpdir(), 'bench-'));
const stack = await startBenchStack(logDir);
const port = new URL(stack.webUrl).port;
const pid = execSync(`pgrep -f "dist/server.js web"`).toString().trim().split('\n').find((p) => readFileSync(`/proc/${p}/environ`, 'utf8').includes(`PORT=${port}`))!;
const cpu = () => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10_000; }; // µs (100 Hz)
try {
  const pages: Record<string, { path: string; cookies: string[]; paths: string[] }> = { start: { path: '/onboarding', cookies: [], paths: [] } };
  for (const kind of ['step', 'kyc', 'legacy'] as const) {
    const people = await peopleOn(kind, 16, stack.webUrl, stack.sandboxUrl);
    pages[kind] = { path: people[0]!.page, cookies: people.map((p) => p.cookie), paths: people.map((p) => p.page) };
  }
  const out: Record<string, number[]> = {};
  for (let r = 0; r <= rounds; r++)
    for (const br of [false, true])
      for (const [name, p] of Object.entries(pages)) {
        let i = 0;
        const c0 = cpu();
        const res = await autocannon({
          url: stack.webUrl, connections: 8, duration: seconds, headers: br ? { 'accept-encoding': 'br' } : {},
          requests: [{ method: 'GET', path: p.path, setupRequest(req) { if (!p.cookies.length) return req; const k = i++ % p.cookies.length; return { ...req, path: p.paths[k]!, headers: { ...req.headers, cookie: p.cookies[k]! } }; } }],
        });
        const us = (cpu() - c0) / res.requests.total;
        if (res.non2xx || res.errors) console.log('FAILURES', name, res.non2xx, res.errors);
        if (r > 0) (out[name + (br ? ' br' : '')] ??= []).push(us);
      }
  for (const [k, v] of Object.entries(out)) console.log(k.padEnd(12), v.map((x) => x.toFixed(0)).join(' / '), ' median', v.sort((a, b) => a - b)[Math.floor(v.length / 2)]!.toFixed(0), 'µs');
} finally {
  await stack.stop();
}
