// Pure rules of the browser-redirect identification for DK, NO and FI (identification-routing-creation §4 "Identification (DK, FI, NO)"):
// what the OAuth state carries, how the return page (OnboardingSignicat) redirects, and what the Onboarding
// page does with a code or an error. No I/O here; server/stages/identification/oidcPage.tsx applies them.
import { z } from 'zod';
import type { CountryCode } from './contracts/brokerageContract.ts';
import { routes, withQuery } from './routes.ts';
import { CARRIED_VALUE_MAX, entryParamShapes } from './carriedQuery.ts';

/** Countries that identify through the OIDC broker. */
export const brokerCountries = ['DK', 'NO', 'FI'] as const;
export type BrokerCountry = (typeof brokerCountries)[number];
export const isBrokerCountry = (c: CountryCode): c is BrokerCountry => (brokerCountries as readonly string[]).includes(c);

/**
 * States of flows this web app starts begin with NEXT_. A state without it was started by the native app,
 * which then gets the code back by deep link (spec: "state does not start with NEXT_").
 */
export const WEB_STATE_PREFIX = 'NEXT_';

/** The original Onboarding query parameters the state carries through the broker (identification-routing-creation §2 route table). */
export const restoredParamNames = ['webview', 'clientId', 'clientUrl', 'epk', 'lang'] as const;
export type RestoredParams = Partial<Record<(typeof restoredParamNames)[number], string>>;

const restoredParams = z
  .object({
    webview: z.enum(['true', 'false']),
    // As the start page carries them (shared/carriedQuery.ts); clientUrl is checked where it redirects (shared/redirectTarget.ts).
    clientId: entryParamShapes.clientId,
    clientUrl: z.string().max(CARRIED_VALUE_MAX),
    epk: entryParamShapes.epk,
    lang: z.string().max(8),
  })
  .partial();

/** Keeps only the restorable parameters (strings within bounds); anything else is dropped, never fatal. */
export function pickRestoredParams(query: Record<string, unknown>): RestoredParams {
  const out: RestoredParams = {};
  for (const name of restoredParamNames) {
    const one = restoredParams.shape[name].safeParse(query[name]);
    if (one.success && one.data !== undefined) out[name] = one.data;
  }
  return out;
}

const base64url = {
  encode: (text: string) => Buffer.from(text, 'utf8').toString('base64url'),
  decode: (text: string) => Buffer.from(text, 'base64url').toString('utf8'),
};

/** `<prefix><random>.<base64url(query string)>`; the random part is the CSRF-binding value. */
export function encodeState(random: string, params: RestoredParams, prefix = WEB_STATE_PREFIX): string {
  if (!/^[A-Za-z0-9_-]+$/.test(random)) throw new Error('state random part must be base64url');
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return `${prefix}${random}.${base64url.encode(query.toString())}`;
}

/** The parameters carried by a state; a state in another shape restores nothing. */
export function decodeState(state: string | undefined): RestoredParams {
  if (!state) return {};
  const dot = state.indexOf('.');
  if (dot < 0) return {};
  const encoded = state.slice(dot + 1);
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) return {};
  return pickRestoredParams(Object.fromEntries(new URLSearchParams(base64url.decode(encoded))));
}

/** Query of the return page (OnboardingSignicat), as the broker sends it. Unknown parameters are ignored. */
export const returnQuery = z.object({
  code: z.string().min(1).max(2048).optional(),
  state: z.string().min(1).max(2048).optional(),
  // RFC 9207 issuer identifier, passed through so the client can check it.
  iss: z.string().url().max(500).optional(),
  error: z
    .string()
    .regex(/^[\w.-]{1,100}$/)
    .optional(),
  error_description: z.string().max(1000).optional(),
});
export type ReturnQuery = z.infer<typeof returnQuery>;

export type ReturnRedirect = { kind: 'nativeApp'; url: string } | { kind: 'onboarding'; url: string };

/**
 * Where the return page sends the browser (302): to the native app by deep link when the flow was started
 * by the app (state without NEXT_) in a webview, otherwise to Onboarding with the code or the error plus
 * the restored parameters.
 */
export function returnRedirect(query: ReturnQuery, nativeAppScheme: string): ReturnRedirect {
  const restored = decodeState(query.state);
  if (query.code && query.state && !query.error && !query.state.startsWith(WEB_STATE_PREFIX) && restored.webview === 'true') {
    const deepLink = new URLSearchParams({ code: query.code, state: query.state });
    return { kind: 'nativeApp', url: `${nativeAppScheme}://onboarding/signicat?${deepLink}` };
  }
  const out = new URLSearchParams();
  if (query.error) {
    out.set('error', query.error);
    // Onboarding acts on an error only when it carries the state of the attempt it ends (callbackAction).
    if (query.state) out.set('state', query.state);
  } else if (query.code) {
    out.set('code', query.code);
    if (query.state) out.set('state', query.state);
    if (query.iss) out.set('iss', query.iss);
  }
  for (const [k, v] of Object.entries(restored)) if (v !== undefined) out.set(k, v);
  const qs = out.toString();
  return { kind: 'onboarding', url: withQuery(routes.start, qs) };
}

/** Query of Onboarding when it is the end of a broker round trip. */
export const callbackQuery = z.object({
  code: z.string().min(1).max(2048).optional(),
  state: z.string().min(1).max(2048).optional(),
  iss: z.string().url().max(500).optional(),
  error: z
    .string()
    .regex(/^[\w.-]{1,100}$/)
    .optional(),
});
export type CallbackQuery = z.infer<typeof callbackQuery>;

export type CallbackAction =
  | { kind: 'none' }
  /** error parameter of the attempt in progress: the try-again screen, with a warning in the log. */
  | { kind: 'error'; error: string }
  /** An error that does not carry the state of this session's attempt: nothing is aborted. */
  | { kind: 'ignoreError'; error: string }
  /** A code we did not ask for in this session (no local marker, or another state): ignored, no exchange. */
  | { kind: 'ignoreCode' }
  | { kind: 'exchange'; code: string; state: string | undefined; iss: string | undefined };

/**
 * Spec (identification-routing-creation §4 "Identification (DK, FI, NO)"): "On Onboarding with a code,
 * only if the local marker was stored … An error parameter sets the try-again error". Only the broker's
 * answer to this session's own request may end or use the attempt: it carries the state we issued (the
 * marker's). Anyone can link a browser to /onboarding?error=… or ?code=…: without that state nothing is
 * aborted and the marker stays for the real answer.
 */
export function callbackAction(query: CallbackQuery, markerState: string | undefined): CallbackAction {
  const ours = markerState !== undefined && query.state === markerState;
  if (query.error) return ours ? { kind: 'error', error: query.error } : { kind: 'ignoreError', error: query.error };
  if (!query.code) return { kind: 'none' };
  if (!ours) return { kind: 'ignoreCode' };
  return { kind: 'exchange', code: query.code, state: query.state, iss: query.iss };
}

/**
 * Identification method asked of the broker per country (acr_values `urn:signicat:oidc:method:<m>`). The spec
 * names nbid for NO; DK and FI name theirs (mitid, ftn) so the broker opens the right eID directly.
 */
export const identificationMethods: Record<BrokerCountry, string> = { NO: 'nbid', DK: 'mitid', FI: 'ftn' };
export const ACR_PREFIX = 'urn:signicat:oidc:method:';
export const acrValueFor = (country: BrokerCountry): string => `${ACR_PREFIX}${identificationMethods[country]}`;

/** Scope: openid plus the national id (claim `nin` in the ID token), and the names (`profile`) the legacy form prefills. */
export const OIDC_SCOPE = 'openid nin profile';
