// Creation streams at peak: N open server-sent-event streams on one compiled web process beside a bare node:http
// SSE server (bench/bareSse.mjs): the memory each stream keeps, and one outcome's fan-out to all of them. Method:
// docs/benchmarkMethods.md.
import { request as httpRequest, type ClientRequest, Agent } from 'node:http';
import { createHmac, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import pino from 'pino';
import { createOwnRedis } from '../tests/support/ownRedis.ts';
import { redisModeEnv } from '../tests/support/productEnv.ts';
import { freePort, spawnNode, stopChild, waitForOk } from './benchStack.ts';
import { connectRedis } from '../server/infra/redis.ts';
import { createRedisCreationEvents } from '../server/infra/creationEvents.ts';

export interface StreamSide {
  before: Memory;
  open: Memory;
  /** RSS growth per stream. */
  perStreamKb: number;
  /** JS heap growth per stream. */
  heapPerStreamKb: number;
  fanOutMs: number;
}

const perStream = (before: Memory, open: Memory, count: number) => ({
  perStreamKb: ((open.rssMb - before.rssMb) * 1024) / count,
  heapPerStreamKb: ((open.heapMb - before.heapMb) * 1024) / count,
});

export interface StreamsAtPeak {
  streams: number;
  product: StreamSide;
  bare: StreamSide;
}

interface Memory {
  rssMb: number;
  heapMb: number;
}

/** A process's RSS and JS heap in MB after a full collection, read over its inspector (bench/inspectMemory.mjs). */
function memoryOf(inspectPort: number): Memory {
  const out = execFileSync(process.execPath, ['--experimental-websocket', 'bench/inspectMemory.mjs', String(inspectPort)], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const { rss, heapUsed } = JSON.parse(out) as { rss: number; heapUsed: number };
  return { rssMb: rss / 2 ** 20, heapMb: heapUsed / 2 ** 20 };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stream the server answered with another status than 200. */
class StreamRefused extends Error {
  constructor(
    url: string,
    readonly status: number | undefined,
  ) {
    super(`${url}: ${status}`);
    this.name = 'StreamRefused';
  }
}

/** Opens one stream; resolves once its head (the retry line) has come. `onData` hears every later chunk. */
function openStream(agent: Agent, url: string, headers: Record<string, string>, onData: (chunk: string) => void): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new StreamRefused(url, res.statusCode));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let opened = false;
      res.on('data', (chunk: string) => {
        if (!opened && chunk.includes('retry:')) {
          opened = true;
          resolve(req);
          if (!chunk.includes('event:')) return;
        }
        onData(chunk);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

// Fifty at a time: people arrive over time, not all in the same millisecond. A stream refused with a 503 (the web
// process gave Redis more commands at once than it answers within its deadline) is opened again, as EventSource does.
async function openMany(count: number, open: (i: number) => Promise<ClientRequest>): Promise<ClientRequest[]> {
  const again = async (i: number): Promise<ClientRequest> => {
    for (let tries = 1; ; tries++) {
      try {
        return await open(i);
      } catch (err) {
        if (tries >= 5 || !(err instanceof StreamRefused) || err.status !== 503) throw err;
        await settle(200 * tries);
      }
    }
  };
  const opened: ClientRequest[] = [];
  for (let i = 0; i < count; i += 50) opened.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => again(i + k)))));
  return opened;
}

/** Counts the streams that heard an event; `all` answers when the last of `count` did (within a minute). */
function hearEvents() {
  let received = 0;
  let lastAt = 0;
  return {
    onData(chunk: string) {
      if (!chunk.includes('event: creation')) return;
      received++;
      lastAt = performance.now();
    },
    async all(count: number, what: string): Promise<number> {
      const limit = Date.now() + 60_000;
      while (received < count && Date.now() < limit) await settle(5);
      if (received < count) throw new Error(`${what}: ${received} of ${count} streams heard the event`);
      return lastAt;
    },
  };
}

/** The signed session cookie express-session reads (cookie-signature: HMAC-SHA256, base64 without padding). */
function sessionCookie(sid: string, secret: string): string {
  const signature = createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '');
  return `onb.sid=${encodeURIComponent(`s:${sid}.${signature}`)}`;
}

async function productSide(count: number, logDir: string, log: (line: string) => void): Promise<StreamSide> {
  const redis = await createOwnRedis('peak-streams-redis', { appendfsync: 'everysec' });
  await redis.start();
  const [webPort, inspectPort] = [await freePort(), await freePort()];
  const env: Record<string, string> = {
    ...redisModeEnv({ redisUrl: redis.url, prefix: `streams-${randomUUID().slice(0, 8)}`, webPort, sandboxPort: await freePort() }),
    LOG_LEVEL: 'warn',
  };
  const web = spawnNode('peak-web', [`--inspect=127.0.0.1:${inspectPort}`, '--enable-source-maps', 'dist/server.js', 'web'], env, logDir);
  const client = connectRedis(redis.url, pino({ level: 'silent' }), { commandTimeoutMs: 5000 });
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const opened: ClientRequest[] = [];
  try {
    const webUrl = `http://127.0.0.1:${webPort}`;
    await waitForOk(`${webUrl}/healthz`);
    const session = (prospectId: string) =>
      JSON.stringify({
        cookie: { originalMaxAge: null, expires: null, secure: false, httpOnly: true, path: '/', sameSite: 'lax' },
        journey: { country: 'SE', customerType: 'private', webview: false, queryParams: {}, jwt: 'bench', prospectId, creationRun: 1 },
      });
    const sids = Array.from({ length: count + 1 }, () => randomUUID());
    for (let i = 0; i < sids.length; i += 1000) {
      const batch = client.multi();
      for (let k = i; k < Math.min(i + 1000, sids.length); k++) batch.set(`${env.REDIS_PREFIX}:sess:${sids[k]}`, session(`streams-${k}`), { EX: 1800 });
      await batch.exec();
    }
    const events = (i: number) => `${webUrl}/onboarding/customer-creation/streams-${i}/events`;
    // Warm the process (modules, JIT) with one stream, then measure from there.
    opened.push(await openStream(agent, events(count), { cookie: sessionCookie(sids[count]!, env.SESSION_SECRET!) }, () => {}));
    await settle(1000);
    const before = memoryOf(inspectPort);
    opened.push(...(await openMany(count, (i) => openStream(agent, events(i), { cookie: sessionCookie(sids[i]!, env.SESSION_SECRET!) }, () => {}))));
    await settle(1000);
    const open = memoryOf(inspectPort);
    log(
      `  product: ${count} streams of ${count} people open, RSS ${before.rssMb.toFixed(0)} → ${open.rssMb.toFixed(0)} MB, heap ${before.heapMb.toFixed(0)} → ${open.heapMb.toFixed(0)} MB`,
    );
    for (const r of opened.splice(0)) r.destroy();
    await settle(3000);

    // Fan-out: N streams of one person, one outcome.
    const heard = hearEvents();
    opened.push(...(await openMany(count, () => openStream(agent, events(0), { cookie: sessionCookie(sids[0]!, env.SESSION_SECRET!) }, heard.onData))));
    await settle(1000);
    const publisher = createRedisCreationEvents({ client, prefix: env.REDIS_PREFIX!, timeoutMs: 5000 });
    const published = performance.now();
    await publisher.publish({ prospectId: 'streams-0', runId: '1', attempt: 45, outcome: 'maxPollingTries', at: new Date().toISOString() });
    const fanOutMs = (await heard.all(count, 'fan-out')) - published;
    log(`  product: one outcome to ${count} streams in ${fanOutMs.toFixed(0)} ms`);
    return { before, open, ...perStream(before, open, count), fanOutMs };
  } finally {
    for (const r of opened) r.destroy();
    agent.destroy();
    client.destroy();
    await stopChild(web);
    await redis.remove();
  }
}

async function bareSide(count: number, logDir: string, log: (line: string) => void): Promise<StreamSide> {
  const [port, inspectPort] = [await freePort(), await freePort()];
  const bare = spawnNode('peak-bare-sse', [`--inspect=127.0.0.1:${inspectPort}`, 'bench/bareSse.mjs', String(port)], {}, logDir);
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const opened: ClientRequest[] = [];
  try {
    const url = `http://127.0.0.1:${port}`;
    const limit = Date.now() + 10_000;
    for (;;) {
      try {
        opened.push(await openStream(agent, `${url}/events`, {}, () => {}));
        break;
      } catch (err) {
        if (Date.now() > limit) throw err;
        await settle(50);
      }
    }
    await settle(1000);
    const before = memoryOf(inspectPort);
    const heard = hearEvents();
    opened.push(...(await openMany(count, () => openStream(agent, `${url}/events`, {}, heard.onData))));
    await settle(1000);
    const open = memoryOf(inspectPort);
    log(
      `  bare: ${count} streams open, RSS ${before.rssMb.toFixed(0)} → ${open.rssMb.toFixed(0)} MB, heap ${before.heapMb.toFixed(0)} → ${open.heapMb.toFixed(0)} MB`,
    );
    const published = performance.now();
    await fetch(`${url}/broadcast`, { method: 'POST' });
    const fanOutMs = (await heard.all(count, 'bare fan-out')) - published;
    log(`  bare: one event to ${count} streams in ${fanOutMs.toFixed(0)} ms`);
    return { before, open, ...perStream(before, open, count), fanOutMs };
  } finally {
    for (const r of opened) r.destroy();
    agent.destroy();
    await stopChild(bare);
  }
}

export async function measureStreamsAtPeak(count: number, logDir: string, log: (line: string) => void): Promise<StreamsAtPeak> {
  log(`streams at peak: ${count} creation streams on one web process, then on a bare node:http SSE server`);
  const product = await productSide(count, logDir, log);
  const bare = await bareSide(count, logDir, log);
  return { streams: count, product, bare };
}
