// The signing service's cancel and postpone returns (customer-information §2.1 "Return routes used after
// signing", §4.8). Each names the signing order it returns from (our key, shared/signingReturn.ts), ends that
// order in the session, so the next Sign asks for a new signing URL instead of re-opening a cancelled or
// postponed one, and goes on: cancel to the onboarding-cancel page, postpone to the page itself.
//
// A GET that writes: the return is a browser redirect, the signing service's only way to tell us. It writes
// only the identified person's own session (under the session lock, which covers every customer-information
// path but the page views declared read-only in server/app.ts), only for the order its key names (a stale return cannot end a newer order), the same however often
// it is repeated, and calls nothing upstream.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { ownedJourney, redirectAfterSave } from '../../pages.ts';
import type { Journey } from '../../journey.ts';
import type { SigningOrderState } from '../../../shared/signingReturn.ts';
import { routePatterns, routes } from '../../../shared/routes.ts';

const orderQuery = z.object({ order: z.string().min(1).max(64) });

/** Ends the kept signing order the return names (step flow or legacy form); answers whether one was ended. */
function endOrder(journey: Journey, req: Request, ended: NonNullable<SigningOrderState['ended']>): boolean {
  const query = orderQuery.safeParse(req.query);
  const answers = journey.customerInformation?.answers;
  if (!query.success || !answers) return false;
  let found = false;
  for (const kept of [answers.milestoneThree, answers.legacy]) {
    if (kept?.orderKey !== query.data.order || kept.ended) continue;
    kept.ended = ended;
    found = true;
  }
  return found;
}

export function signingReturnRoutes(): Router {
  const router = Router();

  const returnRoute = (ended: 'cancelled' | 'postponed', next: (prospectId: string, webview: boolean) => string) => (req: Request, res: Response) => {
    const prospectId = String(req.params.prospectId);
    const journey = ownedJourney(req, prospectId);
    const to = next(prospectId, req.session?.journey?.webview ?? false);
    if (journey && endOrder(journey, req, ended)) return redirectAfterSave(req, res, to);
    res.redirect(303, to);
  };

  // Cancelled: the cancel page; in the native app's webview the journey ends on the app's close route instead
  // (identification-routing-creation §2: OnboardingCloseSignupInApp), never on a web page of ours.
  router.get(
    routePatterns.signingCancelled,
    returnRoute('cancelled', (_prospectId, webview) => (webview ? routes.closeSignupInApp : routes.cancel)),
  );
  router.get(
    routePatterns.signingPostponed,
    returnRoute('postponed', (prospectId) => routes.customerInformation(prospectId)),
  );
  return router;
}
