// The service scales out on a Redis Cluster: a real three-node cluster of the test's own, two web processes and two
// workers on it: a person signs on one web process, the creation page on the other starts the run, the workers share its
// polls, the outcome reaches the person over the first one's event stream, and the customer is created once. Also: the
// keys that must be together share a slot, asked of the cluster itself; and the cluster connection keeps the single
// node's guarantees (a stalled node's commands fail in time, nothing waits for a cluster that is not there).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createClient } from 'redis';
import pino from 'pino';
import { isRedisUnavailable, type RedisConnection } from '../../server/infra/redis.ts';
import { connectRedisCluster } from '../../server/infra/redisCluster.ts';
import { freePort } from '../support/productEnv.ts';
import { startRedisStack, type Stack } from '../support/stack.ts';
import { createOwnRedisCluster, type OwnRedisCluster } from '../support/ownRedisCluster.ts';
import { signOverHttp } from '../support/customerInformation.ts';
import { openStream } from '../support/sse.ts';
import { bullmqJobKey, creationEventKeys, sessionKey, sessionLockKey, until } from '../support/redisKeys.ts';
import { parseCreationView } from '../../shared/creationView.ts';

const PREFIX = `test-cluster-${randomUUID().slice(0, 8)}`;
const SUCCESS_URL_SE = 'https://se.bank.example/welcome';
/** The bank's site the success URL is on: Continue hands the login over at its hand-off address. */
const BANK_SITE_URL = 'https://se.bank.example';
let cluster: OwnRedisCluster | undefined;
let stack: Stack | undefined;
let webs: string[] = [];

beforeAll(async () => {
  cluster = await createOwnRedisCluster('journey-cluster');
  stack = await startRedisStack({
    REDIS_URL: cluster.seeds,
    REDIS_CLUSTER: 'true',
    REDIS_PREFIX: PREFIX,
    SUCCESS_URL_SE,
    BANK_SITE_URL,
    BANK_SITE_HANDOFF_PATH: '/login/handoff',
  });
  const [secondWeb] = await Promise.all([stack.startExtraWeb(), stack.startExtraWorker()]);
  webs = [stack.webUrl, secondWeb];
  // Ready: connected to every primary of the cluster.
  const ready = async (url: string) => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200;
  await until(async () => (await Promise.all(webs.map(ready))).every(Boolean), 60_000);
}, 120_000);

afterAll(async () => {
  // Processes first (they would reconnect to a cluster that is gone), then the cluster's nodes and data.
  await stack?.stop();
  await cluster?.remove();
}, 60_000);

/** The session cookie the first web process set, as a Cookie header any web process takes. */
function sessionCookie(agent: ReturnType<typeof request.agent>): string {
  const value = agent.jar.getCookie('onb.sid', { domain: '127.0.0.1', path: '/', secure: false, script: false })?.value;
  expect(value, 'a session cookie').toBeDefined();
  return `onb.sid=${value}`;
}

/** The worker processes' log lines (both append to the stack's one worker log) with message `msg`. */
function workerLog(msg: string): Array<Record<string, unknown>> {
  return readFileSync(`test-results/worker-${new URL(stack!.webUrl).port}.log`, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg && String(l.name).endsWith('worker'));
}

describe('a journey on a three-node Redis Cluster with two web processes and two workers', () => {
  it('creates the customer once, and the outcome reaches the person across web processes', async () => {
    const [first, second] = webs as [string, string];
    const { agent, prospectId } = await signOverHttp(first, stack!.sandboxUrl, 'onboarding');
    const cookie = sessionCookie(agent);
    const creation = `/onboarding/customer-creation/${encodeURIComponent(prospectId)}`;

    // The second web process reads the session the first one stored, and its creation page starts the run.
    await request(second).get(creation).set('cookie', cookie).expect(200);
    // The first one streams the outcome the workers publish (on whichever node the run's keys live).
    const stream = await openStream(first, `${creation}/events`, { cookie });
    expect(stream.status).toBe(200);
    const outcomes = () =>
      stream
        .messages()
        .filter((m) => m.event === 'creation')
        .map((m) => parseCreationView(m.data ?? '')?.outcome);
    await stream.waitFor(() => outcomes().includes('done'), 60_000);
    stream.close();

    // Both web processes show it; Continue finds the login session the worker made.
    expect((await request(second).get(creation).set('cookie', cookie).expect(200)).text).toContain('Agreements signed');
    expect((await agent.get(creation).expect(200)).text).toContain('Agreements signed');
    const continued = new URL(
      (await agent.post(`${creation}/continue`).set('sec-fetch-site', 'same-origin').type('form').send('').expect(303)).headers.location as string,
    );
    expect(`${continued.origin}${continued.pathname}?returnTo=${continued.searchParams.get('returnTo')}`).toBe(
      `${BANK_SITE_URL}/login/handoff?returnTo=/welcome`,
    );
    expect(continued.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{32,}$/);

    // Once: one customer-creation call, one login session, one tracking event, one final event.
    const customers = (await request(stack!.sandboxUrl).get('/sandbox/customers').query({ prospectId }).expect(200)).body as { createCustomer: number[] };
    expect(customers.createCustomer).toHaveLength(1);
    const after = (await request(stack!.sandboxUrl).get('/sandbox/after-creation').query({ prospectId }).expect(200)).body as { loginSessions: number };
    expect(after.loginSessions).toBe(1);
    expect(workerLog('creation outcome tracked')).toHaveLength(1);
    expect(outcomes().filter((o) => o === 'done')).toHaveLength(1);
    // Two workers served the queue on the cluster (each logs its start once its BullMQ worker is ready there).
    expect(new Set(workerLog('worker started').map((l) => l.pid)).size).toBe(2);
  }, 120_000);

  it('keeps what must be together in one hash slot (CLUSTER KEYSLOT)', async () => {
    const node = createClient({ url: cluster!.urls[0] });
    node.on('error', () => {});
    await node.connect();
    try {
      const slot = async (key: string) => Number(await node.sendCommand(['CLUSTER', 'KEYSLOT', key]));
      const slots = async (keys: string[]) => new Set(await Promise.all(keys.map(slot)));
      // A session and its lock, for sessions that land in different slots.
      const sids = ['aZ3-xq_81', 'Q9fk2LmN0', 'mh-00_ZZz'];
      for (const sid of sids) expect(await slots([sessionKey(PREFIX, sid), sessionLockKey(PREFIX, sid)])).toHaveProperty('size', 1);
      expect(await slots(sids.map((sid) => sessionKey(PREFIX, sid)))).not.toHaveProperty('size', 1);
      // Every key BullMQ's scripts touch for the app's queue: its lists, sets, counters and each job's hash.
      const queueKeys = ['wait', 'active', 'delayed', 'prioritized', 'completed', 'failed', 'stalled', 'stalled-check', 'id', 'meta', 'events', 'marker'];
      const jobs = ['creation-p-1-r1-poll-3', 'kyc-p-2-kyc-1-start-1'];
      expect(await slots([...queueKeys, ...jobs, ...jobs.map((j) => `${j}:lock`)].map((k) => bullmqJobKey(PREFIX, k)))).toHaveProperty('size', 1);
      // The creation publish script names one key (its event number comes from the latest event).
      expect(creationEventKeys(PREFIX, 'p-1').latest).toBe(`${PREFIX}:creation:p-1:latest`);
    } finally {
      node.destroy();
    }
  });

  it('bounds a command on a stalled node (unavailable, in time), serves the other nodes meanwhile and the node once it resumes', async () => {
    const connection = connectRedisCluster(cluster!.seeds.split(','), pino({ level: 'silent' }), { commandTimeoutMs: 300 });
    const node = createClient({ url: cluster!.urls[0] });
    node.on('error', () => {});
    await node.connect();
    try {
      await until(() => connection.isReady, 10_000);
      // A key the first node serves, and one another node does (the first answers MOVED for it).
      const servedBy = async (key: string) =>
        node.get(key).then(
          () => 'first',
          (err: Error) => (/^MOVED/.test(err.message) ? 'other' : 'first'),
        );
      const keys = Array.from({ length: 50 }, (_, i) => `${PREFIX}:stall:${i}`);
      const served = await Promise.all(keys.map(servedBy));
      const [onFirst, onOther] = [keys[served.indexOf('first')]!, keys[served.indexOf('other')]!];
      await connection.set(onFirst, 'a');
      await connection.eval("return redis.call('get', KEYS[1])", { keys: [onOther], arguments: [] });
      cluster!.processes[0]!.kill('SIGSTOP');
      try {
        const stalled = await connection.get(onFirst).then(
          () => null,
          (err: unknown) => err,
        );
        expect(isRedisUnavailable(stalled)).toBe(true);
        expect(await connection.set(onOther, 'b')).toBe('OK');
      } finally {
        cluster!.processes[0]!.kill('SIGCONT');
      }
      await until(async () => (await connection.get(onFirst).catch(() => null)) === 'a', 10_000);
    } finally {
      node.destroy();
      connection.destroy();
    }
  });

  it('answers at once while no seed answers (unavailable, not ready), and stops trying once closed', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    const connection: RedisConnection = connectRedisCluster([nobody], pino({ level: 'silent' }), { commandTimeoutMs: 300 });
    const failed = await connection.get('k').then(
      () => null,
      (err: unknown) => err,
    );
    expect(isRedisUnavailable(failed)).toBe(true);
    expect([connection.isReady, connection.isOpen]).toEqual([false, true]);
    connection.destroy();
    expect(connection.isOpen).toBe(false);
  });
});
