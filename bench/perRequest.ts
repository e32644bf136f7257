// Work per request: the Redis commands one GET of a page sends (MONITOR on the bench's own Redis,
// the worker paused meanwhile with SIGSTOP so that its queue polling does not count) and the upstream calls it makes
// (requests reaching the sandbox through the bench's counter). A few requests per page, averaged.
import { connect, type Socket } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { countedList } from './benchMath.ts';
import type { Visitor } from './throughput.ts';

export interface PerRequestTarget {
  name: string;
  url: string;
  path: string;
  visitors?: Visitor[];
}

export interface PerRequestWork {
  name: string;
  redisCommands: number;
  upstreamCalls: number;
  /** The commands of the last request, counted ("EVALSHA×2, GET"). */
  commands: string;
  /** The upstream calls of the last request, counted. */
  calls: string;
}

/** A MONITOR connection: every command a client sent, as its name (MONITOR's lines have it first in quotes). */
async function monitor(port: number): Promise<{ names: string[]; close(): void }> {
  const names: string[] = [];
  const socket: Socket = connect(port, '127.0.0.1');
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write('MONITOR\r\n');
      resolve();
    });
  });
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\r\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [, client, name] = /^\+\d+\.\d+ \[([^\]]+)\] "([^"]+)"/.exec(line) ?? [];
      // Commands a Lua script runs inside Redis are no commands the web sent.
      if (name && !client!.endsWith(' lua')) names.push(name.toUpperCase());
    }
  });
  return { names, close: () => socket.destroy() };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function measurePerRequest(
  targets: readonly PerRequestTarget[],
  options: { redisPort: number; upstreamCalls: () => string[]; worker: ChildProcess; requests: number },
): Promise<PerRequestWork[]> {
  const mon = await monitor(options.redisPort);
  options.worker.kill('SIGSTOP');
  try {
    await settle(300);
    const results: PerRequestWork[] = [];
    for (const target of targets) {
      let redis = 0;
      let upstream = 0;
      let last: string[] = [];
      let lastCalls: string[] = [];
      for (let i = 0; i < options.requests; i++) {
        const visitor = target.visitors?.[i % target.visitors.length];
        const [redisBefore, upstreamBefore] = [mon.names.length, options.upstreamCalls().length];
        const res = await fetch(new URL(visitor?.path ?? target.path, target.url), { redirect: 'manual', headers: visitor ? { cookie: visitor.cookie } : {} });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${target.name} answered ${res.status}`);
        // A command sent as the answer went out still belongs to the request.
        await settle(50);
        last = mon.names.slice(redisBefore);
        redis += last.length;
        lastCalls = options.upstreamCalls().slice(upstreamBefore);
        upstream += lastCalls.length;
      }
      results.push({
        name: target.name,
        redisCommands: redis / options.requests,
        upstreamCalls: upstream / options.requests,
        commands: countedList(last),
        calls: countedList(lastCalls),
      });
    }
    return results;
  } finally {
    options.worker.kill('SIGCONT');
    mon.close();
  }
}
