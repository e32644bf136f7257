// Everything a route handler may use, built once by the composition root (server/main.ts) and passed
// down as a plain argument.
import type { Logger } from 'pino';
import type { RedisConnection } from './infra/redis.ts';
import type { Config } from './config.ts';
import type { I18n } from './catalogues.ts';
import type { Manifest } from './render.tsx';
import type { BankidClient } from './upstream/bankidClient.ts';
import type { BrokerageClient } from './upstream/brokerageClient.ts';
import type { ObjectStorageClient } from './upstream/objectStorageClient.ts';
import type { OidcBroker } from './upstream/oidcBrokerClient.ts';
import type { ContentService } from './upstream/contentServiceClient.ts';
import type { SystemStatusCache } from './infra/systemStatusCache.ts';
import type { SharedAnswers } from './infra/sharedAnswersCache.ts';
import type { JobQueue } from './infra/jobQueue.ts';
import type { CreationEvents } from './infra/creationEvents.ts';
import type { CreationCredentialsStore } from './infra/creationCredentials.ts';
import type { LoginHandoffs } from './infra/loginHandoffs.ts';
import type { KycStates } from './infra/kycStates.ts';
import type { SseConnections } from './infra/sseConnections.ts';
import type { RunningDeadlines } from './infra/deadline.ts';
import type { SessionLocks } from './infra/sessionLocks.ts';
import type { BankidStartLimiter } from './infra/rateLimits.ts';
import type { Metrics } from './infra/metrics.ts';
import type { CaseTriggers } from './infra/caseTriggers.ts';
import type { CaseDrafts } from './infra/caseDrafts.ts';
import type { ApplicationRevisions } from './infra/applicationRevisions.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  i18n: I18n;
  manifest: Manifest;
  bankid: BankidClient;
  brokerage: BrokerageClient;
  /** PUT of uploaded files to the pre-signed URLs init-file-upload answers. */
  objectStorage: ObjectStorageClient;
  oidcBroker: OidcBroker;
  content: ContentService;
  /** The brokerage's system status for the page shell's banners, read once per cache time. */
  systemStatus: SystemStatusCache;
  /** Brokerage answers that are the same for everyone (agreement bundles, the questionnaire), kept a short while. */
  sharedAnswers?: SharedAnswers;
  queue: JobQueue;
  events: CreationEvents;
  /** The sealed credentials a creation run hands to the worker (never job data). */
  creationCredentials: CreationCredentialsStore;
  /** A creation run's login hand-off code, which Continue hands to the bank's site. */
  loginHandoffs: LoginHandoffs;
  /**
   * The KYC preparation's latest state per prospect (the step's loader reads it). Its runs are started with
   * server/infra/kycJobs.ts, given `queue` and `creationCredentials`.
   */
  kycStates: KycStates;
  /** OnboardingTriggerCase's once-only state per prospect, across web processes. */
  caseTriggers: CaseTriggers;
  /** The status page's unsent answers per person and task: identifying again (a new session) finds them. */
  caseDrafts: CaseDrafts;
  /** Which browser's copy of a person's application is current: a post from an older copy is refused (customer information). */
  applicationRevisions: ApplicationRevisions;
  sse: SseConnections;
  /** The running requests' deadlines, which graceful shutdown brings forward (server/main.ts). */
  deadlines?: RunningDeadlines;
  /** One request at a time per session where identification state changes. */
  sessionLocks: SessionLocks;
  /** Per-IP and per-session limits on starting BankID orders (shared across web processes in Redis mode). */
  bankidStarts: BankidStartLimiter;
  /** Present in Redis mode: sessions and readiness. */
  redis?: RedisConnection;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** The operators' metrics (server/infra/metrics.ts), when this process serves them (METRICS_PORT). */
  metrics?: Metrics;
}
