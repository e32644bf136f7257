// Every node-redis command armed its own timeout timer (node-redis's `timeout` option is an
// AbortSignal.timeout per command), which fires even after the reply came: about 5 % of a busy worker's CPU.
// The client of server/infra/redis.ts now bounds every command, MULTI and pipelines included, with one shared
// timer that runs only while commands wait (replyDeadlines), and a stalled Redis still fails them in time.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { RedisClientType } from '@redis/client';
import { connectRedis, RedisUnavailableError, replyDeadlines } from '../../server/infra/redis.ts';
import { createOwnRedis, type OwnRedis } from '../support/ownRedis.ts';

const logger = pino({ level: 'silent' });
let redis: OwnRedis;
let client: RedisClientType;

beforeAll(async () => {
  redis = await createOwnRedis('timer-per-command');
  await redis.start();
  client = connectRedis(redis.url, logger, { commandTimeoutMs: 300 });
  const until = Date.now() + 10_000;
  while (!client.isReady && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
});

afterAll(async () => {
  redis?.process?.kill('SIGCONT');
  if (client?.isOpen) client.destroy();
  await redis?.remove();
});

describe('Redis command deadlines', () => {
  it('arm no timer per command: single commands, scripts, MULTI and pipelines', async () => {
    const timers = vi.spyOn(AbortSignal, 'timeout');
    try {
      await Promise.all(Array.from({ length: 200 }, (_, i) => client.set(`k${i}`, 'v')));
      await client.eval("return redis.call('get', KEYS[1])", { keys: ['k1'], arguments: [] });
      await client.multi().get('k1').get('k2').exec();
      await client.multi().get('k1').get('k2').execAsPipeline();
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
  });

  it('still fail a command, a MULTI and a pipeline in time while Redis stalls, and serve again once it resumes', async () => {
    redis.process!.kill('SIGSTOP');
    try {
      const started = Date.now();
      const outcomes = await Promise.allSettled([client.get('k1'), client.multi().get('k1').exec(), client.multi().get('k2').execAsPipeline()]);
      expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).name : 'answered'))).toEqual([
        'RedisUnavailableError',
        'RedisUnavailableError',
        'RedisUnavailableError',
      ]);
      // The deadline (300 ms) and at most a quarter more, plus a loaded machine's slack.
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      redis.process!.kill('SIGCONT');
    }
    await expect(client.get('k1')).resolves.toBe('v');
  });
});

describe('replyDeadlines', () => {
  it('fails a reply that waited past its deadline, and runs its timer only while something waits', async () => {
    const deadlines = replyDeadlines(40);
    expect(deadlines.armed).toBe(false);
    const answered = deadlines.bound(new Promise((r) => setTimeout(() => r('yes'), 5)), 'quick');
    const never = deadlines.bound(new Promise(() => {}), 'stuck');
    expect({ waiting: deadlines.waiting, armed: deadlines.armed }).toEqual({ waiting: 2, armed: true });
    await expect(answered).resolves.toBe('yes');
    await expect(never).rejects.toThrow(RedisUnavailableError);
    await expect(never).rejects.toThrow('stuck took longer than 40 ms');
    expect({ waiting: deadlines.waiting, armed: deadlines.armed }).toEqual({ waiting: 0, armed: false });
  });

  it('passes a failure on as it came', async () => {
    const deadlines = replyDeadlines(100);
    const failure = new Error('WRONGTYPE');
    await expect(deadlines.bound(Promise.reject(failure), 'bad')).rejects.toBe(failure);
    expect(deadlines.waiting).toBe(0);
    // The timer stops at its next tick (a quarter of the deadline) that finds nothing waiting.
    await new Promise((r) => setTimeout(r, 60));
    expect(deadlines.armed).toBe(false);
  });
});
