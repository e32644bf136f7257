// Identification for Denmark, Norway and Finland through the OIDC broker (identification-routing-creation §4
// "Identification (DK, FI, NO)"): the country's page with a continue button; the post that stores the local marker
// (state, nonce, PKCE verifier) and leaves for the broker; the return page (OnboardingSignicat) that restores the
// original query; and Onboarding with a code, which exchanges it and opens the brokerage session for the person.
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { completeIdentification } from './identified.ts';
import type { Journey } from '../../journey.ts';
import { applyEntryQuery, faqUrlOf, journeyOf, publicOriginOf, shellFor, type PageOptions } from '../../pages.ts';
import { definePage, redirect, type Outcome } from '../../pageKit/definePage.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { OidcBrokerError } from '../../upstream/oidcBrokerClient.ts';
import { identificationErrorForStatus, type IdentificationError } from '../../../shared/routing.ts';
import {
  callbackAction,
  callbackQuery,
  isBrokerCountry,
  pickRestoredParams,
  returnQuery,
  returnRedirect,
  type BrokerCountry,
  type RestoredParams,
} from '../../../shared/oidcState.ts';
import { routes, withQuery } from '../../../shared/routes.ts';
import { OidcIdentificationPage } from '../../../views/pages/OidcIdentificationPageView.tsx';

/** The country's identification page (MitID, Norwegian BankID, Finnish bank ID). */
export function oidcIdentificationPage(req: Request, deps: AppDeps, country: BrokerCountry): PageOptions {
  const shell = shellFor(req, deps);
  return {
    progress: 1,
    funnel: { step: 'identification', screen: 'oidc' },
    body: <OidcIdentificationPage t={shell.t} country={country} action={routes.oidcStart} privacyUrl={deps.config.PRIVACY_URL} faqUrl={faqUrlOf(req, deps)} />,
  };
}

/** The redirect URI on the host the browser is on, so the session cookie (per host) comes back with it. */
function redirectUriFor(req: Request, deps: AppDeps): string {
  // The broker only accepts registered redirect URIs besides, so a forged Host header cannot divert the code.
  return `${publicOriginOf(req, deps)}${routes.oidcCallback}`;
}

/** The Onboarding query parameters the state carries through the broker. */
function paramsToRestore(journey: Journey): RestoredParams {
  return pickRestoredParams({
    ...journey.queryParams,
    webview: journey.webview ? 'true' : undefined,
    lang: journey.locale?.slice(0, 2),
  });
}

/** Token and session failures map as on the BankID path: broker failures and 5xx → try again, other 4xx → support. */
function errorFor(err: unknown): IdentificationError {
  if (err instanceof OidcBrokerError) return 'TRY_AGAIN_ERROR';
  return identificationErrorForStatus(err instanceof UpstreamError ? err.status : 0);
}

async function exchangeCode(req: Request, deps: AppDeps, journey: Journey, code: string, state: string | undefined, iss: string | undefined): Promise<Outcome> {
  const marker = journey.oidc!;
  // The marker is single use: removed before the exchange, whatever its outcome.
  delete journey.oidc;
  let person: Parameters<typeof completeIdentification>[3];
  // Which part failed, for the metrics: the code exchange, then the brokerage session.
  let failed: 'tokenFailed' | 'sessionFailed' = 'tokenFailed';
  try {
    const { nationalId, names } = await deps.oidcBroker.personFromCode({ code, state, iss, marker });
    failed = 'sessionFailed';
    const { refreshToken } = await deps.brokerage.createSignicatSession({
      nationalId,
      country: marker.country,
      returnUrl: `${new URL(marker.redirectUri).origin}${routes.start}`,
    });
    const { jwt } = await deps.brokerage.refreshToken(refreshToken);
    person = { natregno: nationalId, ...(names ? { names } : {}), jwt, refreshToken };
  } catch (err) {
    deps.metrics?.oidcResult(failed, marker.country);
    const status = err instanceof UpstreamError ? err.status : undefined;
    deps.logger.warn({ err, status }, 'identification through the broker failed');
    journey.identificationError = errorFor(err);
    return redirect(routes.start);
  }
  deps.metrics?.oidcResult('complete', marker.country);
  await completeIdentification(req, deps, journey, person);
  return redirect(routes.routing);
}

/**
 * Onboarding with the broker's code or error (the start page asks first): its answer, or null when the query is no
 * answer of the broker's and the start page itself is shown.
 */
export async function brokerReturn(req: Request, res: Response, deps: AppDeps): Promise<Outcome | null> {
  if (req.query.code === undefined && req.query.error === undefined) return null;
  applyEntryQuery(req, res, deps);
  const parsed = callbackQuery.safeParse(req.query);
  // A query we cannot read carries no state of ours either: like any stranger's link, it aborts nothing.
  const action = parsed.success ? callbackAction(parsed.data, req.session.journey?.oidc?.state) : ({ kind: 'ignoreError', error: 'invalid_request' } as const);
  switch (action.kind) {
    case 'error': {
      // Only the error code is logged: the description is free text from outside.
      deps.logger.warn({ error: action.error }, 'identification broker returned an error');
      const journey = journeyOf(req, deps);
      deps.metrics?.oidcResult(action.error === 'access_denied' ? 'cancelled' : 'brokerError', journey.oidc?.country ?? journey.country);
      delete journey.oidc;
      journey.identificationError = 'TRY_AGAIN_ERROR';
      return redirect(routes.start);
    }
    case 'ignoreError':
      // Not the answer to this session's attempt (a link from anywhere): the journey stays as it was.
      deps.logger.info({ error: action.error }, 'identification error without our state ignored');
      return redirect(routes.start);
    case 'ignoreCode':
      deps.logger.info('identification code without our state ignored');
      return redirect(routes.start);
    case 'exchange':
      return exchangeCode(req, deps, journeyOf(req, deps), action.code, action.state, action.iss);
    case 'none':
      return null;
  }
}

/** Continue: remember state, nonce and verifier (the local marker), then leave for the broker. */
const oidcStartPage = definePage({
  route: 'oidcStart',
  access: 'anyone',
  session: 'writes',
  post: {
    // The form sends nothing but its anti-forgery token.
    body: z.unknown(),
    handle: async ({ req, deps }) => {
      const journey = journeyOf(req, deps);
      const country = journey.country;
      if (journey.customerType !== 'private' || !isBrokerCountry(country)) return redirect(routes.start);
      try {
        const { url, marker } = await deps.oidcBroker.authorizationRequest({
          country,
          redirectUri: redirectUriFor(req, deps),
          params: paramsToRestore(journey),
        });
        journey.oidc = marker;
        delete journey.identificationError;
        return redirect(url);
      } catch (err) {
        deps.logger.warn({ err }, 'identification broker unavailable');
        deps.metrics?.oidcResult('startFailed', country);
        journey.identificationError = 'TRY_AGAIN_ERROR';
        return redirect(routes.start);
      }
    },
  },
});

/** OnboardingSignicat: back from the broker; on to Onboarding (or the native app) with the restored query. */
const oidcCallbackPage = definePage({
  route: 'oidcCallback',
  access: 'anyone',
  session: 'reads',
  get: ({ req, deps }) => {
    const parsed = returnQuery.safeParse(req.query);
    if (!parsed.success) return redirect(withQuery(routes.start, 'error=invalid_response'), 302);
    return redirect(returnRedirect(parsed.data, deps.config.NATIVE_APP_SCHEME).url, 302);
  },
});

export const oidcPages = [oidcStartPage, oidcCallbackPage];
