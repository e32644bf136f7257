// The page shell's system-status banners (identification-routing-creation §8, §9): the pure rule
// (shared/systemStatus.ts) and the cache that reads the status once per cache time (server/infra/systemStatusCache.ts).
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { systemBanners } from '../../shared/systemStatus.ts';
import { systemStatusResponse, type SystemStatus } from '../../shared/contracts/brokerageContract.ts';
import { createSystemStatusCache, type SystemStatusCacheOptions } from '../../server/infra/systemStatusCache.ts';
import { currentDeadline, withDeadline } from '../../server/infra/deadline.ts';

describe('systemBanners', () => {
  it.each([
    ['unknown status: none', null, { maintenance: false, highLoad: false }],
    ['all clear: none', { creationPaused: false, feedbackBanner: null }, { maintenance: false, highLoad: false }],
    ['creation paused: the maintenance banner', { creationPaused: true, feedbackBanner: null }, { maintenance: true, highLoad: false }],
    ['HIGH_LOAD: the high-load notice', { creationPaused: false, feedbackBanner: 'HIGH_LOAD' }, { maintenance: false, highLoad: true }],
    ['both', { creationPaused: true, feedbackBanner: 'HIGH_LOAD' }, { maintenance: true, highLoad: true }],
    ['a banner this build does not know: nothing', { creationPaused: false, feedbackBanner: 'SOMETHING_NEW' }, { maintenance: false, highLoad: false }],
    ['the known value only in its own spelling', { creationPaused: false, feedbackBanner: 'high_load' }, { maintenance: false, highLoad: false }],
    ['an empty banner: nothing', { creationPaused: false, feedbackBanner: '' }, { maintenance: false, highLoad: false }],
  ] as const)('%s', (_name, status, expected) => {
    expect(systemBanners(status)).toEqual(expected);
  });

  it('the wire contract takes a banner it does not know, so the worker still reads creationPaused', () => {
    expect(systemStatusResponse.parse({ creationPaused: true, feedbackBanner: 'SOMETHING_NEW' })).toEqual({
      creationPaused: true,
      feedbackBanner: 'SOMETHING_NEW',
    });
  });
});

const logger = pino({ level: 'silent' });
const PAUSED: SystemStatus = { creationPaused: true, feedbackBanner: null };
const HIGH_LOAD: SystemStatus = { creationPaused: false, feedbackBanner: 'HIGH_LOAD' };

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A cache over a scripted status call: each call takes the next answer (a value, an error, or a promise). */
function cacheOver(answers: Array<SystemStatus | Error | Promise<SystemStatus>>, extra: Partial<SystemStatusCacheOptions> = {}) {
  let clock = 0;
  const calls: Array<{ signal: AbortSignal | undefined; remaining: number | undefined }> = [];
  const cache = createSystemStatusCache({
    fetch: async () => {
      const deadline = currentDeadline();
      calls.push({ signal: deadline?.signal, remaining: deadline?.remaining() });
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    ttlMs: 5000,
    timeoutMs: 1000,
    logger,
    now: () => clock,
    ...extra,
  });
  return {
    cache,
    calls,
    at: (ms: number) => {
      clock = ms;
    },
  };
}

describe('system status cache', () => {
  it('makes one call per cache time, then asks again', async () => {
    const { cache, calls, at } = cacheOver([PAUSED, HIGH_LOAD]);
    expect(await cache.current()).toEqual(PAUSED);
    at(4999);
    expect(await cache.current()).toEqual(PAUSED);
    expect(calls).toHaveLength(1);
    at(5000);
    expect(await cache.current()).toEqual(HIGH_LOAD);
    expect(calls).toHaveLength(2);
  });

  it('pages asking while a call is in flight share it (single flight)', async () => {
    const answer = deferred<SystemStatus>();
    const { cache, calls } = cacheOver([answer.promise]);
    const pages = Array.from({ length: 5 }, () => cache.current());
    answer.resolve(PAUSED);
    expect(await Promise.all(pages)).toEqual(Array.from({ length: 5 }, () => PAUSED));
    expect(calls).toHaveLength(1);
  });

  it('a failing call shows no banner, is remembered for the cache time, and is asked again after it', async () => {
    const { cache, calls, at } = cacheOver([new Error('503'), PAUSED]);
    expect(await cache.current()).toBeNull();
    at(1000);
    expect(await cache.current()).toBeNull();
    expect(calls).toHaveLength(1);
    at(6000);
    expect(await cache.current()).toEqual(PAUSED);
  });

  it('a call past its own deadline shows no banner, even when it never answers', async () => {
    const { cache, calls } = cacheOver([new Promise<SystemStatus>(() => {})], { timeoutMs: 20 });
    expect(await cache.current()).toBeNull();
    // The call ran with a deadline of its own, the short one.
    expect(calls[0]!.signal).toBeDefined();
    expect(calls[0]!.remaining).toBeLessThanOrEqual(20);
  });

  it("runs outside the page's request: a request deadline shorter than the call neither cuts it short nor loses its answer", async () => {
    const answer = deferred<SystemStatus>();
    const { cache, calls } = cacheOver([answer.promise, HIGH_LOAD]);
    let requestSignal: AbortSignal | undefined;
    const page = withDeadline(5, () => {
      requestSignal = currentDeadline()!.signal;
      return cache.current();
    });
    await new Promise<void>((resolve) => requestSignal!.addEventListener('abort', () => resolve(), { once: true }));
    // The call has a deadline of its own, still running after the request's passed.
    expect(calls[0]!.signal).not.toBe(requestSignal);
    expect(calls[0]!.signal!.aborted).toBe(false);
    answer.resolve(PAUSED);
    expect(await page).toEqual(PAUSED);
    // Kept for the next page: no second call.
    expect(await cache.current()).toEqual(PAUSED);
    expect(calls).toHaveLength(1);
  });
});
