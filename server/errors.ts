// The one error-handling middleware: log without personal data, answer JSON to API callers and a
// friendly page to browsers. Never leaks a stack trace.
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { AppDeps } from './deps.ts';
import { sendPage, translatorFor } from './pages.ts';
import { GenericErrorPage } from '../views/pages/FeedbackPages.tsx';
import { createElement } from 'react';

function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json' || req.path.endsWith('/status') || req.path.endsWith('/events');
}

export function errorHandler(deps: AppDeps): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const status = typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status >= 500) deps.logger.error({ err: { message: err?.message, name: err?.name, stack: err?.stack } }, 'request failed');
    else deps.logger.warn({ status, message: err?.message }, 'bad request');
    if (res.headersSent) return res.end();
    if (wantsJson(req)) return res.status(status).json({ error: status >= 500 ? 'Internal error' : 'Bad request' });
    try {
      sendPage(req, res, deps, {
        status,
        progress: null,
        body: createElement(GenericErrorPage, { t: translatorFor(req, deps), supportPhone: deps.config.SUPPORT_PHONE }),
      });
    } catch {
      res.status(status).type('text').send('Something went wrong');
    }
  };
}

/** A path naming a file (favicon.ico, apple-touch-icon.png, robots.txt, a missing build file). */
const filePath = /\.[a-z0-9]{1,8}$/i;

/**
 * Spec §2: any other page redirects to Onboarding. Not a file: browsers fetch /favicon.ico and touch
 * icons on their own, with the session cookie, and a redirect would run the Onboarding page for them
 * (a BankID collect, even the identification) beside the person's own requests.
 */
export function fallbackRedirect(): RequestHandler {
  return (req, res) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && !filePath.test(req.path)) return res.redirect(302, '/onboarding');
    res.status(404).json({ error: 'Not found' });
  };
}
