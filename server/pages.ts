// Per-request page helpers: the journey in the session, the translator, and sending a rendered page.
import type { Request, Response } from 'express';
import type { ReactElement } from 'react';
import { createElement } from 'react';
import { z } from 'zod';
import { initialLocale, isLocale, localeFromLang, type Locale, type Translate } from '../shared/i18n.ts';
import { campaignOf, MAX_USP_ITEMS, signupImageFor, visibleUsps } from '../shared/shell.ts';
import { LOCALE_COOKIE, readCookie } from './cookies.ts';
import { Layout, type ProgressStep, type ShellContext } from '../views/Layout.tsx';
import { renderPage } from './render.tsx';
import { isIdentified, newJourney, type Journey } from './journey.ts';
import { keepVisit, visitOf, type KeptVisit } from './visit.ts';
import type { CountryCode } from '../shared/contracts/brokerageContract.ts';
import type { AppDeps } from './deps.ts';
import { ownOriginOf } from './origins.ts';
import { csrfTokenFor } from './csrfProtection.ts';
import { routes } from '../shared/routes.ts';
import { forMarket } from '../shared/markets.ts';
import { systemBanners } from '../shared/systemStatus.ts';
import { systemStatusOf } from './infra/systemStatusCache.ts';
import { createPageCache, type PageCache } from './pageCache.ts';
import { brotliPage } from './pageCompression.ts';

/** The market is chosen by host name (one domain per country); a missing or unknown host gets DEFAULT_COUNTRY. */
export function countryOf(req: Request, deps: AppDeps): CountryCode {
  return ownOriginOf(req, deps.config).country ?? deps.config.DEFAULT_COUNTRY;
}

/**
 * Our own origin as the browser sees it, for URLs that must bring the browser back to this host (its
 * session cookie is per host): the configured origin whose host equals the request's exactly, else
 * PUBLIC_URL's. Built from configuration only (server/origins.ts), never from the headers as sent.
 */
export function publicOriginOf(req: Request, deps: AppDeps): string {
  return ownOriginOf(req, deps.config).origin;
}

/** The visit cookie's values over the journey's (server/visit.ts); its entry query is added to the journey's. */
function visitValues(journey: Journey, req: Request, deps: AppDeps): Partial<Journey> {
  const kept = visitOf(req, deps.config);
  return kept.queryParams ? { ...kept, queryParams: { ...journey.queryParams, ...kept.queryParams } } : kept;
}

/**
 * The session's journey, created when missing: for requests that change it (a POST by the person's click).
 * Until the person identifies, the visit's values (language, webview, campaign, entry query) are the visit
 * cookie's and are copied in, so the identification that follows keeps them in the session.
 */
export function journeyOf(req: Request, deps: AppDeps): Journey {
  if (!req.session.journey) req.session.journey = newJourney(countryOf(req, deps));
  const journey = req.session.journey;
  if (!isIdentified(journey)) Object.assign(journey, visitValues(journey, req, deps));
  return journey;
}

/**
 * The journey to read, without creating one: a page view of a visitor without a journey stores no
 * session and sets no cookie (a stranger's GETs must not fill Redis). Changes to it are not kept.
 */
export function peekJourney(req: Request, deps: AppDeps): Readonly<Journey> {
  const journey = req.session?.journey;
  if (isIdentified(journey)) return journey;
  const base = journey ?? newJourney(countryOf(req, deps));
  return { ...base, ...visitValues(base, req, deps) };
}

/**
 * Keeps entry values a GET brought (identification-routing-creation §2 route queries, §3 queryParams): in
 * the visit cookie before the person identifies, which stores no session; in the identified person's
 * session journey after (as before, so a later language choice reaches the steps). The entry query is
 * added to what was kept.
 */
export function keepEntryValues(req: Request, res: Response, deps: AppDeps, values: KeptVisit): void {
  const journey = req.session?.journey;
  if (!isIdentified(journey)) return keepVisit(req, res, deps.config, values);
  const { queryParams, ...rest } = values;
  Object.assign(journey, rest);
  if (queryParams) journey.queryParams = { ...journey.queryParams, ...queryParams };
}

const entryQuery = z.object({
  lang: z.string().max(8).optional(),
  webview: z.enum(['true', 'false']).optional(),
  campaign: z.string().max(32).optional(),
});

/** Reads lang, webview and campaign from any page's query (identification-routing-creation §2 route queries) and keeps them. */
export function applyEntryQuery(req: Request, res: Response, deps: AppDeps): void {
  const parsed = entryQuery.safeParse(req.query);
  if (!parsed.success) return;
  const locale = parsed.data.lang ? localeFromLang(parsed.data.lang, peekJourney(req, deps).country) : undefined;
  const campaign = campaignOf(parsed.data.campaign);
  if (!locale && !parsed.data.webview && !campaign) return;
  keepEntryValues(req, res, deps, {
    ...(locale ? { locale } : {}),
    ...(parsed.data.webview ? { webview: parsed.data.webview === 'true' } : {}),
    ...(campaign ? { campaign } : {}),
  });
}

export function localeOf(req: Request, deps: AppDeps): Locale {
  return journeyLocale(peekJourney(req, deps), readCookie(req, LOCALE_COOKIE), deps);
}

/** A journey's language: its own choice, else the locale cookie's (`cookie`), else the market's default. */
export function journeyLocale(journey: Readonly<Journey>, cookie: string | undefined, deps: AppDeps): Locale {
  return journey.locale ?? (isLocale(cookie) ? cookie : initialLocale(deps.config.DEFAULT_LOCALE, journey.country));
}

export function translatorFor(req: Request, deps: AppDeps): Translate {
  return deps.i18n.translator(localeOf(req, deps));
}

/** The support number of the person's market (SUPPORT_PHONE_<market>): the journey's country, else the host's. */
export function supportPhoneOf(req: Request, deps: AppDeps): string {
  return forMarket(deps.config.supportPhones, peekJourney(req, deps).country);
}

/** The FAQ of the person's market (FAQ_URL_<market>, identification-routing-creation §2 route FAQ). */
export function faqUrlOf(req: Request, deps: AppDeps): string {
  return forMarket(deps.config.faqUrls, peekJourney(req, deps).country);
}

/** `webview`: the page is in the app's webview though the journey does not say so (the page's own query). */
export function shellFor(req: Request, deps: AppDeps, options: { hideClose?: boolean; webview?: boolean } = {}): ShellContext {
  const journey = peekJourney(req, deps);
  const webview = options.webview ?? journey.webview;
  const t = translatorFor(req, deps);
  return {
    t,
    supportPhone: supportPhoneOf(req, deps),
    faqUrl: faqUrlOf(req, deps),
    homeUrl: deps.config.HOME_URL,
    // The X ends the session on the way out (routes.leave): the next person on a shared device starts afresh.
    closeUrl: options.hideClose ? null : routes.leave({ webview }),
    showBack: journey.customerType !== 'none',
    signupImage: signupImageFor(journey.campaign ?? readCookie(req, 'campaign')),
    backgroundUrl: deps.content.backgroundUrl(),
    usps: visibleUsps(Array.from({ length: MAX_USP_ITEMS }, (_, i) => t(`shell.usp.${i + 1}`))),
    // express-session sets a Secure cookie only on a secure request (https, or a trusted proxy's X-Forwarded-Proto).
    ...(deps.config.cookieSecure && !req.secure ? { sessionCookieRefused: true } : {}),
  };
}

export interface PageOptions {
  body: ReactElement;
  progress: ProgressStep | null;
  /** The bar's current step shown as failed (the error feedback page). */
  progressFailed?: boolean;
  header?: ReactElement;
  status?: number;
  noscriptRefreshSeconds?: number;
  hideClose?: boolean;
  showDisclaimer?: boolean;
  /** Shown inside the app (embedded=true): the content alone, without the site's header, panels and footer. */
  embedded?: boolean;
  /** In the app's webview by the page's own query: the Close X leads to the app's close route. */
  webview?: boolean;
  /** The page shows the maintenance banner itself (the creation page's creationPaused outcome): the shell leaves its own out. */
  ownMaintenanceBanner?: boolean;
  /**
   * The body's (and header's) markup follows from the shell (its translator, so the locale), the app's config and this
   * text alone: the page is then rendered once per this text, shell, locale and options, and served from
   * server/pageCache.ts with the request's own nonce and anti-forgery token.
   */
  cacheAs?: string;
  /** The journey's entry page: most visits are first visits, so it carries the stylesheet inline (server/render.tsx). */
  entry?: boolean;
  /** The journey's step and screen this page shows, counted in the metrics' funnel when a GET renders it (names of ours only). */
  funnel?: { step: string; screen: string };
}

// Per app (its config, content and build): tests run several apps in one process.
const pageCaches = new WeakMap<AppDeps, PageCache>();

export function sendPage(req: Request, res: Response, deps: AppDeps, options: PageOptions): void {
  // Every render of a screen by a GET (a page's own refresh included), not the re-render of a post with its errors.
  if (deps.metrics && options.funnel && req.method === 'GET' && (options.status ?? 200) < 400) {
    const journey = peekJourney(req, deps);
    deps.metrics.funnelScreen({ ...options.funnel, market: journey.country, webview: options.webview ?? journey.webview });
  }
  const banners = systemBanners(systemStatusOf(res));
  const shell = {
    ...shellFor(req, deps, { hideClose: options.hideClose, webview: options.webview }),
    systemBanners: { ...banners, maintenance: banners.maintenance && !options.ownMaintenanceBanner },
  };
  const locale = localeOf(req, deps);
  const canonicalUrl = `${publicOriginOf(req, deps)}${routes.start}`;
  const render = (perRequest: { nonce: string; csrfToken: () => string }) =>
    renderPage({
      manifest: deps.manifest,
      nonce: perRequest.nonce,
      locale,
      title: shell.t('meta.title'),
      description: shell.t('meta.description'),
      canonicalUrl,
      noscriptRefreshSeconds: options.noscriptRefreshSeconds,
      csrfToken: perRequest.csrfToken,
      inlineStyles: options.entry,
      body: createElement(Layout, {
        shell,
        progress: options.progress,
        progressFailed: options.progressFailed,
        header: options.header,
        showDisclaimer: options.showDisclaimer,
        embedded: options.embedded,
        children: options.body,
      }),
    });
  const nonce = res.locals.nonce as string;
  // Asked for (and its cookie set) only when the page renders a post form.
  const csrfToken = () => csrfTokenFor(req, res, deps.config);
  let html: string;
  if (options.cacheAs === undefined || !deps.config.PAGE_CACHE) html = render({ nonce, csrfToken });
  else {
    let cache = pageCaches.get(deps);
    if (!cache) pageCaches.set(deps, (cache = createPageCache()));
    // Everything the markup follows from: the shell's values (its translator, a function, drops out: the locale
    // stands for it), the options but the body, which cacheAs stands for.
    const key = JSON.stringify({ shell, locale, canonicalUrl, options: { ...options, body: undefined, header: undefined } });
    html = cache.page(key, render, nonce, csrfToken);
  }
  res
    .status(options.status ?? 200)
    .type('html')
    .set('cache-control', 'no-store');
  const brotli = brotliPage(req, html);
  if (brotli === null) {
    res.send(html);
    return;
  }
  res.vary('Accept-Encoding').set('content-encoding', 'br').send(brotli);
}

/** Saves the session before redirecting, so the next request (maybe on another web process) sees it. */
export function redirectAfterSave(req: Request, res: Response, url: string, status = 303): void {
  req.session.save((err) => {
    if (err) {
      // To the error middleware: Redis unreachable answers its 503 page (server/errors.ts), else the error page.
      if (req.next) return req.next(err);
      res.status(500).end();
      return;
    }
    res.redirect(status, url);
  });
}
