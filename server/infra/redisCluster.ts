// A Redis Cluster (REDIS_CLUSTER=true, REDIS_URL its seed nodes) with the guarantees server/infra/redis.ts gives one
// node, on every node: node-redis's cluster client for the app's own keys, ioredis's Cluster for BullMQ (BullMQ's
// node-redis adapter has no cluster support). Every command bounded from asking for its node's connection to its reply;
// a start that finds no seed answering keeps trying. docs/infrastructure.md "Redis connections".
import { createCluster } from '@redis/client';
import type { Cluster, ClusterOptions, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { redisAddress } from './redisTarget.ts';
import {
  RedisUnavailableError,
  boundReplies,
  nodeClientOptions,
  outageLog,
  producerOptions,
  reconnectDelay,
  replyDeadlines,
  type RedisConnectOptions,
  type RedisConnection,
} from './redis.ts';

/** The parts of node-redis's cluster client this module reaches into: its slot map's node lookup. */
interface ClusterSlots {
  readonly isOpen: boolean;
  readonly masters: ReadonlyArray<{ client?: { readonly isReady: boolean } }>;
  getClientAndSlotNumber(firstKey: unknown, isReadonly: unknown): Promise<{ client: object; slotNumber?: number }>;
}

/** TLS, user and password of the seeds (config checked that they agree): the nodes the cluster names get them too. */
function seedDefaults(seeds: string[]) {
  const { username, password, tls } = redisAddress(seeds[0]!);
  return { username, password, tls };
}

/**
 * Every command asks the slot map for its node's connection, then sends on it: both are bounded, the first also
 * failing at once while the cluster's layout is unknown (not connected yet; its nodes' connections then do not exist).
 * Each node's connection, the first time it is handed out, gets boundReplies as one node's client does: its
 * commands, MULTI and pipelines.
 */
function boundClusterCommands(slots: ClusterSlots, ms: number): void {
  const deadlines = replyDeadlines(ms);
  const bounded = new WeakSet<object>();
  const lookUp = slots.getClientAndSlotNumber.bind(slots);
  Object.defineProperty(slots, 'getClientAndSlotNumber', {
    configurable: true,
    writable: true,
    value: async (firstKey: unknown, isReadonly: unknown) => {
      if (!slots.isOpen || slots.masters.length === 0) throw new RedisUnavailableError('Redis Cluster is not connected');
      const found = await deadlines.bound(lookUp(firstKey, isReadonly), 'connecting to a Redis Cluster node');
      if (!bounded.has(found.client)) {
        bounded.add(found.client);
        boundReplies(found.client, ms, deadlines);
      }
      return found;
    },
  });
}

/**
 * A node-redis cluster client, connecting in the background (as connectRedis: the process listens whether or not
 * Redis is there). Ready while every primary's connection is: a cluster missing a primary refuses every command by
 * default (cluster-require-full-coverage), so the web answers 503 then as for one node away.
 */
export function connectRedisCluster(seeds: string[], logger: Pick<Logger, 'error' | 'warn' | 'info'>, options: RedisConnectOptions): RedisConnection {
  const { username, password, tls } = seedDefaults(seeds);
  const node = nodeClientOptions(options.commandTimeoutMs);
  const cluster = createCluster({
    rootNodes: seeds.map((url) => ({ url })),
    defaults: { ...node, username, password, socket: tls ? { ...node.socket, tls: true } : node.socket },
  });
  const slots = cluster._slots as unknown as ClusterSlots;
  const ready = () => slots.isOpen && slots.masters.length > 0 && slots.masters.every((m) => m.client?.isReady === true);
  let stopped = false;
  // The cluster tells of a node's first 'ready' only, not of one after a reconnect: an outage watches for its end.
  const log = outageLog(logger, 'redis cluster');
  let watching: ReturnType<typeof setInterval> | undefined;
  const failed = (err: Error) => {
    log.failed(err);
    if (watching || stopped) return;
    watching = setInterval(() => {
      if (!ready() && !stopped) return;
      clearInterval(watching);
      watching = undefined;
      if (!stopped) log.ready();
    }, 500);
    watching.unref();
  };
  cluster.on('error', failed);
  cluster.on('node-error', failed);
  cluster.on('node-reconnecting', log.reconnecting);
  boundClusterCommands(slots, options.commandTimeoutMs);

  // node-redis gives up when no seed answers at start: try again, as one node's client reconnects, until closed.
  const connect = (attempt: number) => {
    cluster.connect().then(
      () => undefined,
      (err: unknown) => {
        if (stopped) return;
        failed(err instanceof Error ? err : new Error(String(err)));
        setTimeout(() => {
          if (!stopped) connect(attempt + 1);
        }, reconnectDelay(attempt)).unref();
      },
    );
  };
  for (const method of ['quit', 'close', 'destroy'] as const) {
    const end = cluster[method].bind(cluster) as () => unknown;
    Object.defineProperty(cluster, method, {
      configurable: true,
      writable: true,
      value: () => {
        stopped = true;
        return end();
      },
    });
  }
  connect(0);
  // isReady as one node's client has it; isOpen also while it waits to try the seeds again.
  return withReadiness(cluster, ready, () => !stopped);
}

function withReadiness<T extends object>(
  target: T,
  isReady: () => boolean,
  isOpen: () => boolean,
): T & { readonly isReady: boolean; readonly isOpen: boolean } {
  Object.defineProperties(target, { isReady: { configurable: true, get: isReady }, isOpen: { configurable: true, get: isOpen } });
  return target as T & { readonly isReady: boolean; readonly isOpen: boolean };
}

/**
 * ioredis's Cluster for BullMQ, which takes it as a connection of its own making (BullMQ neither opens nor closes it:
 * jobQueue.ts quits it after the queue or the worker). `producer`: a web process's queue, failing within
 * `commandTimeoutMs` while Redis is away (no offline queue, on the cluster and its nodes), as ioredisForProducer.
 * A worker's: maxRetriesPerRequest null on its nodes, as BullMQ asks of a blocking connection.
 */
export async function ioredisClusterForBullmq(seeds: string[], role: { producer: true; commandTimeoutMs: number } | { producer: false }): Promise<Cluster> {
  // The class's static: a bundle's interop with ioredis (CommonJS) keeps the default export, not every named one.
  const { default: Redis } = await import('ioredis');
  const { username, password, tls } = seedDefaults(seeds);
  const nodes = seeds.map((url) => ({ host: redisAddress(url).host, port: redisAddress(url).port }));
  const redisOptions: RedisOptions = {
    username,
    password,
    ...(tls ? { tls: {} } : {}),
    ...(role.producer ? producerOptions(role.commandTimeoutMs) : { maxRetriesPerRequest: null }),
  };
  const options: ClusterOptions = {
    redisOptions,
    clusterRetryStrategy: (times: number) => reconnectDelay(times - 1),
    ...(role.producer ? { enableOfflineQueue: false } : {}),
  };
  return new Redis.Cluster(nodes, options);
}
