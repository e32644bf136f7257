// A redis-server of the test's own on a free port, which the test may kill, pause and restart (the run's shared
// Redis, REDIS_URL, must stay up for the other tests). AOF, as production Redis needs: the sessions
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

/** Asks `url` `command` until its reply passes `until`, at most `ms` (a server starting, a cluster forming). */
export async function answers(url: string, command: string[], until: (reply: string) => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    try {
      await client.connect();
      const reply = String(await client.sendCommand(command));
      client.destroy();
      if (until(reply)) return;
    } catch {
      // A connection that failed is closed already (destroy would throw).
      if (client.isOpen) client.destroy();
    }
    if (Date.now() > end) throw new Error(`${url} did not answer ${command.join(' ')} as expected within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGKILL, and waits for the exit (at once for a process that has exited). */
export function sigkill(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
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
      await answers(url, ['PING'], (reply) => reply === 'PONG', 10_000);
    },
    async kill() {
      const running = child;
      child = undefined;
      if (running) await sigkill(running);
    },
    async remove() {
      await own.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return own;
}
