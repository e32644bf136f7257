// Onboarding (the start path), the identification stage's entry: the customer type choice, the business / minor
// account type lists, then the country's identification view or an identification error screen
// (identification-routing-creation §2 "Customer type selection", "Business account type list", "Minor account type
// list", "Identification error screens"). The broker's return to this path is answered first (oidcPage.tsx).
import type { Request } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { applyEntryQuery, countryOf, faqUrlOf, journeyOf, keepEntryValues, peekJourney, publicOriginOf, shellFor } from '../../pages.ts';
import { definePage, page, redirect } from '../../pageKit/definePage.ts';
import { readCookie, setLocaleCookie } from '../../cookies.ts';
import { AccountTypeListPage, CustomerTypePage, type AccountTypeCardView } from '../../../views/pages/CustomerTypePageView.tsx';
import { accountTypeList, externalFormUrl, type ExternalApplicantType } from '../../../shared/accountTypeLists.ts';
import { detectInAppBrowser, externalBrowserUrl, trackingParams } from '../../../shared/inAppBrowser.ts';
import { routes, withQuery } from '../../../shared/routes.ts';
import { carriedValue, carryQuery } from '../../../shared/carriedQuery.ts';
import { identificationErrorPage } from './identificationErrorPage.tsx';
import { identification, startIdentification } from './identificationPage.tsx';
import { endBankidAttempt } from './bankidPage.tsx';
import { brokerReturn } from './oidcPage.tsx';

const finnishLang = z.object({ lang: z.enum(['sv', 'fi']) });

/**
 * The entry query carried on (identification-routing-creation §3 queryParams), merged into what the journey
 * already carries, under the limits of shared/carriedQuery.ts: a value the legacy signature request could not
 * carry is dropped here, at entry, with a log line naming the parameter (never its value).
 */
function carriedQuery(req: Request, deps: AppDeps, already: Record<string, string>): Record<string, string> {
  const { kept, dropped } = carryQuery(req.query, already);
  if (dropped.length > 0) deps.logger.info({ dropped }, 'entry value dropped: over the carried query limits');
  return kept;
}

/** The Private card's hand-off link when the page is open in a social app's in-app browser, else null. */
function privateHandoffUrl(req: Request, deps: AppDeps, carried: Record<string, string>): string | null {
  if (!deps.config.FLAG_IN_APP_BROWSER_HANDOFF) return null;
  const inApp = detectInAppBrowser(req.get('user-agent'));
  if (!inApp) return null;
  const query = { ...carried };
  // The tracking ids may live only in this browser's cookies, which the external browser cannot read.
  for (const name of trackingParams) {
    const cookie = readCookie(req, name);
    if (!query[name] && cookie && carriedValue.safeParse(cookie).success) query[name] = cookie;
  }
  // Our configured origin for the host the person is on (server/origins.ts), never the Host header as sent.
  return externalBrowserUrl(inApp.platform, publicOriginOf(req, deps), routes.start, query);
}

const startPage = definePage({
  route: 'start',
  access: 'anyone',
  // It may collect the session's BankID order, takes the broker's answer, and keeps entry values.
  session: 'writes',
  get: async ({ req, res, deps }) => {
    const returned = await brokerReturn(req, res, deps);
    if (returned) return returned;

    // FI (identification-routing-creation §4): lang sv or fi switches the locale cookie and reloads without lang, so the
    // native app's webview and later visits keep the language.
    const fiLang = finnishLang.safeParse(req.query);
    if (countryOf(req, deps) === 'FI' && fiLang.success) {
      const locale = fiLang.data.lang === 'sv' ? 'sv-FI' : 'fi-FI';
      setLocaleCookie(res, locale, deps.config.cookieSecure);
      keepEntryValues(req, res, deps, { locale });
      // Our own start path with the query re-encoded, never the request line itself (the requester's text, which
      // may be an absolute URL): identification-routing-creation §4 "Redirect sanitising".
      const query = new URL(req.originalUrl, publicOriginOf(req, deps)).searchParams;
      query.delete('lang');
      return redirect(withQuery(routes.start, query.toString()), 302);
    }

    // A page view only reads the journey: entry values worth keeping (lang, webview, campaign, the carried query such
    // as tracking ids) go into the visit cookie until the person identifies (server/visit.ts); no page view stores a
    // session for someone who has not identified. The logout of current sessions happens once per identification
    // (identified.ts).
    applyEntryQuery(req, res, deps);
    const before = peekJourney(req, deps).queryParams;
    const carried = carriedQuery(req, deps, before);
    if (JSON.stringify(carried) !== JSON.stringify(before)) keepEntryValues(req, res, deps, { queryParams: carried });
    const journey = peekJourney(req, deps);

    if (journey.identificationError) return page(identificationErrorPage(req, deps, journey.identificationError));
    if (journey.customerType === 'corporate' || journey.customerType === 'minor') {
      return page({
        progress: 1,
        funnel: { step: 'start', screen: 'accountTypes' },
        body: accountTypeListPage(req, deps, journey.customerType),
      });
    }
    if (journey.customerType === 'private') return identification(req, deps);
    const t = shellFor(req, deps).t;
    const handoffUrl = privateHandoffUrl(req, deps, carried);
    return page({
      progress: 1,
      funnel: { step: 'start', screen: 'customerType' },
      entry: true,
      body: <CustomerTypePage t={t} action={routes.customerType} loginUrl={deps.config.LOGIN_URL} privateHandoffUrl={handoffUrl} />,
      // The busiest page: the same for everyone of a locale, market, campaign, banner state …, but in a social app's
      // in-app browser, whose hand-off link carries the person's own query.
      ...(handoffUrl === null ? { cacheAs: 'customer-type' } : {}),
    });
  },
});

const customerTypePage = definePage({
  route: 'customerType',
  access: 'anyone',
  // Choosing Private starts a BankID order: two overlapping choices must not leave one running unseen.
  session: 'writes',
  post: {
    body: z.object({ customerType: z.enum(['private', 'corporate', 'minor', 'none']) }),
    invalid: () => redirect(routes.start),
    handle: async ({ req, deps }, { customerType }) => {
      const journey = journeyOf(req, deps);
      journey.customerType = customerType;
      // Choosing (or resetting) the applicant type starts identification afresh: a running BankID order is cancelled,
      // and choosing Private is the click that starts the next one where it can.
      delete journey.identificationError;
      await endBankidAttempt(deps, journey);
      if (journey.customerType === 'private') await startIdentification(req, deps, journey);
      return redirect(routes.start);
    },
  },
});

export const startPages = [startPage, customerTypePage];

function accountTypeListPage(req: Request, deps: AppDeps, applicant: ExternalApplicantType) {
  const { config } = deps;
  const country = peekJourney(req, deps).country;
  const base = applicant === 'corporate' ? config.BUSINESS_FORM_URL : config.MINOR_FORM_URL;
  const cards: AccountTypeCardView[] = accountTypeList(applicant, country).map((c) => ({
    ...c,
    href: c.destination === 'infoPage' ? config.OCCUPATIONAL_PENSION_INFO_URL : externalFormUrl(base, country, c.type),
  }));
  return (
    <AccountTypeListPage
      t={shellFor(req, deps).t}
      applicant={applicant}
      cards={cards}
      accountTypesUrl={config.ACCOUNT_TYPES_INFO_URL ?? `${faqUrlOf(req, deps)}#account-types`}
      depositGuaranteeUrl={config.DEPOSIT_GUARANTEE_URL ?? `${faqUrlOf(req, deps)}#deposit-guarantee`}
    />
  );
}
