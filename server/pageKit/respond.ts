// The one responder: a handler's Outcome (server/pageKit/definePage.ts) becomes the answer. Thrown errors go on to
// the app's error handler (server/errors.ts), which answers them for every page alike.
import type { Request, Response } from 'express';
import type { AppDeps } from '../deps.ts';
import type { Outcome } from './definePage.ts';
import { redirectAfterSave, sendPage } from '../pages.ts';
import { wantsJson } from '../errors.ts';

export function respond(req: Request, res: Response, deps: AppDeps, outcome: Outcome, writes: boolean): void {
  switch (outcome.kind) {
    case 'page':
      return sendPage(req, res, deps, outcome.options);
    case 'redirect':
      // A page that writes saves the person's session before the browser is sent on (the next request may reach
      // another web process); a visitor without a journey has nothing to save, and no session is stored for them.
      if (writes && req.session?.journey) return redirectAfterSave(req, res, outcome.to, outcome.status);
      return res.redirect(outcome.status, outcome.to);
    case 'json':
      res
        .status(outcome.status)
        .set({ 'cache-control': 'no-store', ...outcome.headers })
        .json(outcome.body);
      return;
    case 'byCaller':
      return respond(req, res, deps, wantsJson(req) ? outcome.json : outcome.page, writes);
    case 'answered':
      return;
  }
}
