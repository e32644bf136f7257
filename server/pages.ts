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
import { newJourney, type Journey } from './journey.ts';
import type { CountryCode } from '../shared/contracts/brokerage.ts';
import type { AppDeps } from './deps.ts';
import { ownOriginOf } from './origins.ts';
import { csrfTokenFor } from './csrf.ts';
import { routes } from '../shared/routes.ts';

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

/** The session's journey, created when missing: for requests that change it (a POST, an entry query value). */
export function journeyOf(req: Request, deps: AppDeps): Journey {
  if (!req.session.journey) req.session.journey = newJourney(countryOf(req, deps));
  return req.session.journey;
}

/**
 * The journey to read, without creating one: a page view of a visitor without a journey stores no
 * session and sets no cookie (a stranger's GETs must not fill Redis). Changes to it are not kept.
 */
export function peekJourney(req: Request, deps: AppDeps): Readonly<Journey> {
  return req.session?.journey ?? newJourney(countryOf(req, deps));
}

const entryQuery = z.object({
  lang: z.string().max(8).optional(),
  webview: z.enum(['true', 'false']).optional(),
  campaign: z.string().max(32).optional(),
});

/**
 * Reads lang and webview from any page's query (identification-routing-creation §2 route queries) into the journey. Only a value
 * worth keeping creates the journey (and so the session); a bare page view creates nothing.
 */
export function applyEntryQuery(req: Request, deps: AppDeps): void {
  const parsed = entryQuery.safeParse(req.query);
  if (!parsed.success) return;
  const locale = parsed.data.lang ? localeFromLang(parsed.data.lang, peekJourney(req, deps).country) : undefined;
  const campaign = campaignOf(parsed.data.campaign);
  if (!locale && !parsed.data.webview && !campaign) return;
  const journey = journeyOf(req, deps);
  if (locale) journey.locale = locale;
  if (parsed.data.webview) journey.webview = parsed.data.webview === 'true';
  if (campaign) journey.campaign = campaign;
}

export function localeOf(req: Request, deps: AppDeps): Locale {
  const cookie = readCookie(req, LOCALE_COOKIE);
  return (
    req.session?.journey?.locale ??
    (isLocale(cookie) ? cookie : initialLocale(deps.config.DEFAULT_LOCALE, req.session?.journey?.country ?? countryOf(req, deps)))
  );
}

export function translatorFor(req: Request, deps: AppDeps): Translate {
  return deps.i18n.translator(localeOf(req, deps));
}

export function shellFor(req: Request, deps: AppDeps, options: { hideClose?: boolean } = {}): ShellContext {
  const webview = req.session?.journey?.webview ?? false;
  const t = translatorFor(req, deps);
  return {
    t,
    supportPhone: deps.config.SUPPORT_PHONE,
    faqUrl: deps.config.FAQ_URL,
    closeUrl: options.hideClose ? null : webview ? routes.closeSignupInApp : '/',
    showBack: (req.session?.journey?.customerType ?? 'none') !== 'none',
    signupImage: signupImageFor(req.session?.journey?.campaign ?? readCookie(req, 'campaign')),
    backgroundUrl: deps.content.backgroundUrl(),
    usps: visibleUsps(Array.from({ length: MAX_USP_ITEMS }, (_, i) => t(`shell.usp.${i + 1}`))),
  };
}

export interface PageOptions {
  body: ReactElement;
  progress: ProgressStep | null;
  header?: ReactElement;
  status?: number;
  noscriptRefreshSeconds?: number;
  hideClose?: boolean;
  showDisclaimer?: boolean;
}

export function sendPage(req: Request, res: Response, deps: AppDeps, options: PageOptions): void {
  const shell = shellFor(req, deps, { hideClose: options.hideClose });
  const html = renderPage({
    manifest: deps.manifest,
    nonce: res.locals.nonce as string,
    locale: localeOf(req, deps),
    title: shell.t('meta.title'),
    description: shell.t('meta.description'),
    canonicalUrl: `${publicOriginOf(req, deps)}${routes.start}`,
    noscriptRefreshSeconds: options.noscriptRefreshSeconds,
    // Asked for (and its cookie set) only when the page renders a post form.
    csrfToken: () => csrfTokenFor(req, res, deps.config),
    body: createElement(Layout, {
      shell,
      progress: options.progress,
      header: options.header,
      showDisclaimer: options.showDisclaimer,
      children: options.body,
    }),
  });
  res
    .status(options.status ?? 200)
    .type('html')
    .set('cache-control', 'no-store')
    .send(html);
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
