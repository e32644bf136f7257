// Who may use a page (server/pageKit/definePage.ts Access), and the one refusal for each kind of caller.
import type { Request, Response } from 'express';
import { createElement } from 'react';
import type { AppDeps } from '../deps.ts';
import { isIdentified, type Journey } from '../journey.ts';
import type { Access } from './definePage.ts';
import { sendPage, translatorFor } from '../pages.ts';
import { wantsJson } from '../errors.ts';
import { readCookie } from '../cookies.ts';
import { sessionCookieName } from '../session.ts';
import { routes } from '../../shared/routes.ts';
import { StepError } from '../../views/pages/CustomerInformationPageView.tsx';

/**
 * The journey `access` lets through, or null when it refuses: `anyone` passes with no journey to rely on (the handler
 * peeks or creates one itself), `identified` needs a person identified here, `ownsProspect` that person's prospect
 * to be the one the route names.
 */
export function journeyAllowed(access: Access, journey: Journey | undefined, prospectId: string | undefined): Journey | undefined | null {
  if (access === 'anyone') return undefined;
  if (!isIdentified(journey)) return null;
  if (access === 'ownsProspect' && journey.prospectId !== prospectId) return null;
  return journey;
}

/** The session id the browser's cookie names (express-session's `s:<id>.<signature>`), unverified. */
function sentSessionId(req: Request, deps: AppDeps): string | undefined {
  const sent = readCookie(req, sessionCookieName(deps.config.cookieSecure));
  return sent?.startsWith('s:') ? sent.slice(2, sent.lastIndexOf('.')) : undefined;
}

/**
 * A refused request: a JSON caller (an island's poll) gets 403; a post from a browser whose session has expired
 * meanwhile (its cookie names a session the store no longer has) is told so, since what it posted was not kept;
 * anything else goes to the start of the journey, which stores nothing for a stranger.
 */
export function refuse(req: Request, res: Response, deps: AppDeps): void {
  if (wantsJson(req)) return void res.status(403).json({ error: 'forbidden' });
  const sentId = sentSessionId(req, deps);
  if (req.method === 'POST' && sentId && sentId !== req.sessionID) {
    return sendPage(req, res, deps, {
      progress: null,
      status: 401,
      body: createElement(StepError, { t: translatorFor(req, deps), kind: 'SESSION_EXPIRED_ERROR' }),
    });
  }
  res.redirect(303, routes.start);
}
