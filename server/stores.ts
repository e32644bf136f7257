// What the web and the worker keep between requests, in Redis when REDIS_URL is set, else in-memory stand-ins
// (development only). Built once by the composition root (server/main.ts).
import type { RedisConnection } from './infra/redis.ts';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { connectRedis } from './infra/redis.ts';
import { connectRedisCluster } from './infra/redisCluster.ts';
import { createBullmqQueue, createMemoryQueue, type JobQueue, type MemoryJobQueue } from './infra/jobQueue.ts';
import { createMemoryCreationEvents, createRedisCreationEvents, type CreationEvents } from './infra/creationEvents.ts';
import { createMemoryCreationCredentials, createRedisCreationCredentials, type CreationCredentialsStore } from './infra/creationCredentials.ts';
import { createMemoryAfterCreationRecords, createRedisAfterCreationRecords, type AfterCreationRecords } from './infra/afterCreationRecords.ts';
import { createMemoryLoginHandoffs, createRedisLoginHandoffs, type LoginHandoffs } from './infra/loginHandoffs.ts';
import { createMemoryKycStates, createRedisKycStates, type KycStates } from './infra/kycStates.ts';
import { createMemoryCaseDrafts, createRedisCaseDrafts, type CaseDrafts } from './infra/caseDrafts.ts';
import { createMemoryApplicationRevisions, createRedisApplicationRevisions, type ApplicationRevisions } from './infra/applicationRevisions.ts';

/** What the web and the worker keep between requests: sessions' Redis, the job queue, creation events and records, credentials, KYC states. */
export interface Stores {
  redis: RedisConnection | undefined;
  queue: JobQueue;
  /** Without Redis: the in-process queue, which also runs the jobs. */
  memoryQueue: MemoryJobQueue | undefined;
  events: CreationEvents;
  /** What a creation run leaves behind: the tracking claim per run, the lead number per application. */
  afterCreationRecords: AfterCreationRecords;
  creationCredentials: CreationCredentialsStore;
  /** A creation run's login hand-off code: the worker keeps it, Continue hands it to the bank's site. */
  loginHandoffs: LoginHandoffs;
  kycStates: KycStates;
  /** The status page's unsent answers per person and task, kept across sessions. */
  caseDrafts: CaseDrafts;
  /** Which browser's copy of an application is current (each change records a revision per prospect). */
  applicationRevisions: ApplicationRevisions;
  /** Loads what the stores load on first use (the BullMQ queue of a web process). */
  warmUp?: () => Promise<void>;
}

/** In Redis when REDIS_URL is set, else in-memory stand-ins (development only). */
export function createStores(config: Config, logger: Logger): Stores {
  if (config.REDIS_URL && config.redis) {
    // Not awaited: with Redis down the web process still listens and answers 503 until it comes.
    const connecting = { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS };
    const redis = config.redis.cluster ? connectRedisCluster(config.redis.seeds, logger, connecting) : connectRedis(config.redis.url, logger, connecting);
    const queue = createBullmqQueue({
      redisUrl: config.REDIS_URL,
      cluster: config.REDIS_CLUSTER,
      prefix: config.REDIS_PREFIX,
      commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    });
    return {
      redis,
      queue,
      warmUp: () => queue.warmUp(),
      memoryQueue: undefined,
      events: createRedisCreationEvents({ client: redis, prefix: config.REDIS_PREFIX, timeoutMs: config.REDIS_COMMAND_TIMEOUT_MS }),
      afterCreationRecords: createRedisAfterCreationRecords({ client: redis, prefix: config.REDIS_PREFIX }),
      creationCredentials: createRedisCreationCredentials({ client: redis, prefix: config.REDIS_PREFIX, key: config.jobSecretKey, logger }),
      loginHandoffs: createRedisLoginHandoffs({ client: redis, prefix: config.REDIS_PREFIX, key: config.jobSecretKey, logger }),
      kycStates: createRedisKycStates({ client: redis, prefix: config.REDIS_PREFIX, logger }),
      caseDrafts: createRedisCaseDrafts({ client: redis, prefix: config.REDIS_PREFIX, key: config.jobSecretKey, logger }),
      applicationRevisions: createRedisApplicationRevisions({ client: redis, prefix: config.REDIS_PREFIX }),
    };
  }
  const memoryQueue = createMemoryQueue({ logger });
  logger.warn('REDIS_URL not set: in-memory sessions, jobs and events (development only)');
  return {
    redis: undefined,
    queue: memoryQueue,
    memoryQueue,
    events: createMemoryCreationEvents(),
    afterCreationRecords: createMemoryAfterCreationRecords(),
    creationCredentials: createMemoryCreationCredentials({ key: config.jobSecretKey, logger }),
    loginHandoffs: createMemoryLoginHandoffs({ key: config.jobSecretKey, logger }),
    kycStates: createMemoryKycStates(),
    caseDrafts: createMemoryCaseDrafts({ key: config.jobSecretKey, logger }),
    applicationRevisions: createMemoryApplicationRevisions(),
  };
}
