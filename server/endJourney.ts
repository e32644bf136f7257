// Ending the journey on the person's request: Exit of the abort modal (customer-information §2, identification-
// routing-creation §2 "Abort modal") and Return to site of the status page (identification-routing-creation §2
// "Application status page"). The person's brokerage sessions end upstream with their own access token
// (identification-routing-creation §7 logout: DELETE sessions/current and DELETE /api/2/login, a 401 ignored),
// then our session is destroyed and its cookie cleared, so nothing on this browser or upstream stays signed in.
import type { Request, Response } from 'express';
import type { AppDeps } from './deps.ts';
import { UpstreamError } from './upstream/http.ts';
import { clearSessionCookie } from './session.ts';

/**
 * How long Exit waits for the upstream logout. The person is leaving: a slow upstream must not hold the
 * page, and the calls go on in the background until their own timeout (UPSTREAM_TIMEOUT_MS).
 */
export const LOGOUT_WAIT_MS = 3000;

/**
 * Both logout calls with the person's access token. Logout ignores a 401, also the one of an access token
 * that has expired (the person sat 30 minutes on a page), which would leave the session alive; so then the
 * refresh token is asked: a 401 shows the session has ended, a new access token that it is alive, and it
 * is logged out with that one.
 */
async function logout(deps: AppDeps, jwt: string, refreshToken: string | undefined): Promise<void> {
  // A failure is logged and the check below still runs: the other call may have ended the session.
  await deps.brokerage.logout(jwt).catch((err: unknown) => logFailure(deps, err));
  if (refreshToken) {
    let fresh: string;
    try {
      fresh = (await deps.brokerage.refreshToken(refreshToken)).jwt;
    } catch (err) {
      // Ended: whichever call ended it, nothing is left alive.
      if (err instanceof UpstreamError && err.status === 401) return;
      throw err;
    }
    await deps.brokerage.logout(fresh);
  }
}

function logFailure(deps: AppDeps, err: unknown): void {
  deps.logger.warn({ upstream: 'brokerage', status: err instanceof UpstreamError ? err.status : undefined }, 'logout on exit failed');
}

/** Logs the person out upstream, waiting at most LOGOUT_WAIT_MS; never throws. Logs no token or personal data. */
async function logoutUpstream(deps: AppDeps, jwt: string, refreshToken: string | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = logout(deps, jwt, refreshToken).then(
    () => 'done' as const,
    (err: unknown) => {
      logFailure(deps, err);
      return 'failed' as const;
    },
  );
  const waited = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.min(LOGOUT_WAIT_MS, deps.config.UPSTREAM_TIMEOUT_MS));
  });
  const first = await Promise.race([outcome, waited]);
  clearTimeout(timer);
  if (first === 'late') deps.logger.warn({ upstream: 'brokerage' }, 'logout on exit still running; exit goes on');
}

/** Ends the person's upstream sessions, then ours, and redirects (303) to `to`. */
export async function endJourney(req: Request, res: Response, deps: AppDeps, to: string): Promise<void> {
  const journey = req.session?.journey;
  if (journey?.jwt) await logoutUpstream(deps, journey.jwt, journey.refreshToken);
  await new Promise<void>((resolve) => {
    if (!req.session) return resolve();
    req.session.destroy((err?: Error) => {
      // The cookie is cleared below either way: the browser forgets the session, the store's TTL ends it.
      if (err) deps.logger.warn({ err: { message: err.message } }, 'session destroy on exit failed');
      resolve();
    });
  });
  clearSessionCookie(res, deps.config.cookieSecure);
  res.redirect(303, to);
}
