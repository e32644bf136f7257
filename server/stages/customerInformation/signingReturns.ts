// The signing service's cancel and postpone returns (customer-information §2.1, §4.8): GETs that write, since a
// browser redirect is the signing service's only way to tell us. Each ends, in the person's own session, the signing
// order its key names (shared/signingReturn.ts; a stale return cannot end a newer one), so the next Sign asks for a new
// signing URL; then cancel goes to the cancel page, postpone to the page itself. Idempotent; nothing upstream.
import type { Request } from 'express';
import { z } from 'zod';
import type { Journey } from '../../journey.ts';
import { definePage, redirect } from '../../pageKit/definePage.ts';
import type { SigningOrderState } from '../../../shared/signingReturn.ts';
import { routes } from '../../../shared/routes.ts';

const orderQuery = z.object({ order: z.string().min(1).max(64) });

/** Ends the kept signing order the return names (step flow or legacy form). */
function endOrder(journey: Journey, req: Request, ended: NonNullable<SigningOrderState['ended']>): void {
  const query = orderQuery.safeParse(req.query);
  const answers = journey.customerInformation?.answers;
  if (!query.success || !answers) return;
  for (const kept of [answers.milestoneThree, answers.legacy]) {
    if (kept?.orderKey === query.data.order && !kept.ended) kept.ended = ended;
  }
}

// Cancelled: the cancel page; in the native app's webview the journey ends on the app's close route instead
// (identification-routing-creation §2: OnboardingCloseSignupInApp), never on a web page of ours.
const signingCancelledPage = definePage({
  route: 'signingCancelled',
  access: 'ownsProspect',
  session: 'writes',
  get: ({ req, journey }) => {
    endOrder(journey, req, 'cancelled');
    return redirect(journey.webview ? routes.closeSignupInApp : routes.cancel);
  },
});

const signingPostponedPage = definePage({
  route: 'signingPostponed',
  access: 'ownsProspect',
  session: 'writes',
  get: ({ req, params, journey }) => {
    endOrder(journey, req, 'postponed');
    return redirect(routes.customerInformation(params.prospectId));
  },
});

export const signingReturnPages = [signingCancelledPage, signingPostponedPage];
