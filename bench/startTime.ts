// Process start to first answer: `node dist/server.js web` and `… worker` spawned as the Procfile runs them, each timed
// from the spawn to its first 200 on /healthz (the worker's on its metrics listener, which listens once it takes jobs;
// polled every 5 ms), beside the Express hello's start to its first answer; each a median of N, alternating.
//   tsx bench/startTime.ts [RUNS] [SERVER_JS]: on a bench stack of its own, printed (SERVER_JS: another build to compare).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, spawnNode, startBenchStack, stopChild, waitForOk } from './benchStack.ts';
import { median } from './benchMath.ts';

export interface StartTimes {
  webMs: number[];
  workerMs: number[];
  expressHelloMs: number[];
  webMedian: number;
  workerMedian: number;
  expressHelloMedian: number;
}

async function timeToFirstAnswer(name: string, args: (port: number) => string[], env: (port: number) => Record<string, string>, path: string, logDir: string) {
  const port = await freePort();
  const started = performance.now();
  const child = spawnNode(name, args(port), env(port), logDir);
  try {
    await waitForOk(`http://127.0.0.1:${port}${path}`, 30_000, 5);
    return performance.now() - started;
  } finally {
    await stopChild(child);
  }
}

export async function measureStartTimes(webEnv: Record<string, string>, logDir: string, runs: number, serverJs = 'dist/server.js'): Promise<StartTimes> {
  const webMs: number[] = [];
  const workerMs: number[] = [];
  const expressHelloMs: number[] = [];
  const web = (port: number) => ({ ...webEnv, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  // The worker's own port is its metrics listener's; the web's port it does not listen on.
  const worker = (port: number) => ({ ...webEnv, PORT: String(port === 1 ? 2 : port - 1), METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1' });
  for (let i = 0; i < runs; i++) {
    webMs.push(await timeToFirstAnswer('start-web', () => ['--enable-source-maps', serverJs, 'web'], web, '/healthz', logDir));
    workerMs.push(await timeToFirstAnswer('start-worker', () => ['--enable-source-maps', serverJs, 'worker'], worker, '/healthz', logDir));
    expressHelloMs.push(
      await timeToFirstAnswer(
        'start-hello',
        (port) => ['bench/helloServer.mjs', 'express', String(port)],
        () => ({}),
        '/',
        logDir,
      ),
    );
  }
  return { webMs, workerMs, expressHelloMs, webMedian: median(webMs), workerMedian: median(workerMs), expressHelloMedian: median(expressHelloMs) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const logDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const stack = await startBenchStack(logDir);
  try {
    const t = await measureStartTimes(stack.webEnv, logDir, Number(process.argv[2] ?? 5), process.argv[3]);
    const line = (ms: number[], m: number) => `${Math.round(m)} ms (${ms.map(Math.round).join(' / ')})`;
    process.stdout.write(
      `web ${line(t.webMs, t.webMedian)}\nworker ${line(t.workerMs, t.workerMedian)}\nExpress hello ${line(t.expressHelloMs, t.expressHelloMedian)}\n`,
    );
  } finally {
    await stack.stop();
  }
}
