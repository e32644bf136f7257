// Process start to first answer: `node dist/server.js web` spawned as the Procfile runs it,
// timed from the spawn to its first 200 on /healthz (polled every 5 ms), beside the Express hello's start to its first
// answer; each a median of N, the two alternating.
import { freePort, spawnNode, stopChild, waitForOk } from './benchStack.ts';
import { median } from './benchMath.ts';

export interface StartTimes {
  webMs: number[];
  expressHelloMs: number[];
  webMedian: number;
  expressHelloMedian: number;
}

async function timeToFirstAnswer(name: string, args: (port: number) => string[], env: Record<string, string>, path: string, logDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawnNode(name, args(port), { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, logDir);
  try {
    await waitForOk(`http://127.0.0.1:${port}${path}`, 30_000, 5);
    return performance.now() - started;
  } finally {
    await stopChild(child);
  }
}

export async function measureStartTimes(webEnv: Record<string, string>, logDir: string, runs: number): Promise<StartTimes> {
  const webMs: number[] = [];
  const expressHelloMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    webMs.push(await timeToFirstAnswer('start-web', () => ['--enable-source-maps', 'dist/server.js', 'web'], webEnv, '/healthz', logDir));
    expressHelloMs.push(await timeToFirstAnswer('start-hello', (port) => ['bench/helloServer.mjs', 'express', String(port)], {}, '/', logDir));
  }
  return { webMs, expressHelloMs, webMedian: median(webMs), expressHelloMedian: median(expressHelloMs) };
}
