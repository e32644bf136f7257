// An open creation stream costs little: thousands stay open for minutes, so what one keeps for its whole life is what
// 10,000 of them cost. The stream is answered ahead of Express (server/pageKit/streams.ts); this test fails when the
// heavy chain comes back in front of it: express-session's session on the request, a per-request logger, compression's
// and express-session's wrappers, Express's request, a timer per stream. In-process, without timing: it reads the
// server's own request objects and live timers.
import diagnosticsChannel from 'node:diagnostics_channel';
import { createHook } from 'node:async_hooks';
import { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { expect, it } from 'vitest';
import { identifyAndRoute, prospectIdIn, sidOf, stack, useServerStack } from '../support/serverHttp.ts';
import { openStream, type Stream } from '../support/sse.ts';

useServerStack();

const STREAMS = 20;

it('an open creation stream holds no session, no request logger, no wrapped answer, no Express request and no timer of its own', async () => {
  const agent = request.agent(stack.webUrl);
  const prospectId = prospectIdIn(await identifyAndRoute(agent, 'onboarding'));
  const cookie = `onb.sid=${sidOf(agent)}`;
  const path = `/onboarding/customer-creation/${encodeURIComponent(prospectId)}/events`;

  // The server's side of each stream, as node:http starts it.
  const served: Array<{ request: IncomingMessage; response: ServerResponse }> = [];
  const onRequest = (message: unknown) => {
    const m = message as { request: IncomingMessage; response: ServerResponse };
    if (m.request.url?.endsWith('/events')) served.push(m);
  };
  // Timers made while the streams open and still alive once they are open (async_hooks sees unref'd ones too).
  const timers = new Set<number>();
  const hook = createHook({
    init(id, type) {
      // Not the test's own client sockets' idle timeouts (the global agent's), which this process holds too.
      if (type === 'Timeout' && !new Error().stack?.includes('createConnection')) timers.add(id);
    },
    destroy(id) {
      timers.delete(id);
    },
  });
  const streams: Stream[] = [];
  diagnosticsChannel.subscribe('http.server.request.start', onRequest);
  hook.enable();
  try {
    for (let i = 0; i < STREAMS; i++) {
      const s = await openStream(stack.webUrl, path, { cookie });
      streams.push(s);
      expect(s.status).toBe(200);
      await s.waitFor((t) => t.includes('retry: 2000'));
    }
    expect(served).toHaveLength(STREAMS);
    for (const { request: req, response: res } of served) {
      expect(res.headersSent && !res.writableEnded).toBe(true);
      // No session on the request (express-session), not even its id; no per-request logger (req.log, as pino-http made).
      expect('session' in req || 'sessionID' in req || 'sessionStore' in req).toBe(false);
      expect('log' in req || 'log' in res).toBe(false);
      // The answer's own methods, not wrappers (compression wraps write and end, express-session and on-headers writeHead).
      for (const method of ['write', 'end', 'writeHead', 'setHeader']) expect(Object.hasOwn(res, method), method).toBe(false);
      // Node's request and answer, not Express's.
      expect(Object.getPrototypeOf(req)).toBe(IncomingMessage.prototype);
      expect(Object.getPrototypeOf(res)).toBe(ServerResponse.prototype);
      // No nonce or per-request state of the page chain.
      expect('locals' in res).toBe(false);
    }
    // One heartbeat timer for all the streams (server/infra/sseConnections.ts), and no deadline timer per request:
    // an interval or a timer per stream would be STREAMS of them.
    expect(timers.size).toBeLessThanOrEqual(3);
  } finally {
    hook.disable();
    diagnosticsChannel.unsubscribe('http.server.request.start', onRequest);
    for (const s of streams) s.close();
  }
});
