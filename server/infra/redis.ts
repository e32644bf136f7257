// Redis connections. node-redis serves sessions, locks and creation events; BullMQ brings its own ioredis connections, so
// it only gets connection options from here (a Redis Cluster: server/infra/redisCluster.ts). Redis down must never hang
// a request: every command has a timeout, also for its reply, no offline queue, the client reconnects by itself every ≤ 2
// s, and the error handler answers such failures with the 503 page (isRedisUnavailable). docs/infrastructure.md "Redis
// connections".
import {
  createClient,
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
  RootNodesUnavailableError,
  type RedisClientType,
  type SetOptions,
} from '@redis/client';
import { createHash } from 'node:crypto';
import type { RedisOptions } from 'ioredis';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { redisAddress } from './redisTarget.ts';

/**
 * What the app asks of Redis (sessions, locks, creation events, KYC states, credentials, records, rate limits,
 * readiness): a node-redis client of one node or of a Redis Cluster alike (connectRedis). connect-redis and
 * rate-limiter-flexible get the same object and tell a cluster from a node themselves.
 */
export interface RedisConnection {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: SetOptions): Promise<string | null>;
  del(keys: string | string[]): Promise<number>;
  /** A script: its keys must share a hash slot on a cluster (server/infra/keyLayout.ts). Run through redisScript. */
  eval(script: string, options: ScriptCall): Promise<unknown>;
  /** A script Redis has seen, by its SHA1; NOSCRIPT when it has not. */
  evalSha(sha1: string, options: ScriptCall): Promise<unknown>;
  ping(): Promise<string>;
  /** Connected and able to answer now (a cluster: every primary connected). */
  readonly isReady: boolean;
  /** Connected or trying to be. */
  readonly isOpen: boolean;
  quit(): Promise<unknown>;
  destroy(): void;
  /** A new, unconnected connection like this one, for SUBSCRIBE (a subscribed connection runs no other command). */
  duplicate(): RedisSubscriber;
}

export interface ScriptCall {
  keys: string[];
  arguments: string[];
}

/**
 * A Lua script, run by its SHA1 (EVALSHA) as node-redis's own defineScript does: its text goes to Redis only when Redis
 * has not seen it yet (NOSCRIPT: after a restart, or on another node of a cluster), not with every call.
 */
export function redisScript(source: string): (client: RedisConnection, call: ScriptCall) => Promise<unknown> {
  const sha1 = createHash('sha1').update(source).digest('hex');
  return async (client, call) => {
    try {
      return await client.evalSha(sha1, call);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('NOSCRIPT')) return client.eval(source, call);
      throw err;
    }
  };
}

/** A connection that subscribes to pub/sub channels (on a cluster, a PUBLISH on any node reaches it). */
export interface RedisSubscriber {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string | Buffer) => void): Promise<void>;
  unsubscribe(channel: string, listener?: (message: string | Buffer) => void): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): unknown;
  readonly isOpen: boolean;
  quit(): Promise<unknown>;
  destroy(): void;
}

/** Redis could not be asked (down, unreachable or not answering in time): the request answers 503. */
export class RedisUnavailableError extends Error {
  constructor(message = 'Redis is unavailable', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RedisUnavailableError';
  }
}

// What node-redis throws when the connection is down or a command ran out of time.
const nodeRedisUnavailable = [
  ClientOfflineError,
  ClientClosedError,
  TimeoutError,
  ConnectionTimeoutError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  ReconnectStrategyError,
  DisconnectsClientError,
  RootNodesUnavailableError,
];
// ioredis (BullMQ's producer) has no classes for these, only messages. Also node-redis's full command queue.
const unavailableMessages = new Set([
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Command timed out',
  'Connection is closed.',
  'The queue is full',
  // ioredis's Cluster (BullMQ on a Redis Cluster).
  "Cluster isn't ready and enableOfflineQueue options is false",
  'None of startup nodes is available',
  'Cluster is disconnected.',
  'Failed to refresh slots cache.',
]);
// A cluster that lost a primary refuses commands (CLUSTERDOWN) until it has one again; a slot being moved (TRYAGAIN).
const unavailableReplies = /^(CLUSTERDOWN|TRYAGAIN) |^Too many Cluster redirections/;

/**
 * True for a failure that means "Redis cannot be reached right now" (not a bug, not a bad command):
 * our own RedisUnavailableError, node-redis's offline, closed and timeout errors, and ioredis's
 * offline, timeout and max-retries errors, also when wrapped as another error's cause.
 */
export function isRedisUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 5; depth++, e = e.cause) {
    if (e instanceof RedisUnavailableError || nodeRedisUnavailable.some((C) => e instanceof C)) return true;
    if (e.name === 'MaxRetriesPerRequestError' || unavailableMessages.has(e.message) || unavailableReplies.test(e.message)) return true;
  }
  return false;
}

/**
 * Placed before the session middleware: while the client knows its connection is down, a request that
 * would read the session is refused at once (503 page) instead of trying the store. A Redis that is
 * connected but does not answer is caught by the command timeout instead.
 */
export function requireRedis(client: RedisConnection | undefined): RequestHandler {
  return (_req, _res, next) => {
    if (client && !client.isReady) return next(new RedisUnavailableError('Redis is not connected'));
    next();
  };
}

/** Rejects with RedisUnavailableError when `promise` has not settled within `ms`; `onLate` tidies up after it. */
export function within<T>(promise: Promise<T>, ms: number, what: string, onLate?: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onLate?.();
      reject(new RedisUnavailableError(`${what} took longer than ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Deadlines for many commands at once: one timer, armed only while a command is waiting. */
export interface ReplyDeadlines {
  /** `promise`, or a RedisUnavailableError once it has waited `ms` (at most a quarter more) without settling. */
  bound<T>(promise: Promise<T>, what: string): Promise<T>;
  /** Commands waiting for their reply (tests). */
  readonly waiting: number;
  /** Whether the timer runs: while a command waits, and until its next tick finds none (tests). */
  readonly armed: boolean;
}

/**
 * A timer per command (node-redis's `timeout` option arms an AbortSignal.timeout for every command, which fires
 * even after the reply came) cost about 5 % of a busy worker's CPU. Here a command costs a Set entry:
 * one interval, running only while commands wait (it stops at a tick that finds none), fails those that waited `ms` (oldest first: a Set keeps the
 * order they were added in).
 */
export function replyDeadlines(ms: number): ReplyDeadlines {
  const waiting = new Set<{ since: number; what: string; reject: (err: Error) => void }>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const tick = () => {
    const now = Date.now();
    for (const entry of waiting) {
      if (now - entry.since < ms) break;
      waiting.delete(entry);
      entry.reject(new RedisUnavailableError(`${entry.what} took longer than ${ms} ms`));
    }
    if (waiting.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  return {
    bound(promise, what) {
      return new Promise((resolve, reject) => {
        const entry = { since: Date.now(), what, reject };
        waiting.add(entry);
        if (!timer) {
          timer = setInterval(tick, Math.max(1, Math.ceil(ms / 4)));
          timer.unref();
        }
        promise.then(
          (value) => {
            waiting.delete(entry);
            resolve(value);
          },
          (err: unknown) => {
            waiting.delete(entry);
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      });
    },
    get waiting() {
      return waiting.size;
    },
    get armed() {
      return timer !== undefined;
    },
  };
}

/**
 * A command in flight when the connection breaks fails with the socket's own error (`read ECONNRESET`, `write EPIPE`:
 * a system error, with `syscall`), which says nothing about Redis to the error middleware. From a Redis command it
 * means Redis could not be reached (503); the same error from an upstream's socket must not say so, hence here.
 */
export const unreachedAs =
  (what: string) =>
  (err: unknown): never => {
    const systemError = err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';
    if (systemError) throw new RedisUnavailableError(`${what} failed: ${err.message}`, { cause: err });
    throw err;
  };

/**
 * Every command (single ones and scripts pass through sendCommand) gets a deadline from the moment it is sent until
 * its reply: waiting to be written, and on the wire, where a Redis that stalls (paused, swapping, a half-open
 * connection) would keep it, and the request, waiting for good. A late reply still arrives in order and is
 * dropped; the command itself may still take effect then (Redis runs it once it resumes), as with any client-side
 * timeout.
 */
export function boundReplies(client: object, ms: number, deadlines = replyDeadlines(ms)): void {
  type Send = (...args: unknown[]) => Promise<unknown>;
  // With commandOptions, createClient answers a view of the client; commands run on the client itself.
  const self = (client as unknown as { _self?: object })._self ?? client;
  // MULTI and pipelines bypass sendCommand (node-redis queues their commands itself): bounded as one command each.
  for (const [method, what] of [
    ['sendCommand', 'redis command'],
    ['_executeMulti', 'redis MULTI'],
    ['_executePipeline', 'redis pipeline'],
  ] as const) {
    const send = ((self as Record<string, Send>)[method] as Send).bind(self);
    Object.defineProperty(self, method, {
      value: (...args: unknown[]) => deadlines.bound(send(...args).catch(unreachedAs(what)), what),
      writable: true,
      configurable: true,
    });
  }
}

/** Wait before reconnect attempt `retries` (0-based): 100 ms doubling to 2 s, with jitter so web processes spread out. */
export function reconnectDelay(retries: number): number {
  return Math.min(100 * 2 ** retries, 2000) + Math.floor(Math.random() * 100);
}

export interface RedisConnectOptions {
  /** Each command gives up after this long (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
}

/** What every node-redis connection to a node gets: one node's client, and each node's of a cluster. */
export function nodeClientOptions(commandTimeoutMs: number) {
  return {
    // While the connection is down, commands fail at once (→ 503) rather than wait, unbounded, for it.
    disableOfflineQueue: true,
    // A Redis that is connected but stalls cannot pile up commands without end either.
    commandsQueueMaxLength: 10_000,
    // No `commandOptions.timeout`: its timer per command outlives the command; boundReplies bounds each
    // command, from sending to reply, with one shared timer.
    socket: {
      connectTimeout: Math.max(1000, 2 * commandTimeoutMs),
      reconnectStrategy: (retries: number) => reconnectDelay(retries),
    },
  };
}

/**
 * Log lines of a connection's outages: one per outage, not one per reconnect attempt. (Without an 'error' listener a
 * dropped connection would crash the process: EventEmitter semantics.)
 */
export function outageLog(logger: Pick<Logger, 'error' | 'warn' | 'info'>, what: string) {
  let down = false;
  return {
    failed(err: Error) {
      if (down) return;
      down = true;
      logger.error({ err }, `${what} error`);
    },
    reconnecting() {
      if (!down) logger.warn(`${what} reconnecting`);
    },
    ready() {
      if (down) logger.info(`${what} connected again`);
      down = false;
    },
  };
}

/**
 * A node-redis client, connecting in the background. It answers at once, also while Redis is down: the web
 * process must listen regardless (/healthz 200, /readyz and pages 503 while the client is not ready, see
 * requireRedis), and a start-up that waited for Redis left the platform with no process to ask. Errors are
 * logged, never thrown at the process: the client reconnects by itself. (A Redis Cluster: server/infra/redisCluster.ts.)
 */
export function connectRedis(url: string, logger: Pick<Logger, 'error' | 'warn' | 'info'>, options: RedisConnectOptions): RedisClientType {
  const client = createClient({ url, ...nodeClientOptions(options.commandTimeoutMs) }) as unknown as RedisClientType;
  const log = outageLog(logger, 'redis client');
  client.on('error', log.failed);
  client.on('reconnecting', log.reconnecting);
  client.on('ready', log.ready);
  boundReplies(client, options.commandTimeoutMs);
  // Resolves once connected, however long Redis is away (the reconnect strategy never gives up).
  client.connect().catch((err: unknown) => logger.error({ err }, 'redis client gave up connecting'));
  return client;
}

/**
 * ioredis options for BullMQ from a redis:// or rediss:// URL. Workers need maxRetriesPerRequest null
 * (BullMQ refuses otherwise: blocking commands must wait out reconnects instead of failing).
 */
export function ioredisForBullmq(url: string, extra: Partial<RedisOptions> = {}): RedisOptions {
  const { host, port, username, password, tls, db } = redisAddress(url);
  return { host, port, username, password, db, ...(tls ? { tls: {} } : {}), maxRetriesPerRequest: null, ...extra };
}

/**
 * ioredis options for a producer (a Queue that only adds jobs, as in the web process): a request that
 * adds a job fails within `commandTimeoutMs` while Redis is away instead of hanging. No offline queue, at
 * most one retry of a command cut off by a dropped connection, and reconnects every ≤ 2 s (BullMQ's own
 * default backs off to 20 s, which would keep the queue down long after Redis is back).
 */
export function ioredisForProducer(url: string, commandTimeoutMs: number): RedisOptions {
  return ioredisForBullmq(url, producerOptions(commandTimeoutMs));
}

/** What makes an ioredis connection a producer's (ioredisForProducer; a cluster's nodes alike). */
export function producerOptions(commandTimeoutMs: number): Partial<RedisOptions> {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(1000, 2 * commandTimeoutMs),
    retryStrategy: (times: number) => reconnectDelay(times - 1),
  };
}
