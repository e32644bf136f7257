// OIDC identification broker client (Signicat-style) for DK, NO and FI, on openid-client 6: authorization
// code flow with PKCE S256, state and nonce. openid-client validates the ID token (signature, issuer,
// audience, nonce, expiry); we then parse the national id claim `nin` with zod. Nothing personal is logged.
import * as client from 'openid-client';
import { z } from 'zod';
import { isValidNationalId } from '../../shared/nationalIds.ts';
import { currentDeadline } from '../infra/deadline.ts';
import type { CallObserver } from './http.ts';
import { OIDC_SCOPE, acrValueFor, encodeState, type BrokerCountry, type RestoredParams } from '../../shared/oidcState.ts';

export interface OidcBrokerOptions {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** Each call's time and status, by call name: discovery, token, jwks (server/infra/metrics.ts). */
  observe?: CallObserver;
}

/** What the session must remember between leaving for the broker and coming back (the "local marker"). */
export interface OidcMarker {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  country: BrokerCountry;
}

export const TOKEN_FETCH_FAILED = 'Failed to fetch signicat tokens';

export class OidcBrokerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OidcBrokerError';
  }
}

const ninClaim = z.object({ nin: z.string().min(1).max(32) });
// The names of the `profile` scope: optional, a broker that leaves them out identifies the person all the same.
const nameClaims = z.object({ given_name: z.string().max(100).optional().catch(undefined), family_name: z.string().max(100).optional().catch(undefined) });

function isHttp(url: string): boolean {
  return new URL(url).protocol === 'http:';
}

/**
 * The broker's calls (discovery, token, keys) share the deadline of the request the person waits on
 * (server/infra/deadline.ts), besides openid-client's own per-call timeout. `callName` names a call for `observe`.
 */
function fetchWithinDeadline(callName: (url: string) => string, observe: CallObserver | undefined): client.CustomFetch {
  return async (url, init) => {
    const deadline = currentDeadline();
    const signal = deadline ? (init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal) : init.signal;
    if (!observe) return fetch(url, { ...init, signal } as RequestInit);
    const started = performance.now();
    let status = 0;
    try {
      const res = await fetch(url, { ...init, signal } as RequestInit);
      status = res.status;
      return res;
    } finally {
      observe({ upstream: 'oidcBroker', call: callName(url), seconds: (performance.now() - started) / 1000, status });
    }
  };
}

export function createOidcBroker(options: OidcBrokerOptions) {
  // Discovery on first use, cached; a failed discovery is retried on the next attempt rather than cached.
  let configuration: Promise<client.Configuration> | undefined;
  // The endpoints discovery named, so a call is named by what it is (the URLs are the broker's, fixed, without ids).
  let endpoints: { token?: string; jwks?: string } = {};
  const callName = (url: string) =>
    url.includes('/.well-known/openid-configuration') ? 'discovery' : url === endpoints.token ? 'token' : url === endpoints.jwks ? 'jwks' : 'other';
  const brokerFetch = fetchWithinDeadline(callName, options.observe);
  const discover = (): Promise<client.Configuration> =>
    (configuration ??= client
      .discovery(new URL(options.issuerUrl), options.clientId, options.clientSecret, undefined, {
        // config.ts allows http only for a loopback issuer (the sandbox).
        execute: isHttp(options.issuerUrl) ? [client.allowInsecureRequests] : [],
        timeout: Math.max(1, Math.ceil(options.timeoutMs / 1000)),
        [client.customFetch]: brokerFetch,
      })
      .then((config) => {
        config[client.customFetch] = brokerFetch;
        const metadata = config.serverMetadata();
        endpoints = { token: metadata.token_endpoint, jwks: metadata.jwks_uri };
        return config;
      })
      .catch((err: unknown) => {
        configuration = undefined;
        throw new OidcBrokerError('Identification broker discovery failed', { cause: err });
      }));

  return {
    /** The authorization request: answers the URL to send the browser to and the marker to keep in the session. */
    async authorizationRequest(input: { country: BrokerCountry; redirectUri: string; params: RestoredParams }): Promise<{ url: string; marker: OidcMarker }> {
      const config = await discover();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = encodeState(client.randomState(), input.params);
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: input.redirectUri,
        response_type: 'code',
        scope: OIDC_SCOPE,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        // The identification method (spec: NO uses nbid); also chooses the sandbox's login page.
        acr_values: acrValueFor(input.country),
      });
      return { url: url.href, marker: { state, nonce, codeVerifier, redirectUri: input.redirectUri, country: input.country } };
    },

    /**
     * Exchanges the code for tokens and answers the verified national id, with the names when the token carries them.
     * Any failure of the exchange or of the ID token checks throws "Failed to fetch signicat tokens" (identification-routing-creation §7).
     */
    async personFromCode(input: {
      code: string;
      state: string | undefined;
      iss: string | undefined;
      marker: OidcMarker;
    }): Promise<{ nationalId: string; names?: { givenName: string; surname: string } }> {
      const config = await discover().catch((err: unknown) => {
        throw new OidcBrokerError(TOKEN_FETCH_FAILED, { cause: err });
      });
      // The authorization response as the broker sent it to the redirect URI (the code travelled on to
      // Onboarding in the query, as the spec's return page prescribes).
      const current = new URL(input.marker.redirectUri);
      current.searchParams.set('code', input.code);
      if (input.state !== undefined) current.searchParams.set('state', input.state);
      if (input.iss !== undefined) current.searchParams.set('iss', input.iss);
      let claims: client.IDToken | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: input.marker.codeVerifier,
          expectedState: input.marker.state,
          expectedNonce: input.marker.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (err) {
        throw new OidcBrokerError(TOKEN_FETCH_FAILED, { cause: err });
      }
      const parsed = ninClaim.safeParse(claims);
      // The token is signed by the broker: the id is checked for the country's shape and a real birth date, with
      // no checksum stricter than the issuing authority's (a CPR number without modulus 11 is a real person).
      if (!parsed.success || !isValidNationalId(input.marker.country, parsed.data.nin)) {
        throw new OidcBrokerError('The ID token carries no valid national id for the country');
      }
      const { given_name: givenName, family_name: surname } = nameClaims.parse(claims);
      return { nationalId: parsed.data.nin, ...(givenName?.trim() && surname?.trim() ? { names: { givenName, surname } } : {}) };
    },
  };
}
export type OidcBroker = ReturnType<typeof createOidcBroker>;
