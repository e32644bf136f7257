// The Redis commands of one page GET on the production stack: web, worker and sandbox as separate processes on a Redis
// of the test's own, whose MONITOR sees every command the web sends (the worker stopped first). A step page, a KYC
// question and the legacy form are read-only page views: the session read once (GET) and its idle TTL rolled (EXPIRE),
// no lock key, nothing written (no SET); the KYC question reads its run's state once more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { readFileSync } from 'node:fs';
import { startRedisStack, type Stack } from '../support/stack.ts';
import { createOwnRedis, type OwnRedis } from '../support/ownRedis.ts';
import { sessionLockKey, until } from '../support/redisKeys.ts';
import { peopleOn, type PageKind, type Person } from '../../bench/people.ts';

/** Every command MONITOR reports, as its words (name first, then its arguments as quoted); resolves once it monitors. */
async function monitor(port: number): Promise<{ lines: string[][]; close(): void }> {
  const lines: string[][] = [];
  const socket: Socket = connect(port, '127.0.0.1');
  let buffered = '';
  let monitoring: () => void;
  const started = new Promise<void>((resolve) => (monitoring = resolve));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => resolve());
  });
  socket.write('MONITOR\r\n');
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\r\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      // Redis's answer to MONITOR: every command from now on is reported.
      if (line === '+OK') monitoring();
      const [, client, rest] = /^\+\d+\.\d+ \[([^\]]+)\] (.*)$/.exec(line) ?? [];
      // Commands a Lua script runs inside Redis are not sent by the web.
      if (rest && !client!.endsWith(' lua')) lines.push([...rest.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!));
    }
  });
  await started;
  return { lines, close: () => socket.destroy() };
}

let own: OwnRedis;
let stack: Stack;
const prefix = `test-${randomUUID().slice(0, 8)}`;
const people = {} as Record<PageKind, Person>;

beforeAll(async () => {
  own = await createOwnRedis('page-view-commands');
  await own.start();
  // A post that finds the lock taken waits 2 s, then is refused.
  stack = await startRedisStack({ REDIS_URL: own.url, REDIS_PREFIX: prefix, SESSION_LOCK_WAIT_MS: '2000' });
  for (const kind of ['step', 'kyc', 'legacy'] as const) people[kind] = (await peopleOn(kind, 1, stack.webUrl, stack.sandboxUrl))[0]!;
  // Every page is ready (the KYC run prepared its first question): the worker's polling would only add noise.
  await stack.killWorker();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await own?.remove();
});

/**
 * The commands the web sent for one GET of the person's page, the answer's status, and its HTML. A command sent as the
 * answer went out still belongs to the request: the commands are read once `expected` of them came (however late on a
 * busy machine), and 150 ms more, in which any command beyond them would show.
 */
async function commandsOfGet(person: Person, expected: number): Promise<{ status: number; html: string; commands: string[][] }> {
  const mon = await monitor(own.port);
  try {
    const before = mon.lines.length;
    const res = await fetch(new URL(person.page, stack.webUrl), { redirect: 'manual', headers: { cookie: person.cookie } });
    const html = await res.text();
    await until(() => mon.lines.length - before >= expected, 10_000).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 150));
    return { status: res.status, html, commands: mon.lines.slice(before) };
  } finally {
    mon.close();
  }
}

const names = (commands: string[][]) => commands.map((c) => c[0]!.toUpperCase());
const touchesLock = (commands: string[][]) => commands.some((c) => c.some((arg) => arg.endsWith('}:lock')));

describe('Redis commands of a page GET (Redis mode)', () => {
  it.each([
    ['step', 'ACCOUNT_PICKER_STEP', ['GET', 'EXPIRE']],
    ['kyc', 'KYC_STEP', ['GET', 'GET', 'EXPIRE']],
    ['legacy', 'EXISTING_STEP', ['GET', 'EXPIRE']],
  ] as const)('a %s page: the session read once and its TTL rolled; no lock, nothing written', async (kind, step, expected) => {
    const { status, html, commands } = await commandsOfGet(people[kind], expected.length);
    expect(status).toBe(200);
    expect(html).toContain(`data-step="${step}"`);
    expect(names(commands)).toEqual(expected);
    expect(commands.length).toBeLessThanOrEqual(3);
    expect(touchesLock(commands)).toBe(false);
    // The session key is read and touched, never written.
    const sessionCommands = commands.filter((c) => c[1]?.includes(':sess:'));
    expect(names(sessionCommands)).toEqual(['GET', 'EXPIRE']);
  });

  it("answers a page GET while another request holds the session's lock (a post waits for it and is refused)", async () => {
    const person = people.step;
    const sid = decodeURIComponent(/onb\.sid=([^;]+)/.exec(person.cookie)![1]!)
      .slice(2)
      .split('.')[0]!;
    const redis = createClient({ url: own.url });
    await redis.connect();
    const lockKey = sessionLockKey(prefix, sid);
    try {
      // Another web process's request holding the lock for the next 20 s.
      expect(await redis.set(lockKey, 'another-request', { NX: true, PX: 20_000 })).toBe('OK');
      const shown = await fetch(new URL(person.page, stack.webUrl), { redirect: 'manual', headers: { cookie: person.cookie } });
      expect(shown.status).toBe(200);
      expect(await shown.text()).toContain('data-step="ACCOUNT_PICKER_STEP"');
      const back = await fetch(new URL(`${person.page.split('?')[0]}/back`, stack.webUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: person.cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toMatch(/\?notSaved=change$/);
      // Still the other request's: the GET neither took nor released it.
      expect(await redis.get(lockKey)).toBe('another-request');
    } finally {
      await redis.del(lockKey);
      await redis.quit();
    }
  });

  it('logs no read-only page view that changed its session', () => {
    const log = readFileSync(`test-results/web-${new URL(stack.webUrl).port}.log`, 'utf8');
    expect(log).toContain('"statusCode":200');
    expect(log).not.toContain('a read-only page view changed its session');
  });
});
