// Result and hand-off routes: cancel feedback, nightly downtime and the in-app spinner routes
// (identification-routing-creation §2 routes). The status page is server/stages/caseStatus/.
import type { Request } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { peekJourney, supportPhoneOf, translatorFor, localeOf, type PageOptions } from '../../pages.ts';
import { answered, definePage, page, redirect } from '../../pageKit/definePage.ts';
import { feedbackProgress } from '../../../shared/onboardingProgress.ts';
import { FeedbackPage, InAppSpinnerPage, NightlyDowntimePage } from '../../../views/pages/FeedbackPageViews.tsx';
import type { AccessOpening } from '../../../shared/bankingDays.ts';
import type { Locale } from '../../../shared/i18n.ts';
import type { CountryCode } from '../../../shared/contracts/brokerageContract.ts';
import { routes } from '../../../shared/routes.ts';
import { formatDate, formatTime } from '../../../shared/localeFormats.ts';
import { endJourney } from '../../endJourney.ts';
import { readCookie } from '../../cookies.ts';
import { sessionCookieName } from '../../session.ts';
import { visitCookieName } from '../../visit.ts';

// Each flag on its own: a garbled one is the page's default and leaves the others as sent.
const queryFlag = z.enum(['true', 'false']).optional().catch(undefined);
const nightlyQuery = z.object({ justCompletedSignup: queryFlag, embedded: queryFlag, webview: queryFlag });
const leaveQuery = z.object({ webview: queryFlag });

/** The opening time and date as the page's locale writes them, read on the market's clock. */
function openingTexts(opening: AccessOpening, locale: Locale): { time: string; date: string } {
  return { time: formatTime(locale, opening.at, opening.timeZone), date: formatDate(locale, opening.at, opening.timeZone) };
}

/**
 * The nightly-downtime page (identification-routing-creation §2 "Nightly-downtime page", §9): the title after a
 * signup or not, when access opens (06:00 on the market's next banking day, shared/bankingDays.ts) and Go to main
 * page and Exit. Embedded (embedded=true) it is the app's content: no site header, signup panel, disclaimer or
 * footer. In the app's webview (webview=true, or a journey begun in it) both buttons end on the app's close route,
 * as every webview ending does, never on a web page inside the app.
 */
function nightlyDowntimePageOptions(req: Request, deps: AppDeps, accessOpening: (now: Date, country: CountryCode) => AccessOpening): PageOptions {
  const parsed = nightlyQuery.safeParse(req.query);
  const q = parsed.success ? parsed.data : {};
  // Reads only: a page view stores no session (the webview mode may come from the visit cookie or the session).
  const journey = peekJourney(req, deps);
  const webview = q.webview === 'true' || journey.webview;
  const embedded = q.embedded === 'true';
  const opening = accessOpening(new Date(deps.now()), journey.country);
  // Both buttons leave through the route that ends the session (a shared device must not keep the person signed in).
  const leave = routes.leave({ webview });
  return {
    progress: null,
    embedded,
    webview,
    body: (
      <NightlyDowntimePage
        t={translatorFor(req, deps)}
        justCompletedSignup={q.justCompletedSignup === 'true'}
        opening={{ ...openingTexts(opening, localeOf(req, deps)), iso: opening.at.toISOString() }}
        homeUrl={leave}
        exitUrl={leave}
      />
    ),
  };
}

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

/** The signing service's cancel_url: the cancel variant; in the native app's webview its close route (OnboardingCloseSignupInApp). */
const cancelPage = definePage({
  route: 'cancel',
  access: 'anyone',
  session: 'reads',
  get: ({ req, deps }) => (peekJourney(req, deps).webview ? redirect(routes.closeSignupInApp) : page(feedbackPageOptions('cancel', req, deps))),
});

const errorPage = definePage({
  route: 'error',
  access: 'anyone',
  session: 'reads',
  get: ({ req, deps }) => page(feedbackPageOptions('error', req, deps)),
});

const nightlyDowntimePage = definePage({
  route: 'nightlyDowntimeStatus',
  access: 'anyone',
  session: 'reads',
  get: async ({ req, deps }) => {
    // The banking-day calendars (date-holidays with its time zones: a fifth of the server bundle) load with this
    // page's first view, not at every process start.
    const { accessOpening } = await import('../../../shared/bankingDays.ts');
    return page(nightlyDowntimePageOptions(req, deps, accessOpening));
  },
});

/**
 * Leaving (the Close X, the nightly-downtime page's buttons): a GET, so the X stays a plain link on every page, cached
 * ones too. It ends our session and the brokerage's (server/endJourney.ts), then goes to the bank's home, in the app's
 * webview to its close route. A navigation another site started (Sec-Fetch-Site cross-site or same-site) ends nothing.
 */
const leavePage = definePage({
  route: 'leave',
  access: 'anyone',
  session: 'writes',
  get: async ({ req, res, deps }) => {
    const asked = leaveQuery.safeParse(req.query);
    const webview = (asked.success && asked.data.webview === 'true') || peekJourney(req, deps).webview;
    const to = webview ? routes.closeSignupInApp : deps.config.HOME_URL;
    res.set('Cache-Control', 'no-store');
    const site = req.get('sec-fetch-site')?.trim().toLowerCase();
    // A visitor without a session or visit cookie has nothing to end, and is sent no cookie (not even a clearing one).
    const holdsCookies = [sessionCookieName(deps.config.cookieSecure), visitCookieName(deps.config.cookieSecure)].some((name) => readCookie(req, name));
    if (site === 'cross-site' || site === 'same-site' || !holdsCookies) return redirect(to);
    await endJourney(req, res, deps, to);
    return answered;
  },
});

/** Spinner-only pages the native app watches for in its webview. */
const inAppSpinner = (route: 'loginInApp' | 'closeSignupInApp') =>
  definePage({
    route,
    access: 'anyone',
    session: 'reads',
    get: ({ req, deps }) => {
      const t = translatorFor(req, deps);
      return page({ progress: null, showDisclaimer: false, body: <InAppSpinnerPage t={t} title={t(`inApp.title.${route}`)} /> });
    },
  });

export const resultPages = [cancelPage, errorPage, nightlyDowntimePage, leavePage, inAppSpinner('loginInApp'), inAppSpinner('closeSignupInApp')];
