// Identification for Denmark, Norway and Finland through the OIDC broker (identification-routing-creation §4 "Identification (DK, FI,
// NO)"): the country's page with a continue button; the post that stores the local marker (state, nonce,
// PKCE verifier) and leaves for the broker; the return page (OnboardingSignicat) that restores the original
// query; and Onboarding with a code, which exchanges it and opens the brokerage session for the person.
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../deps.ts';
import { completeIdentification } from './identified.ts';
import type { Journey } from '../../journey.ts';
import { applyEntryQuery, faqUrlOf, journeyOf, publicOriginOf, redirectAfterSave, sendPage, shellFor } from '../../pages.ts';
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
import { routePatterns, routes, withQuery } from '../../../shared/routes.ts';
import { OidcIdentificationPage } from '../../../views/pages/OidcIdentificationPageView.tsx';

/** The country's identification page (MitID, Norwegian BankID, Finnish bank ID). */
export function renderOidcIdentification(req: Request, res: Response, deps: AppDeps, country: BrokerCountry): void {
  const shell = shellFor(req, deps);
  sendPage(req, res, deps, {
    progress: 1,
    funnel: { step: 'identification', screen: 'oidc' },
    body: <OidcIdentificationPage t={shell.t} country={country} action={routes.oidcStart} privacyUrl={deps.config.PRIVACY_URL} faqUrl={faqUrlOf(req, deps)} />,
  });
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

async function exchangeCode(req: Request, res: Response, deps: AppDeps, journey: Journey, code: string, state: string | undefined, iss: string | undefined) {
  const marker = journey.oidc!;
  // The marker is single use: removed before the exchange, whatever its outcome.
  delete journey.oidc;
  let person: { natregno: string; jwt: string; refreshToken: string };
  // Which part failed, for the metrics: the code exchange, then the brokerage session.
  let failed: 'tokenFailed' | 'sessionFailed' = 'tokenFailed';
  try {
    const nationalId = await deps.oidcBroker.nationalIdFromCode({ code, state, iss, marker });
    failed = 'sessionFailed';
    const { refreshToken } = await deps.brokerage.createSignicatSession({
      nationalId,
      country: marker.country,
      returnUrl: `${new URL(marker.redirectUri).origin}${routes.start}`,
    });
    const { jwt } = await deps.brokerage.refreshToken(refreshToken);
    person = { natregno: nationalId, jwt, refreshToken };
  } catch (err) {
    deps.metrics?.oidcResult(failed, marker.country);
    const status = err instanceof UpstreamError ? err.status : undefined;
    deps.logger.warn({ err, status }, 'identification through the broker failed');
    journey.identificationError = errorFor(err);
    return redirectAfterSave(req, res, routes.start);
  }
  deps.metrics?.oidcResult('complete', marker.country);
  await completeIdentification(req, deps, journey, person);
  redirectAfterSave(req, res, routes.routing);
}

export function oidcRoutes(deps: AppDeps): Router {
  const router = Router();

  // Continue: remember state, nonce and verifier (the local marker), then leave for the broker.
  router.post(routePatterns.oidcStart, async (req, res, next) => {
    try {
      const journey = journeyOf(req, deps);
      const country = journey.country;
      if (journey.customerType !== 'private' || !isBrokerCountry(country)) return res.redirect(303, routes.start);
      try {
        const { url, marker } = await deps.oidcBroker.authorizationRequest({
          country,
          redirectUri: redirectUriFor(req, deps),
          params: paramsToRestore(journey),
        });
        journey.oidc = marker;
        delete journey.identificationError;
        redirectAfterSave(req, res, url);
      } catch (err) {
        deps.logger.warn({ err }, 'identification broker unavailable');
        deps.metrics?.oidcResult('startFailed', country);
        journey.identificationError = 'TRY_AGAIN_ERROR';
        redirectAfterSave(req, res, routes.start);
      }
    } catch (err) {
      next(err);
    }
  });

  // OnboardingSignicat: back from the broker; on to Onboarding (or the native app) with the restored query.
  router.get(routePatterns.oidcCallback, (req, res) => {
    const parsed = returnQuery.safeParse(req.query);
    if (!parsed.success) return res.redirect(302, withQuery(routes.start, 'error=invalid_response'));
    res.redirect(302, returnRedirect(parsed.data, deps.config.NATIVE_APP_SCHEME).url);
  });

  // Onboarding with the broker's code or error; any other visit goes on to the Onboarding page itself.
  router.get(routePatterns.start, async (req, res, next) => {
    if (req.query.code === undefined && req.query.error === undefined) return next();
    try {
      applyEntryQuery(req, res, deps);
      const parsed = callbackQuery.safeParse(req.query);
      // A query we cannot read carries no state of ours either: like any stranger's link, it aborts nothing.
      const action = parsed.success
        ? callbackAction(parsed.data, req.session.journey?.oidc?.state)
        : ({ kind: 'ignoreError', error: 'invalid_request' } as const);
      switch (action.kind) {
        case 'error': {
          // Only the error code is logged: the description is free text from outside.
          deps.logger.warn({ error: action.error }, 'identification broker returned an error');
          const journey = journeyOf(req, deps);
          deps.metrics?.oidcResult(action.error === 'access_denied' ? 'cancelled' : 'brokerError', journey.oidc?.country ?? journey.country);
          delete journey.oidc;
          journey.identificationError = 'TRY_AGAIN_ERROR';
          return redirectAfterSave(req, res, routes.start);
        }
        case 'ignoreError':
          // Not the answer to this session's attempt (a link from anywhere): the journey stays as it was.
          deps.logger.info({ error: action.error }, 'identification error without our state ignored');
          return res.redirect(303, routes.start);
        case 'ignoreCode':
          deps.logger.info('identification code without our state ignored');
          return res.redirect(303, routes.start);
        case 'exchange':
          return await exchangeCode(req, res, deps, journeyOf(req, deps), action.code, action.state, action.iss);
        case 'none':
          return next();
      }
    } catch (err) {
      next(err);
    }
  });

  return router;
}
