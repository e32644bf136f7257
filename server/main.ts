// Composition root: validates config, builds every dependency once, and starts the web process, the
// worker process, or both (development, in-memory mode). Procfile: `web`, `worker`.
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RedisClientType } from 'redis';
import type { DestinationStream, Logger } from 'pino';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { createLogger } from './logger.ts';
import { createI18n, loadCatalogues } from './catalogues.ts';
import { loadManifest } from './render.tsx';
import { createBankidClient } from './upstream/bankidClient.ts';
import { createBrokerageClient, type BrokerageClient } from './upstream/brokerageClient.ts';
import { createObjectStorageClient } from './upstream/objectStorageClient.ts';
import { createOidcBroker } from './upstream/oidcBrokerClient.ts';
import { createContentService } from './upstream/contentServiceClient.ts';
import { connectRedis } from './infra/redis.ts';
import { createBullmqQueue, createMemoryQueue, startBullmqRunner, type JobQueue, type JobRunner, type MemoryJobQueue } from './infra/jobQueue.ts';
import { createMemoryCreationEvents, createRedisCreationEvents, type CreationEvents } from './infra/creationEvents.ts';
import { createMemoryCreationCredentials, createRedisCreationCredentials, type CreationCredentialsStore } from './infra/creationCredentials.ts';
import { createMemoryCreationRecords, createRedisCreationRecords, type CreationRecords } from './infra/creationRecords.ts';
import { createMemoryKycStates, createRedisKycStates, type KycStates } from './infra/kycStates.ts';
import { createSseConnections, type SseConnections } from './infra/sseConnections.ts';
import { createRunningDeadlines, type RunningDeadlines } from './infra/deadline.ts';
import { createMemorySessionLocks, createRedisSessionLocks, DEFAULT_LOCK_TIMING } from './infra/sessionLocks.ts';
import { createBankidStartLimiter } from './infra/rateLimits.ts';
import { createCustomerCreationAbandoned, createCustomerCreationJob } from '../workers/customerCreationJob.ts';
import { createKycPreparationAbandoned, createKycPreparationJob } from '../workers/kycPreparationJob.ts';
import { riskPollWaitMs } from '../shared/kyc.ts';
import { MAX_POLLING_TRIES } from '../shared/creationOutcome.ts';
import { createApp } from './app.ts';
import { routes } from '../shared/routes.ts';

export type Role = 'web' | 'worker' | 'all';

export interface Running {
  url: string | null;
  close(): Promise<void>;
}

/** `logDestination` (tests): where log lines go instead of stdout. */
export async function start(env: Record<string, string | undefined>, role: Role, options: { logDestination?: DestinationStream } = {}): Promise<Running> {
  const config = loadConfig(env);
  const logger = createLogger({ level: config.LOG_LEVEL, name: role === 'all' ? 'onboarding' : `onboarding-${role}` }, options.logDestination);
  const upstreams = createUpstreams(config);
  const stores = createStores(config, logger);
  const runner = role === 'worker' || role === 'all' ? await startWorker(role, config, logger, upstreams.brokerage, stores) : undefined;

  const sse = createSseConnections();
  const deadlines = createRunningDeadlines();
  const answering: Answering = { responses: new Set(), stopping: false };
  let web: Listening | undefined;
  if (role === 'web' || role === 'all') {
    const app = await createWebApp(config, logger, upstreams, stores, { sse, deadlines });
    web = await listen(app, config, answering);
    // With PORT=0 (tests) the real port is known only now; signing return URLs need it.
    config.publicUrl = web.url.replace(/\/$/, '');
    logger.info({ url: web.url }, 'web started');
  }

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= shutDown({ config, logger, server: web?.server, answering, sse, deadlines, runner, stores }));
  return { url: web?.url ?? null, close };
}

/** The upstream clients the web and the worker share. */
function createUpstreams(config: Config) {
  return {
    bankid: createBankidClient({
      baseUrl: config.BANKID_API_URL,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      tls: config.BANKID_CERT_PATH ? { certPath: config.BANKID_CERT_PATH, keyPath: config.BANKID_KEY_PATH!, caPath: config.BANKID_CA_PATH! } : undefined,
    }),
    brokerage: createBrokerageClient({ baseUrl: config.BROKERAGE_API_URL, timeoutMs: config.UPSTREAM_TIMEOUT_MS }),
    oidcBroker: createOidcBroker({
      issuerUrl: config.OIDC_ISSUER_URL,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    }),
  };
}
type Upstreams = ReturnType<typeof createUpstreams>;

/** What the web and the worker keep between requests: sessions' Redis, the job queue, creation events and records, credentials, KYC states. */
interface Stores {
  redis: RedisClientType | undefined;
  queue: JobQueue;
  /** Without Redis: the in-process queue, which also runs the jobs. */
  memoryQueue: MemoryJobQueue | undefined;
  events: CreationEvents;
  /** What a creation run leaves behind: the tracking claim per run, the lead number per application. */
  creationRecords: CreationRecords;
  creationCredentials: CreationCredentialsStore;
  kycStates: KycStates;
}

/** In Redis when REDIS_URL is set, else in-memory stand-ins (development only). */
function createStores(config: Config, logger: Logger): Stores {
  if (config.REDIS_URL) {
    // Not awaited: with Redis down the web process still listens and answers 503 until it comes.
    const redis = connectRedis(config.REDIS_URL, logger, { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS });
    return {
      redis,
      queue: createBullmqQueue({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS }),
      memoryQueue: undefined,
      events: createRedisCreationEvents({ client: redis, prefix: config.REDIS_PREFIX, timeoutMs: config.REDIS_COMMAND_TIMEOUT_MS }),
      creationRecords: createRedisCreationRecords({ client: redis, prefix: config.REDIS_PREFIX }),
      creationCredentials: createRedisCreationCredentials({ client: redis, prefix: config.REDIS_PREFIX, key: config.jobSecretKey, logger }),
      kycStates: createRedisKycStates({ client: redis, prefix: config.REDIS_PREFIX, logger }),
    };
  }
  const memoryQueue = createMemoryQueue({ logger });
  logger.warn('REDIS_URL not set: in-memory sessions, jobs and events (development only)');
  return {
    redis: undefined,
    queue: memoryQueue,
    memoryQueue,
    events: createMemoryCreationEvents(),
    creationRecords: createMemoryCreationRecords(),
    creationCredentials: createMemoryCreationCredentials({ key: config.jobSecretKey, logger }),
    kycStates: createMemoryKycStates(),
  };
}

/** The worker: the jobs of customer creation and KYC preparation, run from the queue. */
async function startWorker(role: Role, config: Config, logger: Logger, brokerage: BrokerageClient, stores: Stores): Promise<JobRunner> {
  const { queue, memoryQueue, events, creationRecords, creationCredentials, kycStates } = stores;
  const customerCreation = createCustomerCreationJob({
    brokerage,
    credentials: creationCredentials,
    events,
    records: creationRecords,
    queue,
    logger,
    pollIntervalMs: config.CREATION_POLL_MS,
    maxPollingTries: MAX_POLLING_TRIES,
  });
  const customerCreationAbandoned = createCustomerCreationAbandoned({ credentials: creationCredentials, events, records: creationRecords, logger });
  // KYC runs share the credentials store (their run ids are `kyc-N`, apart from the creation runs').
  const kycPreparation = createKycPreparationJob({
    brokerage,
    credentials: creationCredentials,
    states: kycStates,
    queue,
    logger,
    startIntervalMs: config.KYC_START_INTERVAL_MS,
    riskWaitMs: (attempt) => riskPollWaitMs(attempt, { baseMs: config.KYC_RISK_POLL_BASE_MS, stepMs: config.KYC_RISK_POLL_STEP_MS }),
  });
  const kycPreparationAbandoned = createKycPreparationAbandoned({ credentials: creationCredentials, states: kycStates, logger });
  const runner = memoryQueue
    ? memoryQueue.startRunner({ customerCreation, kycPreparation })
    : await startBullmqRunner({
        redisUrl: config.REDIS_URL!,
        prefix: config.REDIS_PREFIX,
        handlers: { customerCreation, customerCreationAbandoned, kycPreparation, kycPreparationAbandoned },
        lockDurationMs: config.WORKER_LOCK_MS,
        concurrency: config.WORKER_CONCURRENCY,
        logger,
      });
  logger.info({ role }, 'worker started');
  return runner;
}

/** The web's Express app with every dependency a route handler may use (server/deps.ts). */
async function createWebApp(
  config: Config,
  logger: Logger,
  upstreams: Upstreams,
  stores: Stores,
  connections: { sse: SseConnections; deadlines: RunningDeadlines },
): Promise<RequestListener> {
  const { redis } = stores;
  const i18n = createI18n(loadCatalogues());
  const manifest = loadManifest(fileURLToPath(new URL('../public/build/manifest.json', import.meta.url)));
  const content = createContentService({
    baseUrl: config.contentServiceUrl,
    timeoutMs: config.CONTENT_TIMEOUT_MS,
    cacheMs: config.CONTENT_CACHE_MS,
    allowedImageOrigins: config.contentImageOrigins,
    logger,
  });
  // Bounded by CONTENT_TIMEOUT_MS and never throws: the first pages get the real background.
  await content.refresh();
  return createApp({
    config,
    logger,
    i18n,
    manifest,
    ...upstreams,
    objectStorage: createObjectStorageClient({ timeoutMs: config.UPSTREAM_TIMEOUT_MS }),
    content,
    queue: stores.queue,
    events: stores.events,
    creationCredentials: stores.creationCredentials,
    kycStates: stores.kycStates,
    ...connections,
    sessionLocks: redis
      ? createRedisSessionLocks({ client: redis, prefix: config.REDIS_PREFIX, timing: { ...DEFAULT_LOCK_TIMING, waitMs: config.SESSION_LOCK_WAIT_MS } })
      : createMemorySessionLocks({ ...DEFAULT_LOCK_TIMING, waitMs: config.SESSION_LOCK_WAIT_MS }),
    bankidStarts: createBankidStartLimiter({
      perIpPerMinute: config.BANKID_STARTS_PER_IP_PER_MINUTE,
      perSessionPerMinute: config.BANKID_STARTS_PER_SESSION_PER_MINUTE,
      prefix: config.REDIS_PREFIX,
      redis,
    }),
    redis,
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  });
}

/** Responses being written, so shutdown can close each connection as soon as its answer is out. */
interface Answering {
  responses: Set<ServerResponse>;
  stopping: boolean;
}

interface Listening {
  server: Server;
  url: string;
}

/** Serves the app on PORT and HOST, keeping `answering` up to date. */
async function listen(app: RequestListener, config: Config, answering: Answering): Promise<Listening> {
  const server = createServer();
  // Before the app, so a response is marked before the app can write it.
  server.on('request', (_req, res: ServerResponse) => {
    // A request on a kept-alive connection while stopping: answer it, then close that connection.
    if (answering.stopping) res.shouldKeepAlive = false;
    answering.responses.add(res);
    res.once('close', () => {
      answering.responses.delete(res);
      // Once its answer is out a connection is idle: while stopping it must not linger for its keep-alive.
      if (answering.stopping) setImmediate(() => server.closeIdleConnections());
    });
  });
  server.on('request', app);
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  return { server, url: config.PUBLIC_URL ?? `http://${config.HOST}:${port}` };
}

/**
 * Stops accepting, tells SSE clients when to come back, closes idle connections at once (and each other
 * one as soon as its answer is out, instead of waiting out its keep-alive), gives requests in flight
 * until their deadline or the shutdown limit, whichever is first, so each still gets its answer (the
 * try-again screen at the latest); lets running jobs finish, then closes Redis.
 */
async function shutDown(parts: {
  config: Config;
  logger: Logger;
  server: Server | undefined;
  answering: Answering;
  sse: SseConnections;
  deadlines: RunningDeadlines;
  runner: JobRunner | undefined;
  stores: Stores;
}): Promise<void> {
  const { config, logger, server, answering, sse, deadlines, runner, stores } = parts;
  answering.stopping = true;
  const closed = server ? new Promise<void>((r) => server.close(() => r())) : Promise.resolve();
  sse.closeAll();
  deadlines.endWithin(requestsGraceMs(config.SHUTDOWN_TIMEOUT_MS));
  for (const res of answering.responses) if (!res.headersSent) res.shouldKeepAlive = false;
  server?.closeIdleConnections();
  await runner?.close();
  await closed;
  await stores.queue.close();
  await stores.events.close();
  // A client still waiting for Redis has nothing to flush: stop its reconnecting.
  if (stores.redis?.isReady) await stores.redis.quit();
  else if (stores.redis?.isOpen) stores.redis.destroy();
  logger.info('stopped');
}

/**
 * How long requests in flight get once shutdown begins: the shutdown limit less a reserve for writing
 * their answers and closing the queue and Redis before the process must exit.
 */
export function requestsGraceMs(shutdownTimeoutMs: number): number {
  return shutdownTimeoutMs - Math.min(2000, Math.floor(shutdownTimeoutMs / 4));
}

/** Runs a role as a process: SIGTERM/SIGINT shut down gracefully within SHUTDOWN_TIMEOUT_MS. */
export async function runProcess(role: Role, env = process.env): Promise<Running> {
  let running: Running;
  let config: Config;
  try {
    config = loadConfig(env);
    running = await start(env, role);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const shutdown = (signal: string) => {
    const timer = setTimeout(() => {
      console.error(`Shutdown after ${signal} took longer than ${config.SHUTDOWN_TIMEOUT_MS} ms; exiting`);
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return running;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const arg = process.argv.slice(2).find((a) => a === 'web' || a === 'worker' || a.startsWith('--role='));
  const role = (arg?.replace('--role=', '') ?? 'all') as Role;
  if (!['web', 'worker', 'all'].includes(role)) {
    console.error(`Unknown role ${role}: use web, worker or all`);
    process.exit(1);
  }
  const running = await runProcess(role);
  if (running.url) console.log(`Onboarding is running at ${running.url}${routes.start}`);
}
