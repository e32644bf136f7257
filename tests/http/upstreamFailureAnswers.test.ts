// An upstream failure that reaches the app's error handler is classified, whatever status the upstream answered: its
// 4xx is not the person's request's fault (it was answered as that 4xx, "Bad request"), and an ended brokerage
// session says so, so that the page can ask the person to identify again.
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.ts';
import { errorHandler } from '../../server/errors.ts';
import type { AppDeps } from '../../server/deps.ts';
import { UpstreamError } from '../../shared/upstreamError.ts';
import { SessionEnded } from '../../shared/asPerson.ts';

function appThrowing(err: Error) {
  const app = express();
  app.get('/x', () => {
    throw err;
  });
  const logger = createLogger({ level: 'silent', name: 'test' });
  app.use(errorHandler({ logger, config: { supportPhones: {} } } as unknown as AppDeps));
  return app;
}

describe('upstream failures answered by the error handler', () => {
  it.each([400, 404, 409, 422])('an upstream %i is a failure of ours, not a bad request of the caller', async (status) => {
    const res = await request(appThrowing(new UpstreamError('brokerage', status, {}, `answered ${status}`)))
      .get('/x')
      .set('accept', 'application/json');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal error' });
  });

  it('an ended brokerage session is said as such (401), not as a bad request', async () => {
    const res = await request(appThrowing(new SessionEnded('refreshRefused')))
      .get('/x')
      .set('accept', 'application/json');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Session ended' });
  });
});
