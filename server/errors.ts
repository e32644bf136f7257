// The one error-handling middleware: log without personal data, answer JSON to API callers and a
// friendly page to browsers. Never leaks a stack trace. Redis unreachable (server/infra/redis.ts
// isRedisUnavailable: down, or a command past REDIS_COMMAND_TIMEOUT_MS) is not a bug: 503 with the
// translated temporarily-unavailable page, and the next request succeeds once Redis is back.
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { AppDeps } from './deps.ts';
import { sendPage, supportPhoneOf, translatorFor } from './pages.ts';
import { GenericErrorPage, ServiceUnavailablePage, SessionBusyPage, UpstreamFailurePage } from '../views/pages/FeedbackPageViews.tsx';
import { SessionEnded } from '../shared/asPerson.ts';
import { UpstreamError } from '../shared/upstreamError.ts';
import { isRedisUnavailable, RedisUnavailableError } from './infra/redis.ts';
import { RequestRefusedPage } from '../views/pages/RequestRefusedPageView.tsx';
import { CsrfRefusedError } from './csrfProtection.ts';
import { createElement } from 'react';
import type { RefuseHandler } from './infra/sessionLocks.ts';
import { routePrefixes, routes } from '../shared/routes.ts';

/** A caller of JSON or of the event stream (the islands' polls), not a browser loading a page. */
export function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json' || req.path.endsWith('/status') || req.path.endsWith('/events');
}

/** A request the app cannot take as sent (a form's body that is not the form's): answered 400 by errorHandler. */
export class BadRequestError extends Error {
  readonly status = 400;
}

/** What a JSON caller reads for a failure answered with `status` (server/pageKit/streams.ts answers alike). */
export function jsonErrorOf(status: number): { error: string } {
  if (status === 503) return { error: 'Temporarily unavailable' };
  if (status === 401) return { error: 'Session ended' };
  return { error: status >= 500 ? 'Internal error' : status === 403 ? 'Forbidden' : 'Bad request' };
}

/** Redis unreachable (503): when to ask again, and never kept by a cache. */
export const unavailableHeaders = { 'retry-after': '5', 'cache-control': 'no-store' } as const;

/** Where "Try again" goes: the same page for a page view, else back to the journey. */
function retryHref(req: Request): string {
  return (req.method === 'GET' || req.method === 'HEAD') && req.originalUrl.startsWith(routePrefixes.journey) ? req.originalUrl : routes.start;
}

/** 503 while Redis cannot be reached: Retry-After, JSON to API callers, else the page without the session. */
function serviceUnavailable(deps: AppDeps): ErrorRequestHandler {
  return (err, req, res, _next) => {
    logFailure(deps.logger, err, 503);
    if (res.headersSent) return res.end();
    // The session cannot be read nor saved: the page shows nothing of the journey, and nothing tries to
    // write it back (express-session saves only a request that has one).
    delete (req as { session?: unknown }).session;
    res.status(503).set(unavailableHeaders);
    if (wantsJson(req)) return res.json(jsonErrorOf(503));
    try {
      sendPage(req, res, deps, {
        status: 503,
        progress: null,
        body: createElement(ServiceUnavailablePage, { t: translatorFor(req, deps), supportPhone: supportPhoneOf(req, deps), retryHref: retryHref(req) }),
      });
    } catch {
      res.type('text').send('Temporarily unavailable');
    }
  };
}

/** The status a failure is answered with: 503 while Redis cannot be reached, an error's own 4xx, else 500. */
export function failureStatusOf(err: unknown): number {
  if (isRedisUnavailable(err)) return 503;
  // An upstream's status is not the caller's: a brokerage session that has ended asks to identify again, anything
  // else (an outage, a refusal, a timeout) is a failure of ours, and the page says to try again.
  if (err instanceof SessionEnded) return 401;
  if (err instanceof UpstreamError) return 500;
  const status = (err as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
}

/** The log line of a failure answered with `status`: a 4xx is the caller's (its message only), a 5xx ours (type and stack). */
export function logFailure(logger: Pick<AppDeps['logger'], 'warn' | 'error'>, err: unknown, status: number): void {
  if (status === 503) logger.warn({ err }, 'redis unavailable: answered 503');
  else if (status >= 500) logger.error({ err }, 'request failed');
  else logger.warn({ status, message: (err as Error | undefined)?.message }, 'bad request');
}

/** What a JSON caller is sent for a failure answered with `status` (the event streams answer alike: server/pageKit/streams.ts). */
export function jsonFailure(status: number): { headers: Record<string, string>; body: { error: string } } {
  return { headers: status === 503 ? { ...unavailableHeaders } : {}, body: jsonErrorOf(status) };
}

export function errorHandler(deps: AppDeps): ErrorRequestHandler {
  const unavailable = serviceUnavailable(deps);
  return (err, req, res, next) => {
    if (isRedisUnavailable(err)) return unavailable(err, req, res, next);
    const status = failureStatusOf(err);
    logFailure(deps.logger, err, status);
    if (res.headersSent) return res.end();
    if (wantsJson(req)) return res.status(status).json(jsonFailure(status).body);
    const t = translatorFor(req, deps);
    try {
      sendPage(req, res, deps, {
        status,
        progress: null,
        body:
          err instanceof CsrfRefusedError
            ? createElement(RequestRefusedPage, { t })
            : err instanceof UpstreamError
              ? createElement(UpstreamFailurePage, { t, sessionEnded: err instanceof SessionEnded, retryHref: retryHref(req) })
              : createElement(GenericErrorPage, { t, supportPhone: supportPhoneOf(req, deps) }),
      });
    } catch {
      res.status(status).type('text').send('Something went wrong');
    }
  };
}

/** A path naming a file (favicon.ico, apple-touch-icon.png, robots.txt, a missing build file). */
const filePath = /\.[a-z0-9]{1,8}$/i;

/**
 * identification-routing-creation §2: any other page redirects to Onboarding. Not a file: browsers fetch /favicon.ico and touch
 * icons on their own, with the session cookie, and a redirect would run the Onboarding page for them
 * (a BankID collect, even the identification) beside the person's own requests.
 */
export function fallbackRedirect(): RequestHandler {
  return (req, res) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && !filePath.test(req.path)) return res.redirect(302, routes.start);
    res.status(404).json({ error: 'Not found' });
  };
}

/**
 * The answer to a request the per-session lock refused (server/infra/sessionLocks.ts): another request
 * of the same person still ran for SESSION_LOCK_WAIT_MS, or the lock store could not be reached. Nothing
 * was changed. 503 with Retry-After; JSON callers get JSON (the BankID island polls again on its next
 * tick), browsers a translated "please try again" whose button repeats a page view or, after a post,
 * goes back to the journey.
 */
export function sessionBusy(deps: AppDeps): RefuseHandler {
  const unavailable = serviceUnavailable(deps);
  return (req, res, why) => {
    // The lock store (Redis) could not be reached: the same temporarily-unavailable answer as any store failure.
    if (why === 'unavailable') return unavailable(new RedisUnavailableError('session lock store unreachable'), req, res, () => {});
    res.status(503).set('retry-after', '1');
    if (wantsJson(req)) return void res.json({ error: 'Busy, try again' });
    sendPage(req, res, deps, { status: 503, progress: null, body: createElement(SessionBusyPage, { t: translatorFor(req, deps), retryHref: retryHref(req) }) });
  };
}
