// A redis-server of the test's own on a free port, which the test may kill, pause and restart (the shared
// Redis on 6379 must stay up for the other tests). AOF, as the README asks of production: the sessions
// outlive a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { freePort } from './productEnv.ts';

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** The running server process (for SIGSTOP/SIGCONT), or undefined while stopped. */
  readonly process: ChildProcess | undefined;
  /** Starts the server on the same port and data folder; resolves once it answers PING. */
  start(): Promise<void>;
  /** SIGKILL, and waits for the exit. */
  kill(): Promise<void>;
  /** Kills the server and removes its data folder. */
  remove(): Promise<void>;
}

export async function createOwnRedis(name: string, options: { appendfsync?: 'always' | 'everysec' } = {}): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const own: OwnRedis = {
    port,
    url,
    get process() {
      return child;
    },
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', options.appendfsync ?? 'always', '--dir', dir],
        {
          stdio: 'ignore',
        },
      );
      const until = Date.now() + 10_000;
      for (;;) {
        const client = createClient({ url, socket: { reconnectStrategy: false } });
        client.on('error', () => {});
        try {
          await client.connect();
          await client.ping();
          await client.quit();
          return;
        } catch {
          if (Date.now() > until) throw new Error('redis-server did not start');
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
    async kill() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGKILL');
      });
    },
    async remove() {
      await own.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return own;
}
