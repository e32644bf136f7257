// What operators see: one Prometheus registry per process and its instruments, built once by server/main.ts and
// handed to what it measures; and the listener that serves it apart from the public app (METRICS_PORT; with
// METRICS_TOKEN a Bearer token), where the worker also answers /healthz and /readyz. Labels carry only names from this
// code and bounded values (market, mode, outcome, a route pattern, a call name), never an id, a path as sent, or
// anything personal: a label value is kept for the process's life, an unbounded one would grow the registry forever.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RedisConnection } from './redis.ts';
import type { JobRunner } from './jobQueue.ts';
import { failedHintCodes } from '../../shared/contracts/bankidContract.ts';

/** The role of the process, a default label of every series (dashboards tell web from worker by it). */
export type MetricsRole = 'web' | 'worker' | 'all';

/** One finished upstream call (server/upstream/http.ts): its client, its call name, how long, how it ended. */
export interface UpstreamCallObservation {
  upstream: string;
  call: string;
  seconds: number;
  /** The HTTP status answered; 0 when none came (unreachable, timed out, the request's deadline passed). */
  status: number;
}
export type UpstreamObserver = (call: UpstreamCallObservation) => void;

/** Counts per job state, read from the queue at scrape time. */
export type QueueCounts = Partial<Record<QueueState, number>>;
const queueStates = ['waiting', 'delayed', 'active'] as const;
type QueueState = (typeof queueStates)[number];

const markets = new Set(['SE', 'NO', 'DK', 'FI']);
/** A market label: one of the four, else `unknown` (a run whose job data predates it). */
export const marketLabel = (market: string | null | undefined): string => (market && markets.has(market) ? market : 'unknown');

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
/** The request's method as sent is any token the client likes: only the usual ones become a label. */
const methodLabel = (method: string | undefined): string => (method && methods.has(method) ? method : 'other');
const statusClass = (status: number): string => (status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'none');

/** BankID's failed hint codes (RP API v6.0); any other becomes `other`. */
const bankidHints = new Set<string>(failedHintCodes);
/** How a BankID order ended at collect: complete, failed (with its hint code), the collect call failed, or completed on another device's address. */
export type BankidResult = 'complete' | 'failed' | 'collectError' | 'ipMismatch';
/**
 * How an identification through the OIDC broker ended: complete (a brokerage session), cancelled (the broker answered
 * access_denied), brokerError (another error from the broker), tokenFailed (the code exchange or the ID token),
 * sessionFailed (the brokerage session), startFailed (the authorization request could not be made).
 */
export type OidcResult = 'complete' | 'cancelled' | 'brokerError' | 'tokenFailed' | 'sessionFailed' | 'startFailed';

const SECOND_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LATENESS_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30];

/** The label values of a page reached in the journey (the funnel): its step and screen, the market and mode. */
export interface FunnelScreen {
  step: string;
  screen: string;
  market: string | null | undefined;
  webview: boolean;
}

/** Queue depth is read at most once per this long: a scrape every few seconds costs one Redis round trip, not one per state. */
export const QUEUE_COUNTS_CACHE_MS = 5000;

export interface Metrics {
  registry: Registry;
  /** A `request` listener of the web's server: times the request until its answer is done (server/main.ts). */
  requestStarted(req: IncomingMessage, res: ServerResponse): void;
  /** The open SSE streams are read from this at scrape time (server/infra/sseConnections.ts). */
  watchSseStreams(open: { readonly size: number }): void;
  /** The queue's job counts are read from this at scrape time, at most once per QUEUE_COUNTS_CACHE_MS. */
  watchQueue(queue: string, counts: () => Promise<QueueCounts>): void;
  upstreamCall: UpstreamObserver;
  /** A BankID order's collect ended (complete, failed with `hintCode`, or the collect call failed). */
  bankidResult(result: BankidResult, hintCode?: string): void;
  oidcResult(result: OidcResult, market: string | null | undefined): void;
  funnelScreen(screen: FunnelScreen): void;
  /** How late a creation poll ran after its due time on the run's grid (workers/customerCreationJob.ts). */
  creationPollLateness(ms: number): void;
  /** A creation run's tracked outcome (workers/afterCreation.ts trackCreationOutcome). */
  creationOutcome(event: { outcome: string; market: string | null; mode: 'web' | 'webview' }): void;
}

/** The histograms and counters the process updates as things happen (the gauges read their values at scrape time). */
function counters(registers: Registry[]) {
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram<L>({ name, help, labelNames, buckets, registers });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Counter<L>({ name, help, labelNames, registers });
  return {
    requestDuration: histogram(
      'onboarding_http_request_duration_seconds',
      'Time from a request to its answer being done, by method, route pattern (other when none matched) and status class',
      ['method', 'route', 'status_class'],
      SECOND_BUCKETS,
    ),
    upstreamDuration: histogram(
      'onboarding_upstream_request_duration_seconds',
      'Upstream call time by upstream and call name (a name of ours, never the URL)',
      ['upstream', 'call'],
      SECOND_BUCKETS,
    ),
    upstreamErrors: counter(
      'onboarding_upstream_errors_total',
      'Upstream calls that failed, by upstream, call name and kind: unreachable (no answer, timeout, deadline), 5xx, 4xx',
      ['upstream', 'call', 'kind'],
    ),
    bankidResults: counter('onboarding_bankid_results_total', 'BankID orders ended at collect, by outcome and the failed hint code (none unless failed)', [
      'outcome',
      'hint',
    ]),
    oidcResults: counter('onboarding_oidc_results_total', 'Identifications through the OIDC broker, by outcome and market', ['outcome', 'market']),
    funnel: counter('onboarding_funnel_screens_total', 'Journey screens rendered by a GET, by step, screen, market and mode (web or the app webview)', [
      'step',
      'screen',
      'market',
      'mode',
    ]),
    pollLateness: histogram(
      'onboarding_creation_poll_lateness_seconds',
      'How late each customer-creation poll ran after its due time on the run grid',
      [],
      LATENESS_BUCKETS,
    ),
    creationOutcomes: counter('onboarding_creation_outcomes_total', 'Customer-creation runs ended, by tracked outcome, market and mode', [
      'outcome',
      'market',
      'mode',
    ]),
  };
}

/** The registry and every instrument. `defaultMetrics`: prom-client's process metrics (CPU, memory, event loop) too. */
export function createMetrics(options: { role: MetricsRole; defaultMetrics?: boolean; now?: () => number }): Metrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  registry.setDefaultLabels({ role: options.role });
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const { requestDuration, upstreamDuration, upstreamErrors, bankidResults, oidcResults, funnel, pollLateness, creationOutcomes } = counters(registers);

  let sse: { readonly size: number } | undefined;
  new Gauge({
    name: 'onboarding_sse_open_streams',
    help: 'Creation event streams open in this process',
    registers,
    collect() {
      this.set(sse?.size ?? 0);
    },
  });

  const queues = new Map<string, () => Promise<QueueCounts>>();
  const cached = new Map<string, { at: number; counts: Promise<QueueCounts> }>();
  new Gauge({
    name: 'onboarding_queue_jobs',
    help: 'Jobs in the queue by state (waiting, delayed, active), read at scrape time with a short cache',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      for (const [queue, read] of queues) {
        let entry = cached.get(queue);
        if (!entry || now() - entry.at >= QUEUE_COUNTS_CACHE_MS) {
          // A failed read (Redis away) leaves the series out of this scrape rather than failing the whole scrape.
          entry = { at: now(), counts: read().catch(() => ({})) };
          cached.set(queue, entry);
        }
        const counts = await entry.counts;
        for (const state of queueStates) {
          const n = counts[state];
          if (n === undefined) this.remove({ queue, state });
          else this.set({ queue, state }, n);
        }
      }
    },
  });

  const started = new WeakMap<ServerResponse, number>();
  // One listener for every answer (`this` is the answer), so a request costs no closure of its own.
  function requestDone(this: ServerResponse) {
    const t0 = started.get(this);
    if (t0 === undefined) return;
    const req = this.req as IncomingMessage & { route?: { path?: unknown } };
    // Express's matched route pattern (shared/routes.ts routePatterns): never the path as sent, which carries ids.
    const route = typeof req.route?.path === 'string' ? req.route.path : 'other';
    requestDuration.observe({ method: methodLabel(req.method), route, status_class: statusClass(this.statusCode) }, (performance.now() - t0) / 1000);
  }

  return {
    registry,
    requestStarted(_req, res) {
      started.set(res, performance.now());
      // `on`, not `once`: 'close' comes once, and `once` would wrap the listener in a closure per request.
      res.on('close', requestDone);
    },
    watchSseStreams(open) {
      sse = open;
    },
    watchQueue(queue, counts) {
      queues.set(queue, counts);
    },
    upstreamCall({ upstream, call, seconds, status }) {
      upstreamDuration.observe({ upstream, call }, seconds);
      const kind = status === 0 ? 'unreachable' : status >= 500 ? '5xx' : status >= 400 ? '4xx' : null;
      if (kind) upstreamErrors.inc({ upstream, call, kind });
    },
    bankidResult(result, hintCode) {
      const hint = result !== 'failed' ? 'none' : hintCode && bankidHints.has(hintCode) ? hintCode : 'other';
      bankidResults.inc({ outcome: result, hint });
    },
    oidcResult(result, market) {
      oidcResults.inc({ outcome: result, market: marketLabel(market) });
    },
    funnelScreen({ step, screen, market, webview }) {
      funnel.inc({ step, screen, market: marketLabel(market), mode: webview ? 'webview' : 'web' });
    },
    creationPollLateness(ms) {
      pollLateness.observe(Math.max(0, ms) / 1000);
    },
    creationOutcome({ outcome, market, mode }) {
      creationOutcomes.inc({ outcome, market: marketLabel(market), mode });
    },
  };
}

/** The worker's readiness (its /readyz on the metrics listener): Redis answers its PING, and its BullMQ worker runs. */
export function workerReadiness(redis: RedisConnection | undefined, runner: JobRunner | undefined) {
  return async () => {
    const redisUp = redis
      ? await redis.ping().then(
          (pong) => pong === 'PONG',
          () => false,
        )
      : true;
    const jobs = runner?.running() ?? false;
    return { ok: redisUp && jobs, checks: { redis: redisUp, worker: jobs } };
  };
}

/** Whether `header` is `Bearer <token>`, compared in constant time (digests of equal length, whatever was sent). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}

export interface MetricsListenerOptions {
  registry: Registry;
  port: number;
  host: string;
  /** When set, /metrics answers only `Authorization: Bearer <token>` (401 otherwise). */
  token?: string;
  /**
   * The worker's health on this listener (it has no other): /healthz while the process lives, /readyz from `ready`.
   * The web leaves it out: its /healthz and /readyz are on the app's port.
   */
  health?: { ready(): Promise<{ ok: boolean; checks: Record<string, boolean> }> };
}

/** The metrics listener: /metrics (and the worker's health), nothing else; never the app's port. Answers its URL. */
export async function listenForMetrics(options: MetricsListenerOptions): Promise<{ server: Server; url: string }> {
  const { registry, token, health } = options;
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'Method not allowed' });
    if (path === '/metrics') {
      if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
        return res.writeHead(401, { 'www-authenticate': 'Bearer', 'cache-control': 'no-store' }).end();
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
        () => json(res, 500, { error: 'metrics unavailable' }),
      );
      return;
    }
    if (health && path === '/healthz') return json(res, 200, { ok: true });
    if (health && path === '/readyz') {
      health.ready().then(
        (r) => json(res, r.ok ? 200 : 503, r),
        () => json(res, 503, { ok: false }),
      );
      return;
    }
    json(res, 404, { error: 'Not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}` };
}
