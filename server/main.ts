// Composition root: validates config, builds every dependency once, and starts the web process, the
// worker process, or both (development, in-memory mode). Procfile: `web`, `worker`. Each role imports its own part
// when it starts (the worker no pages or React, the web no jobs), so a process loads only what it runs.
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DestinationStream, Logger } from 'pino';
import { loadConfig, ConfigError, startWarnings, type Config } from './config.ts';
import { createLogger } from './logger.ts';
import { createBankidClient } from './upstream/bankidClient.ts';
import { createBrokerageClient, type BrokerageClient } from './upstream/brokerageClient.ts';
import { createOidcBroker } from './upstream/oidcBrokerClient.ts';
import type { JobRunner } from './infra/jobQueue.ts';
import { createStores, type Stores } from './stores.ts';
import { heldWhileRunLives } from './infra/creationCredentials.ts';
import { createSseConnections, type SseConnections } from './infra/sseConnections.ts';
import { createRunningDeadlines, type RunningDeadlines } from './infra/deadline.ts';
import { createSystemStatusCache } from './infra/systemStatusCache.ts';
import { createSharedAnswers } from './infra/sharedAnswersCache.ts';
import { createMetrics, listenForMetrics, workerReadiness, type Metrics } from './infra/metrics.ts';
import { riskPollWaitMs } from '../shared/kyc.ts';
import { MAX_POLLING_TRIES } from '../shared/creationOutcome.ts';
import { routes } from '../shared/routes.ts';

export type Role = 'web' | 'worker' | 'all';

export interface Running {
  url: string | null;
  /** The metrics listener's URL (METRICS_PORT), else null. */
  metricsUrl: string | null;
  close(): Promise<void>;
}

/** `logDestination` (tests): where log lines go instead of stdout; `now` (tests): the web's clock, else the system's. */
export async function start(
  env: Record<string, string | undefined>,
  role: Role,
  options: { logDestination?: DestinationStream; now?: () => number } = {},
): Promise<Running> {
  const config = loadConfig(env);
  const logger = createLogger({ level: config.LOG_LEVEL, name: role === 'all' ? 'onboarding' : `onboarding-${role}` }, options.logDestination);
  // Only a process that serves its metrics measures (METRICS_PORT): without a listener nobody would read them.
  const metrics = config.METRICS_PORT === undefined ? undefined : createMetrics({ role });
  const upstreams = createUpstreams(config, role, metrics);
  const stores = createStores(config, logger);
  const runner = role === 'worker' || role === 'all' ? await startWorker(role, config, logger, upstreams.brokerage, stores, metrics) : undefined;

  const sse = createSseConnections({ heartbeatMs: config.SSE_HEARTBEAT_MS });
  const deadlines = createRunningDeadlines();
  const answering: Answering = { responses: new Set(), stopping: false };
  let web: Listening | undefined;
  if (role === 'web' || role === 'all') {
    metrics?.watchSseStreams(sse);
    const app = await createWebApp(config, logger, upstreams, stores, { sse, deadlines }, options.now ?? Date.now, metrics);
    web = await listen(app, config, answering, metrics);
    // With PORT=0 (tests) the real port is known only now; signing return URLs need it.
    config.publicUrl = web.url.replace(/\/$/, '');
    logger.info({ url: web.url }, 'web started');
    for (const warning of startWarnings(config)) logger.warn({ setting: 'COOKIE_SECURE' }, warning);
    // What the first answers did not need (BullMQ) loads once they are out, not on a person's click.
    if (stores.warmUp) setTimeout(() => void stores.warmUp?.().catch((err: unknown) => logger.warn({ err }, 'warm-up failed')), WARM_UP_AFTER_MS).unref();
  }
  const metricsListener = metrics
    ? await listenForMetrics(metricsListenerOptions(config, metrics, role === 'worker' ? { runner, stores } : undefined))
    : undefined;
  if (metricsListener) logger.info({ url: metricsListener.url }, 'metrics listening');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= shutDown({ config, logger, server: web?.server, metricsServer: metricsListener?.server, answering, sse, deadlines, runner, stores }));
  return { url: web?.url ?? null, metricsUrl: metricsListener?.url ?? null, close };
}

/** The metrics listener (METRICS_PORT, METRICS_HOST, METRICS_TOKEN); a worker has no other, so its health is there too. */
function metricsListenerOptions(config: Config, metrics: Metrics, worker: { runner: JobRunner | undefined; stores: Stores } | undefined) {
  return {
    registry: metrics.registry,
    port: config.METRICS_PORT!,
    host: config.METRICS_HOST,
    token: config.METRICS_TOKEN,
    health: worker ? { ready: workerReadiness(worker.stores.redis, worker.runner) } : undefined,
  };
}

/** The upstream clients the web and the worker share; each call's time and status go to the metrics. */
function createUpstreams(config: Config, role: Role, metrics: Metrics | undefined) {
  const observe = metrics?.upstreamCall;
  return {
    bankid: createBankidClient({
      baseUrl: config.BANKID_API_URL,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      tls: config.BANKID_CERT_PATH ? { certPath: config.BANKID_CERT_PATH, keyPath: config.BANKID_KEY_PATH!, caPath: config.BANKID_CA_PATH! } : undefined,
      observe,
    }),
    brokerage: createBrokerageClient({
      baseUrl: config.BROKERAGE_API_URL,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      // A worker's thousands of polls a second go over a bounded pool (server/upstream/http.ts); the web's calls as they come.
      connections: role === 'worker' ? config.WORKER_BROKERAGE_CONNECTIONS : undefined,
      observe,
    }),
    oidcBroker: createOidcBroker({
      issuerUrl: config.OIDC_ISSUER_URL,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      observe,
    }),
  };
}
type Upstreams = ReturnType<typeof createUpstreams>;

/** How long after listening a web process loads what its first answers did not need. */
const WARM_UP_AFTER_MS = 1000;

/** The worker: the jobs of customer creation and KYC preparation, run from the queue. */
async function startWorker(
  role: Role,
  config: Config,
  logger: Logger,
  brokerage: BrokerageClient,
  stores: Stores,
  metrics: Metrics | undefined,
): Promise<JobRunner> {
  const [{ createCustomerCreationAbandoned, createCustomerCreationJob }, { createKycPreparationAbandoned, createKycPreparationJob }, { startBullmqRunner }] =
    await Promise.all([import('../workers/customerCreationJob.ts'), import('../workers/kycPreparationJob.ts'), import('./infra/jobQueue.ts')]);
  const { queue, memoryQueue, events, afterCreationRecords, creationCredentials, loginHandoffs, kycStates } = stores;
  const creationMetrics = metrics && { pollLateness: metrics.creationPollLateness, outcomeTracked: metrics.creationOutcome };
  // Queue depth is the worker's to report: it is what more workers would drain.
  if (metrics && queue.depth) metrics.watchQueue(queue.depth.queue, queue.depth.counts);
  // A creation run's credentials are opened once and held while the run lives, not read and opened again by every
  // poll: the web hands them over once per run. (A KYC run's are handed over again for its risk phase, so KYC reads
  // the store each time.)
  const creationRunCredentials = heldWhileRunLives(creationCredentials);
  const customerCreation = createCustomerCreationJob({
    brokerage,
    credentials: creationRunCredentials,
    events,
    records: afterCreationRecords,
    loginHandoffs,
    queue,
    logger,
    pollIntervalMs: config.CREATION_POLL_MS,
    maxPollingTries: MAX_POLLING_TRIES,
    metrics: creationMetrics,
    // As the pages share theirs (SYSTEM_STATUS_CACHE_MS), yet never older than one poll interval when a poll decides.
    systemStatusShareMs: Math.min(config.SYSTEM_STATUS_CACHE_MS, config.CREATION_POLL_MS),
  });
  const customerCreationAbandoned = createCustomerCreationAbandoned({
    credentials: creationRunCredentials,
    events,
    records: afterCreationRecords,
    logger,
    metrics: creationMetrics,
  });
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
        cluster: config.REDIS_CLUSTER,
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
  now: () => number,
  metrics: Metrics | undefined,
): Promise<RequestListener> {
  const [
    { createApp },
    { createI18n, loadCatalogues },
    { loadManifest },
    { createContentService },
    { createObjectStorageClient },
    { createMemorySessionLocks, createRedisSessionLocks, DEFAULT_LOCK_TIMING },
    { createMemoryCaseTriggers, createRedisCaseTriggers },
    { createBankidStartLimiter },
  ] = await Promise.all([
    import('./app.ts'),
    import('./catalogues.ts'),
    import('./render.tsx'),
    import('./upstream/contentServiceClient.ts'),
    import('./upstream/objectStorageClient.ts'),
    import('./infra/sessionLocks.ts'),
    import('./infra/caseTriggers.ts'),
    import('./infra/rateLimits.ts'),
  ]);
  const { redis } = stores;
  const i18n = createI18n(loadCatalogues());
  const manifest = loadManifest(fileURLToPath(new URL('../public/build/manifest.json', import.meta.url)));
  const content = createContentService({
    baseUrl: config.contentServiceUrl,
    timeoutMs: config.CONTENT_TIMEOUT_MS,
    cacheMs: config.CONTENT_CACHE_MS,
    allowedImageOrigins: config.contentImageOrigins,
    logger,
    observe: metrics?.upstreamCall,
  });
  // Bounded by CONTENT_TIMEOUT_MS and never throws: the first pages get the real background.
  await content.refresh();
  return createApp({
    config,
    logger,
    i18n,
    manifest,
    ...upstreams,
    objectStorage: createObjectStorageClient({ timeoutMs: config.UPSTREAM_TIMEOUT_MS, observe: metrics?.upstreamCall }),
    content,
    systemStatus: createSystemStatusCache({
      fetch: () => upstreams.brokerage.systemStatus(),
      ttlMs: config.SYSTEM_STATUS_CACHE_MS,
      timeoutMs: config.SYSTEM_STATUS_TIMEOUT_MS,
      logger,
    }),
    sharedAnswers: createSharedAnswers({ ttlMs: config.SHARED_ANSWERS_CACHE_MS }),
    queue: stores.queue,
    events: stores.events,
    creationCredentials: stores.creationCredentials,
    loginHandoffs: stores.loginHandoffs,
    kycStates: stores.kycStates,
    caseDrafts: stores.caseDrafts,
    applicationRevisions: stores.applicationRevisions,
    caseTriggers: redis ? createRedisCaseTriggers({ client: redis, prefix: config.REDIS_PREFIX }) : createMemoryCaseTriggers(),
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
    now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    metrics,
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

/** Serves the app on PORT and HOST, keeping `answering` up to date (and timing each request for the metrics). */
async function listen(app: RequestListener, config: Config, answering: Answering, metrics: Metrics | undefined): Promise<Listening> {
  const server = createServer();
  if (metrics) server.on('request', metrics.requestStarted);
  // One listener for every answer (`this` is the answer): an open event stream keeps no closure of its own for it.
  function answered(this: ServerResponse) {
    answering.responses.delete(this);
    // Once its answer is out a connection is idle: while stopping it must not linger for its keep-alive.
    if (answering.stopping) setImmediate(() => server.closeIdleConnections());
  }
  // Before the app, so a response is marked before the app can write it.
  server.on('request', (_req, res: ServerResponse) => {
    // A request on a kept-alive connection while stopping: answer it, then close that connection.
    if (answering.stopping) res.shouldKeepAlive = false;
    answering.responses.add(res);
    // `on`, not `once`: 'close' comes once, and `once` wraps the listener anew for every request.
    res.on('close', answered);
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
  metricsServer: Server | undefined;
  answering: Answering;
  sse: SseConnections;
  deadlines: RunningDeadlines;
  runner: JobRunner | undefined;
  stores: Stores;
}): Promise<void> {
  const { config, logger, server, metricsServer, answering, sse, deadlines, runner, stores } = parts;
  answering.stopping = true;
  const closed = server ? new Promise<void>((r) => server.close(() => r())) : Promise.resolve();
  // A scrape is short: the metrics listener closes with the rest, its kept-alive scraper connections at once.
  const metricsClosed = metricsServer ? new Promise<void>((r) => metricsServer.close(() => r())) : Promise.resolve();
  metricsServer?.closeIdleConnections();
  sse.closeAll();
  deadlines.endWithin(requestsGraceMs(config.SHUTDOWN_TIMEOUT_MS));
  for (const res of answering.responses) if (!res.headersSent) res.shouldKeepAlive = false;
  server?.closeIdleConnections();
  await runner?.close();
  await closed;
  await metricsClosed;
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
