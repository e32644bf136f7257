// SIGTERM waited out the keep-alive: a web process with open event streams took 6.4–7.0 s to stop, and one with a
// request in flight was killed with no answer sent. Now idle keep-alive connections close at once, streams end with
// their retry hint, and a request in flight gets until its deadline or the shutdown limit, whichever is first, and is
// answered before the process exits. A real web process with SHUTDOWN_TIMEOUT_MS shorter than Node's 5 s keep-alive:
// what is asserted is the order of events and the exit code, not a speed.
import http from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { openStream } from '../support/sse.ts';

const SHUTDOWN_TIMEOUT_MS = 3000;
let stack: Stack;

beforeAll(async () => {
  stack = await startRedisStack({ SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
});

afterAll(async () => {
  await stack?.stop();
});

/** A kept-alive connection that has answered one request and now idles; resolves `closed` when the server closes it. */
async function idleKeepAlive(base: string): Promise<{ closed: Promise<number> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/healthz`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ closed }));
    });
    const closed = new Promise<number>((r) => req.once('socket', (socket) => socket.once('close', () => r(Date.now()))));
    req.on('error', reject);
  });
}

describe('SIGTERM waits out the keep-alive', () => {
  it('closes idle connections at once, ends streams with their retry hint, answers the request in flight, and exits by itself', async () => {
    const web = await stack.startExtraWeb();
    const agent = request.agent(web);
    const { prospectId } = await identifyOverHttp(agent, stack.sandboxUrl, 'creationStuck');
    const access = { domain: '127.0.0.1', path: '/', secure: false, script: false } as Parameters<typeof agent.jar.getCookie>[1];
    const sid = agent.jar.getCookie('onb.sid', access)!.value;

    // An open event stream (on a kept-alive connection, Node's default agent).
    const stream = await openStream(web, `/onboarding/customer-creation/${encodeURIComponent(prospectId)}/events`, { cookie: `onb.sid=${sid}` });
    expect(stream.status).toBe(200);
    await stream.waitFor((t) => t.includes('retry: 2000'));
    let streamEnded = 0;
    void stream.ended.then(() => (streamEnded = Date.now()));

    const idle = await idleKeepAlive(web);

    // A request in flight: choosing Private starts a BankID order, which the sandbox answers only after 20 s.
    await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'POST', path: '/rp/v6.0/auth', delayMs: 20_000, count: 1 }).expect(204);
    let answeredAt = 0;
    const inFlight = request(web)
      .post('/onboarding/customer-type')
      .set('sec-fetch-site', 'same-origin')
      .set('accept-language', 'en')
      .type('form')
      .send({ customerType: 'private' })
      .redirects(0)
      .then(
        (res) => (
          (answeredAt = Date.now()),
          { status: res.status, location: res.headers.location as string | undefined, cookies: res.headers['set-cookie'] as string[] | undefined }
        ),
        (err: Error) => ((answeredAt = Date.now()), { status: 0, location: `no answer: ${err.message}`, cookies: undefined }),
      );
    // Long enough for the post to reach the BankID call.
    await new Promise((r) => setTimeout(r, 1000));

    const sigterm = Date.now();
    const exitCode = await stack.stopExtraWeb('SIGTERM');
    const exitedAt = Date.now();
    const answer = await inFlight;
    const idleClosedAt = await idle.closed;
    console.log(
      `SIGTERM → idle connection closed ${idleClosedAt - sigterm} ms, stream ended ${streamEnded ? streamEnded - sigterm : 'never'} ms, ` +
        `request in flight answered ${answeredAt - sigterm} ms (${answer.status}), process exited ${exitedAt - sigterm} ms with code ${exitCode}`,
    );

    // The stream was told when to come back, then ended, before the process went.
    expect(stream.text()).toMatch(/retry: 1000\n\n$/);
    expect(streamEnded).toBeGreaterThan(0);
    // The request in flight got its answer, not a dropped connection, before the process went: to the start
    // page, which (served by another web process) shows the try-again screen.
    expect(answer).toMatchObject({ status: 303, location: '/onboarding' });
    expect(answeredAt).toBeLessThanOrEqual(exitedAt);
    const cookie = (answer.cookies ?? []).map((c) => c.split(';')[0]).join('; ');
    const next = await request(stack.webUrl).get('/onboarding').set('cookie', cookie).expect(200);
    expect(next.text).toContain('Please try again.');
    // The idle connection was closed at once, long before the request in flight was answered.
    expect(idleClosedAt).toBeLessThan(answeredAt);
    // Nothing was left to the shutdown limit: the process exited by itself (exit code 1 when forced).
    expect(exitCode).toBe(0);
  });
});
