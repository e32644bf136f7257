// Ending the journey on the person's request: Exit of the abort modal (customer-information §2,
// identification-routing-creation §2 "Abort modal") and Return to site of the status page (identification-routing-creation §2
// "Application status page"). The person's brokerage sessions end upstream with their own access token
// (identification-routing-creation §7 logout: DELETE sessions/current and DELETE /api/2/login, a 401 ignored),
// then our session is destroyed and its cookie cleared, so nothing on this browser or upstream stays signed in.
import type { Request, Response } from 'express';
import type { AppDeps } from './deps.ts';
import { UpstreamError } from './upstream/http.ts';
import { outsideRequest } from './infra/deadline.ts';
import { clearSessionCookie } from './session.ts';
import { clearVisitCookie } from './visit.ts';
import { routes } from '../shared/routes.ts';

/**
 * How long Exit waits for the upstream logout. The person is leaving: a slow upstream must not hold the
 * page, and the calls go on in the background until their own timeout (UPSTREAM_TIMEOUT_MS).
 */
export const LOGOUT_WAIT_MS = 3000;

/**
 * Ends a person's brokerage sessions upstream with their own credentials (a logout without them ends
 * nothing). The access token lives 30 minutes and logout ignores a 401, so an expired one would leave the
 * session alive: afterwards the refresh token is asked; a 401 shows the session has ended, a new access
 * token that it is alive, and it is logged out with that one.
 * Waits at most LOGOUT_WAIT_MS, then the calls go on in the background until their own timeout. Never
 * throws; logs no token or personal data. Used by Exit and by a new identification in the same browser.
 */
export async function endBrokerageSessions(
  deps: Pick<AppDeps, 'brokerage' | 'logger' | 'config'>,
  credentials: { jwt?: string; refreshToken?: string },
  reason: string,
): Promise<void> {
  const logFailure = (err: unknown) =>
    deps.logger.warn({ upstream: 'brokerage', status: err instanceof UpstreamError ? err.status : undefined, reason }, 'brokerage logout failed');
  const logout = async () => {
    // A failure is logged and the check below still runs: the other call may have ended the session.
    if (credentials.jwt) await deps.brokerage.logout(credentials.jwt).catch(logFailure);
    if (!credentials.refreshToken) return;
    let fresh: string;
    try {
      fresh = (await deps.brokerage.refreshToken(credentials.refreshToken)).jwt;
    } catch (err) {
      // Ended: whichever call ended it, nothing is left alive.
      if (err instanceof UpstreamError && err.status === 401) return;
      throw err;
    }
    // Still alive (the access token had expired, so its logout ended nothing): end it with a current one.
    await deps.brokerage.logout(fresh);
  };
  let timer: NodeJS.Timeout | undefined;
  // Outside the request: what is not done within the wait goes on in the background with the calls' own
  // timeouts, not cut off at the request's deadline (server/infra/deadline.ts) after the person has gone.
  const outcome = outsideRequest(logout).then(
    () => 'done' as const,
    (err: unknown) => {
      logFailure(err);
      return 'failed' as const;
    },
  );
  const waited = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.min(LOGOUT_WAIT_MS, deps.config.UPSTREAM_TIMEOUT_MS));
  });
  const first = await Promise.race([outcome, waited]);
  clearTimeout(timer);
  if (first === 'late') deps.logger.warn({ upstream: 'brokerage', reason }, 'brokerage logout still running; going on');
}

/**
 * Ends the person's upstream sessions, then ours, and redirects (303) to `to`; a journey in the native app's webview
 * to the app's close route instead (OnboardingCloseSignupInApp; identification-routing-creation §2, customer-information
 * §2 "Exit … in a webview to an in-app close route"): it ends on the app's route, never on a web page of ours.
 */
export async function endJourney(req: Request, res: Response, deps: AppDeps, to: string): Promise<void> {
  const journey = req.session?.journey;
  const target = journey?.webview ? routes.closeSignupInApp : to;
  if (journey?.jwt || journey?.refreshToken) await endBrokerageSessions(deps, journey, 'exit');
  await new Promise<void>((resolve) => {
    if (!req.session) return resolve();
    req.session.destroy((err?: Error) => {
      // The cookie is cleared below either way: the browser forgets the session, the store's TTL ends it.
      if (err) deps.logger.warn({ err }, 'session destroy on exit failed');
      resolve();
    });
  });
  clearSessionCookie(res, deps.config.cookieSecure);
  // The visit ends too: its language, webview and entry query are not the next visitor's (journey.ts VisitState).
  clearVisitCookie(res, deps.config.cookieSecure);
  res.redirect(303, target);
}
