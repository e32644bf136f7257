// Operators' view of errors: error log entries showed `"name":"[Redacted]"` (the
// redaction of people's `name` fields caught the error's name too) and an empty `stack` (errors were logged
// by hand as `{ err: { message } }`), so a failure could not be traced. Now the error middleware and the
// jobs log the error itself: its type, name, message and stack (server/logger.ts errorSerializer), and
// still no personal data, not even what an upstream answered (UpstreamError.body).
import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.ts';
import { errorHandler } from '../../server/errors.ts';
import type { AppDeps } from '../../server/deps.ts';
import { UpstreamError } from '../../shared/upstreamError.ts';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { signOverHttp } from '../support/customerInformation.ts';

type Entry = Record<string, unknown> & { msg?: string; err?: Record<string, unknown> };

function sink(): { stream: Writable; entries: Entry[]; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  return {
    stream,
    get entries() {
      return lines.map((l) => JSON.parse(l) as Entry);
    },
    text: () => lines.join('\n'),
  };
}

const person = { name: 'Astrid Lindqvist', first_name: 'Astrid', email: 'astrid@example.se' };

describe('error logs lose their type and stack', () => {
  it('the error middleware logs a failed request with its type, name and stack, without the upstream answer', async () => {
    const logs = sink();
    const logger = createLogger({ level: 'info', name: 'test' }, logs.stream);
    const app = express();
    app.get('/boom', () => {
      const err = new UpstreamError('brokerage', 502, { data: person }, 'brokerage GET /api/2/x: answered 502');
      err.cause = new TypeError('fetch failed');
      throw err;
    });
    // Only what the middleware reads when it cannot render the page (it then answers plain text).
    app.use(
      errorHandler({
        logger,
        config: { supportPhones: { SE: '+46 8 000 000 00', NO: '+47 22 00 00 00', DK: '+45 70 00 00 00', FI: '+358 9 0000 0000' } },
      } as unknown as AppDeps),
    );
    await request(app).get('/boom').expect(500);

    const entry = logs.entries.find((e) => e.msg === 'request failed');
    expect(entry?.err).toMatchObject({
      type: 'UpstreamError',
      name: 'UpstreamError',
      message: 'brokerage GET /api/2/x: answered 502',
      status: 502,
      upstream: 'brokerage',
      cause: { type: 'TypeError', name: 'TypeError', message: 'fetch failed' },
    });
    expect(entry?.err?.stack).toMatch(/^UpstreamError: brokerage GET \/api\/2\/x: answered 502\n\s+at .*errorLogsLoseTypeAndStack\.test\.ts/);
    for (const value of Object.values(person)) expect(logs.text()).not.toContain(value);
  });

  it('a person`s name next to the error stays redacted', () => {
    const logs = sink();
    const logger = createLogger({ level: 'info', name: 'test' }, logs.stream);
    logger.error({ err: new RangeError('out of range'), user: { name: person.name }, account: { holder: { name: person.name } } }, 'failed');
    const [entry] = logs.entries;
    expect(entry?.err).toMatchObject({ type: 'RangeError', name: 'RangeError', message: 'out of range' });
    expect(String(entry?.err?.stack)).toContain('errorLogsLoseTypeAndStack.test.ts');
    expect(logs.text()).not.toContain(person.name);
  });
});

describe('error logs lose their type and stack: a failed job', () => {
  let stack: Stack;
  const logs = sink();

  beforeAll(async () => {
    // A short upstream timeout, so a call the sandbox answers late fails in the worker.
    stack = await startEmbeddedStack({ LOG_LEVEL: 'info', CREATION_POLL_MS: '100', UPSTREAM_TIMEOUT_MS: '1000' }, { logDestination: logs.stream });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('a creation step that throws is logged with the error`s type and stack, and no token or personal data', async () => {
    const { agent, prospectId, persona } = await signOverHttp(stack.webUrl, stack.sandboxUrl, 'creationSlow');
    // The run's next creation-status call goes unanswered (past UPSTREAM_TIMEOUT_MS): the step throws and the queue tries it again.
    await request(stack.sandboxUrl)
      .post('/sandbox/faults')
      .send({ method: 'GET', path: '/api/2/customers/creation_status', delayMs: 3000, count: 1 })
      .expect(204);
    await agent.get(`/onboarding/customer-creation/${encodeURIComponent(prospectId)}`).expect(200);

    await expect
      .poll(() => logs.entries.find((e) => e.msg === 'customer creation step failed, will retry' && e.prospectId === prospectId), { timeout: 20_000 })
      .toBeDefined();
    const entry = logs.entries.find((e) => e.msg === 'customer creation step failed, will retry' && e.prospectId === prospectId)!;
    expect(entry.err).toMatchObject({ type: 'UpstreamError', name: 'UpstreamError', status: 0, upstream: 'brokerage' });
    expect(String(entry.err?.stack)).toMatch(/^UpstreamError: .*\n\s+at /);
    const queued = logs.entries.find((e) => e.msg === 'job failed' && e.jobName === 'customerCreation');
    expect(queued?.err).toMatchObject({ type: 'UpstreamError', name: 'UpstreamError' });
    expect(String(queued?.err?.stack)).toMatch(/^UpstreamError: /);
    for (const value of [persona.nationalId, persona.name]) expect(logs.text()).not.toContain(value);
  });
});
