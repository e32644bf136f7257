// A Redis Cluster of the test's own: three primaries (no replicas) on free loopback ports, each with its cluster bus on
// a free port of its own (`cluster-port`), data under a temporary folder. `remove` kills them and removes the folder;
// a cluster that does not come up is removed before the error is thrown, so no redis-server outlives the test.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './productEnv.ts';
import { answers, sigkill } from './ownRedis.ts';

export interface OwnRedisCluster {
  /** Each primary's redis:// URL. */
  readonly urls: string[];
  /** Each primary's redis-server (for SIGSTOP/SIGCONT), in the order of `urls`. */
  readonly processes: ChildProcess[];
  /** REDIS_URL of a product process: every node as a seed, comma separated (REDIS_CLUSTER=true). */
  readonly seeds: string;
  /** Kills the nodes and removes their data. */
  remove(): Promise<void>;
}

const run = promisify(execFile);

export async function createOwnRedisCluster(name: string, nodes = 3): Promise<OwnRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const children: ChildProcess[] = [];
  const remove = async () => {
    await Promise.all(children.map(sigkill));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    for (let i = 0; i < nodes; i++) {
      // Two ports per node, each free now (a bus port of port + 10000, the default, may be taken or out of range).
      const [port, bus] = [await freePort(), await freePort()];
      const nodeDir = join(dir, `node-${i}`);
      mkdirSync(nodeDir);
      ports.push(port);
      // Within the try: a spawn that fails still leaves the nodes before it to remove().
      children.push(
        spawn(
          'redis-server',
          [
            ['--port', String(port)],
            ['--cluster-port', String(bus)],
            ['--bind', '127.0.0.1'],
            ['--cluster-enabled', 'yes'],
            ['--cluster-config-file', 'nodes.conf'],
            ['--cluster-node-timeout', '5000'],
            ['--save', ''],
            ['--appendonly', 'no'],
            ['--dir', nodeDir],
          ].flat(),
          { stdio: 'ignore' },
        ),
      );
    }
    const urls = ports.map((p) => `redis://127.0.0.1:${p}`);
    await Promise.all(urls.map((url) => answers(url, ['PING'], (r) => r === 'PONG', 10_000)));
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
    // Every node agrees the cluster is up (all slots served) before a product process asks any of them.
    await Promise.all(urls.map((url) => answers(url, ['CLUSTER', 'INFO'], (r) => r.includes('cluster_state:ok'), 20_000)));
    return { urls, processes: children, seeds: urls.join(','), remove };
  } catch (err) {
    await remove();
    throw err;
  }
}
