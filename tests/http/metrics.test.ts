// What operators see: each process serves Prometheus metrics on a listener of its own (METRICS_PORT, with
// METRICS_TOKEN a Bearer token; server/infra/metrics.ts), never on the app's port, and the worker answers /healthz and
// /readyz there. Separate sandbox, web and worker processes on Redis; a person walks the journey through customer
// creation, then both processes are scraped: that journey's counters moved, and nothing of the person is in either.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { freePort, startRedisStack, type Stack } from '../support/stack.ts';
import { signOverHttp } from '../support/customerInformation.ts';
import { createOwnRedis, type OwnRedis } from '../support/ownRedis.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { productProcessArgs } from '../support/productProcess.ts';
import { callNamer } from '../../server/upstream/http.ts';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { kycPaths } from '../../shared/contracts/kycContract.ts';
import { bearerMatches } from '../../server/infra/metrics.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';

const TOKEN = randomBytes(24).toString('base64url');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A scrape's samples: `name{labels}` (labels as printed, sorted by prom-client) → value. */
type Samples = Map<string, number>;

function samplesOf(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include every one of `labels`. */
function sumOf(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [series, value] of samples) {
    if (series !== name && !series.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) sum += value;
  }
  return sum;
}

/** The values label `label` takes among the samples of `name` with `labels`. */
function labelValues(samples: Samples, name: string, label: string, labels: Record<string, string> = {}): string[] {
  const values = new Set<string>();
  for (const series of samples.keys()) {
    if (!series.startsWith(`${name}{`) || !Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) continue;
    const m = new RegExp(`[{,]${label}="([^"]*)"`).exec(series);
    if (m) values.add(m[1]!);
  }
  return [...values].sort();
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && ok(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

describe('call names (server/upstream/http.ts callNamer)', () => {
  const name = callNamer({ ...kycPaths, ...brokeragePaths });

  it('name a call by its catalogue key, with any id in the places of its arguments', () => {
    expect(name(brokeragePaths.customers)).toBe('customers');
    expect(name(brokeragePaths.initialSteps('p/1 ü'))).toBe('initialSteps');
    expect(name(brokeragePaths.milestoneStep('12345', 'three'))).toBe('milestoneStep');
    expect(name(brokeragePaths.stepRelatedData('abc', 'KYC_STEP'))).toBe('stepRelatedData');
    expect(name(kycPaths.questionnaire(8))).toBe('questionnaire');
  });

  it('name any other path `other`, never the path itself', () => {
    expect(name('/api/2/onboarding/prospects/123')).toBe('other');
    expect(name('/199001011234')).toBe('other');
  });
});

describe('the metrics settings', () => {
  it('refuse the public port as the metrics port', () => {
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(loadConfig({ PORT: '8080', METRICS_PORT: '9091' })).toMatchObject({ METRICS_PORT: 9091, METRICS_HOST: '127.0.0.1' });
    expect(loadConfig({ PORT: '8080' }).METRICS_PORT).toBeUndefined();
    expect(() => loadConfig({ METRICS_PORT: '9091', METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});

describe('the metrics token', () => {
  it('matches only the exact Bearer token', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(bearerMatches('Bearer ', TOKEN)).toBe(false);
  });
});

describe('metrics of a web and a worker process on Redis, after a journey through customer creation', () => {
  let stack: Stack;
  let webMetrics: string;
  let workerMetrics: string;

  beforeAll(async () => {
    const [webPort, workerPort] = await Promise.all([freePort(), freePort()]);
    webMetrics = `http://127.0.0.1:${webPort}`;
    workerMetrics = `http://127.0.0.1:${workerPort}`;
    stack = await startRedisStack({ METRICS_TOKEN: TOKEN }, { web: { METRICS_PORT: String(webPort) }, worker: { METRICS_PORT: String(workerPort) } });
    // The worker has no other listener: its /healthz says it is up.
    await until(
      'the worker listening',
      () => fetch(`${workerMetrics}/healthz`),
      (r) => r.ok,
      120_000,
    );
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('are not served on the app port, and refuse a scrape without the token', async () => {
    await request(stack.webUrl).get('/metrics').expect(404);
    await request(stack.webUrl).get('/metrics').set('authorization', `Bearer ${TOKEN}`).expect(404);
    for (const url of [webMetrics, workerMetrics]) {
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer wrong-${TOKEN}` } })).status).toBe(401);
      expect((await fetch(`${url}/metrics`, { headers: { authorization: TOKEN } })).status).toBe(401);
      expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    }
  });

  it("the web's listener serves the metrics only; the worker's also its health", async () => {
    expect((await fetch(`${webMetrics}/healthz`)).status).toBe(404);
    expect((await fetch(`${webMetrics}/onboarding`)).status).toBe(404);
    const ready = await fetch(`${workerMetrics}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, checks: { redis: true, worker: true } });
  });

  it("count the journey's funnel, BankID result, creation outcome, requests and upstream calls, and nothing of the person", async () => {
    const [web0, worker0] = [samplesOf(await scrape(webMetrics)), samplesOf(await scrape(workerMetrics))];
    const done = { outcome: 'done', market: 'SE', mode: 'web' };

    const { agent, prospectId, persona } = await signOverHttp(stack.webUrl, stack.sandboxUrl, 'onboarding');
    const creation = `/onboarding/customer-creation/${encodeURIComponent(prospectId)}`;
    await agent.get(creation).expect(200);
    const worker1 = samplesOf(
      await until(
        'the creation outcome counted',
        () => scrape(workerMetrics),
        (text) => sumOf(samplesOf(text), 'onboarding_creation_outcomes_total', done) > sumOf(worker0, 'onboarding_creation_outcomes_total', done),
        60_000,
      ),
    );
    await agent.get(creation).expect(200);
    const webText = await scrape(webMetrics);
    const workerText = await scrape(workerMetrics);
    const web1 = samplesOf(webText);
    const moved = (before: Samples, after: Samples, name: string, labels: Record<string, string> = {}) =>
      sumOf(after, name, labels) - sumOf(before, name, labels);

    // The worker: one tracked outcome for the run, its polls' lateness, the queue's depth, its brokerage calls.
    expect(moved(worker0, worker1, 'onboarding_creation_outcomes_total', done)).toBe(1);
    expect(moved(worker0, worker1, 'onboarding_creation_poll_lateness_seconds_count')).toBeGreaterThan(0);
    expect(labelValues(worker1, 'onboarding_queue_jobs', 'state', { queue: 'onboarding-jobs' })).toEqual(['active', 'delayed', 'waiting']);
    expect(moved(worker0, worker1, 'onboarding_upstream_request_duration_seconds_count', { upstream: 'brokerage', call: 'creationStatus' })).toBeGreaterThan(0);

    // The web: the funnel's screens in the market and mode, BankID's result, the routes' requests by pattern.
    const funnel = (step: string, screen: string) => moved(web0, web1, 'onboarding_funnel_screens_total', { step, screen, market: 'SE', mode: 'web' });
    expect(funnel('identification', 'bankidQr')).toBeGreaterThan(0);
    expect(funnel('MILESTONE_THREE_STEP', 'milestone')).toBeGreaterThan(0);
    // The creation page's two GETs, each on the screen of the state it found (queued, or done once published).
    expect(moved(web0, web1, 'onboarding_funnel_screens_total', { step: 'customerCreation', market: 'SE', mode: 'web' })).toBe(2);
    expect(
      labelValues(web1, 'onboarding_funnel_screens_total', 'screen', { step: 'customerCreation' }).every((screen) => ['queued', 'done'].includes(screen)),
    ).toBe(true);
    expect(moved(web0, web1, 'onboarding_bankid_results_total', { outcome: 'complete', hint: 'none' })).toBe(1);
    const requests = (method: string, route: string, statusClass: string) =>
      moved(web0, web1, 'onboarding_http_request_duration_seconds_count', { method, route, status_class: statusClass });
    expect(requests('POST', '/onboarding/customer-type', '3xx')).toBe(1);
    expect(requests('GET', '/onboarding/identification/bankid/status', '2xx')).toBeGreaterThan(0);
    expect(requests('GET', '/onboarding/customer-information/:prospectId', '2xx')).toBeGreaterThan(0);
    expect(requests('POST', '/onboarding/customer-information/:prospectId/step', '3xx')).toBeGreaterThan(0);
    expect(requests('GET', '/onboarding/customer-creation/:prospectId', '2xx')).toBe(2);
    expect(moved(web0, web1, 'onboarding_upstream_request_duration_seconds_count', { upstream: 'bankid', call: 'collect' })).toBeGreaterThan(0);
    expect(moved(web0, web1, 'onboarding_upstream_request_duration_seconds_count', { upstream: 'brokerage', call: 'bankidSession' })).toBe(1);
    // Every brokerage call the journey made has its name (the catalogue covers them all).
    expect(labelValues(web1, 'onboarding_upstream_request_duration_seconds_count', 'call', { upstream: 'brokerage' })).not.toContain('other');
    expect(labelValues(worker1, 'onboarding_upstream_request_duration_seconds_count', 'call', { upstream: 'brokerage' })).not.toContain('other');
    expect(sumOf(web1, 'onboarding_sse_open_streams')).toBe(0);
    // prom-client's process metrics, labelled with the role.
    expect(sumOf(web1, 'process_resident_memory_bytes', { role: 'web' })).toBeGreaterThan(0);
    expect(sumOf(worker1, 'process_resident_memory_bytes', { role: 'worker' })).toBeGreaterThan(0);

    // Nothing of the person: no national id, no prospect id (as sent or URL-encoded), no path with an id.
    for (const text of [webText, workerText]) {
      expect(text).not.toContain(persona.nationalId);
      expect(text).not.toContain(prospectId);
      expect(text).not.toContain(encodeURIComponent(prospectId));
    }
  });
});

describe("the worker's /readyz", () => {
  let redis: OwnRedis;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    redis = await createOwnRedis('metrics-readyz');
    await redis.start();
  });

  afterAll(async () => {
    // Only its answers are under test here, not its shutdown: it is stopped at once.
    if (worker && worker.exitCode === null) await new Promise((r) => worker!.once('exit', r).kill('SIGKILL'));
    await redis.remove();
  }, 60_000);

  it('answers 503 while Redis is unreachable and 200 when it is back', async () => {
    const metricsUrl = `http://127.0.0.1:${await freePort()}`;
    // A worker process alone, as the Procfile runs it, on a Redis of this test's own.
    worker = spawn(process.execPath, productProcessArgs('server', 'worker'), {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        REDIS_URL: redis.url,
        REDIS_PREFIX: `test-metrics-${randomUUID().slice(0, 8)}`,
        SESSION_SECRET: randomUUID() + randomUUID(),
        JOB_SECRET_KEY: randomBytes(32).toString('base64'),
        PUBLIC_URL: 'http://127.0.0.1:1',
        COOKIE_SECURE: 'false',
        METRICS_PORT: new URL(metricsUrl).port,
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const readyz = () => fetch(`${metricsUrl}/readyz`);
    await until('the worker ready', readyz, (r) => r.status === 200, 120_000);
    expect((await fetch(`${metricsUrl}/healthz`)).status).toBe(200);

    await redis.kill();
    const down = await until('readyz failing', readyz, (r) => r.status === 503, 15_000);
    expect(await down.json()).toMatchObject({ ok: false, checks: { redis: false } });
    // Alive all the same.
    expect((await fetch(`${metricsUrl}/healthz`)).status).toBe(200);

    await redis.start();
    await until('readyz ready again', readyz, (r) => r.status === 200, 15_000);
  });
});
