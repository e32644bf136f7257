// Result and hand-off routes: cancel feedback, nightly downtime and the in-app spinner routes
// (identification-routing-creation §2 routes). The status page is server/stages/caseStatus/.
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { peekJourney, sendPage, supportPhoneOf, translatorFor, localeOf, type PageOptions } from '../../pages.ts';
import { feedbackProgress } from '../../../shared/onboardingProgress.ts';
import { FeedbackPage, NightlyDowntimePage } from '../../../views/pages/FeedbackPageViews.tsx';
import { nextBankingDay } from '../../../shared/bankingDays.ts';
import { routePatterns, routes } from '../../../shared/routes.ts';

const nightlyQuery = z.object({
  justCompletedSignup: z.enum(['true', 'false']).optional(),
  embedded: z.enum(['true', 'false']).optional(),
  webview: z.enum(['true', 'false']).optional(),
});

/**
 * The feedback page (identification-routing-creation §2 "Customer creation screens"): cancel at progress step 3, error at
 * step 2 with the failed flag; Go back to the public site's home (HOME_URL: the spec's "/", which on our own host only
 * redirects to the start) and Try again to Onboarding.
 */
export function feedbackPageOptions(variant: 'cancel' | 'error', req: Request, deps: AppDeps): PageOptions {
  const { step, failed } = feedbackProgress[variant];
  return {
    progress: step,
    progressFailed: failed,
    body: <FeedbackPage t={translatorFor(req, deps)} variant={variant} supportPhone={supportPhoneOf(req, deps)} homeUrl={deps.config.HOME_URL} />,
  };
}

export function resultRoutes(deps: AppDeps): Router {
  const router = Router();

  // The signing service's cancel_url: the cancel variant. In the native app's webview the journey ends on the app's
  // close route instead (OnboardingCloseSignupInApp), never on a web page of ours. OnboardingError: the error variant.
  router.get(routePatterns.cancel, (req, res) => {
    if (peekJourney(req, deps).webview) return res.redirect(303, routes.closeSignupInApp);
    sendPage(req, res, deps, feedbackPageOptions('cancel', req, deps));
  });
  router.get(routePatterns.error, (req, res) => sendPage(req, res, deps, feedbackPageOptions('error', req, deps)));

  router.get(routePatterns.nightlyDowntimeStatus, (req, res) => {
    const q = nightlyQuery.safeParse(req.query);
    // Reads only: a page view stores no session (the webview mode may come from the visit cookie).
    const journey = peekJourney(req, deps);
    const t = translatorFor(req, deps);
    const opensOn = nextBankingDay(new Date(deps.now()), journey.country);
    const date = new Intl.DateTimeFormat(localeOf(req, deps), { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
      new Date(`${opensOn}T12:00:00Z`),
    );
    const webview = (q.success && q.data.webview === 'true') || journey.webview;
    sendPage(req, res, deps, {
      progress: null,
      body: (
        <NightlyDowntimePage
          t={t}
          justCompletedSignup={q.success && q.data.justCompletedSignup === 'true'}
          opensAt={date}
          exitUrl={webview ? routes.closeSignupInApp : deps.config.HOME_URL}
          homeUrl={deps.config.HOME_URL}
        />
      ),
    });
  });

  // Spinner-only pages the native app watches for in its webview.
  for (const path of [routePatterns.loginInApp, routePatterns.closeSignupInApp]) {
    router.get(path, (req, res) => {
      const t = translatorFor(req, deps);
      sendPage(req, res, deps, {
        progress: null,
        showDisclaimer: false,
        body: (
          <div className="spinner" role="status">
            <span className="visually-hidden">{t('inApp.loading')}</span>
          </div>
        ),
      });
    });
  }

  return router;
}
