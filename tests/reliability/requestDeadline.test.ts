// Retries multiplying timeouts, at the level of its parts: the request deadline (server/infra/deadline.ts) that an
// upstream call (server/upstream/http.ts) and its retries (server/upstream/retry.ts) share. The journey
// over HTTP is in retriesMultiplyTimeoutsDeadline.test.ts; here each rule on its own, without timing
// assertions: what is counted is how many calls are made and which error ends them.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withDeadline } from '../../server/infra/deadline.ts';
import { createHttpClient, UpstreamError } from '../../server/upstream/http.ts';
import { withRetries } from '../../server/upstream/retry.ts';

const failing = (status: number) => {
  let calls = 0;
  const call = async () => {
    calls++;
    throw new UpstreamError('test', status, undefined, `answered ${status}`);
  };
  return { call, calls: () => calls };
};

// An upstream that takes every call and never answers.
let silent: Server;
let silentUrl: string;
let silentCalls = 0;
beforeAll(async () => {
  silent = createServer(() => void silentCalls++);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address();
  silentUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe('retries multiply timeouts into minutes: the request deadline', () => {
  it('retries stop once the wait would pass the deadline, answering the last failure', async () => {
    const upstream = failing(503);
    // 10 tries 300 ms apart would take 2.7 s; the deadline is 1 s: tries at 0, 300, 600, 900 ms at most.
    const result = withDeadline(1000, () => withRetries(upstream.call, 300, 10));
    await expect(result).rejects.toMatchObject({ name: 'UpstreamError', status: 503 });
    expect(upstream.calls()).toBeGreaterThanOrEqual(1);
    expect(upstream.calls()).toBeLessThanOrEqual(4);
  });

  it('a 4xx is not tried again; outside a request (the worker) every try is made', async () => {
    const refused = failing(400);
    await expect(withDeadline(1000, () => withRetries(refused.call, 0, 10))).rejects.toMatchObject({ status: 400 });
    expect(refused.calls()).toBe(1);
    const down = failing(503);
    await expect(withRetries(down.call, 0, 10)).rejects.toMatchObject({ status: 503 });
    expect(down.calls()).toBe(10);
  });

  it('a call gets at most the time left: a silent upstream ends at the deadline as status 0 (try again), not at its own 10 s timeout', async () => {
    const http = createHttpClient({ name: 'silent', baseUrl: silentUrl, timeoutMs: 10_000 });
    const before = silentCalls;
    const outcome = await Promise.race([
      withDeadline(500, () => http.json({ method: 'GET', path: '/slow', schema: z.unknown() })).then(
        () => 'answered',
        (err: unknown) => err,
      ),
      new Promise((resolve) => setTimeout(() => resolve('no answer'), 5000)),
    ]);
    expect(outcome).toBeInstanceOf(UpstreamError);
    expect(outcome).toMatchObject({ status: 0, message: expect.stringContaining('deadline') });
    expect(silentCalls - before).toBe(1);
    // The deadline has passed: the next call is not made at all.
    await expect(
      withDeadline(1, async () => {
        await new Promise((r) => setTimeout(r, 20));
        return http.json({ method: 'GET', path: '/slow', schema: z.unknown() });
      }),
    ).rejects.toMatchObject({ status: 0 });
    expect(silentCalls - before).toBe(1);
  });
});
