// Whether a request may change state, judged from what the browser says about where it comes from
// (issue "Hardening what exists", item 7: CSRF was defended by the SameSite=Lax cookie alone). Pure rules;
// server/csrfProtection.ts reads the headers and the token and applies them.
//
// Order of evidence, strongest first:
// 1. Sec-Fetch-Site (every current browser): `same-origin` passes. `same-site` is refused: a sibling
//    host (another market's domain, a subdomain) is not this origin. `none` passes too: the browser
//    sends it only for a request no site initiated (the person's own reload or resubmit of a form,
//    a bookmark), so another site cannot cause it, and a resubmitted post must not end on a 403.
// 2. Origin: exactly one of our configured origins (server/origins.ts); `null` (sandboxed frames,
//    privacy redirects, data: URLs) is refused.
// 3. Neither header (browsers from before 2019/2020): the signed token of the page's form must be valid.

/** Methods that never change state here: no route handles them with side effects. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type TokenState = 'valid' | 'invalid' | 'missing';

export type CsrfVerdict =
  | { ok: true; by: 'safeMethod' | 'fetchMetadata' | 'userInitiated' | 'origin' | 'token' }
  | { ok: false; reason: 'crossSite' | 'sameSite' | 'unknownFetchSite' | 'foreignOrigin' | 'nullOrigin' | 'missingToken' | 'invalidToken' };

export interface CsrfEvidence {
  method: string;
  /** The Sec-Fetch-Site header as sent, if any. */
  secFetchSite?: string;
  /** The Origin header as sent, if any. */
  origin?: string;
  /** Our own origins (scheme://host[:port]), from configuration. */
  ownOrigins: readonly string[];
  /** Only asked for when no header decides (it costs an HMAC). */
  token: () => TokenState;
}

export function csrfVerdict(e: CsrfEvidence): CsrfVerdict {
  if (SAFE_METHODS.has(e.method.toUpperCase())) return { ok: true, by: 'safeMethod' };
  const site = e.secFetchSite?.trim().toLowerCase();
  if (site !== undefined && site !== '') {
    if (site === 'same-origin') return { ok: true, by: 'fetchMetadata' };
    if (site === 'none') return { ok: true, by: 'userInitiated' };
    if (site === 'same-site') return { ok: false, reason: 'sameSite' };
    if (site === 'cross-site') return { ok: false, reason: 'crossSite' };
    // A value the Fetch Metadata spec does not define: not a browser we know, so not trusted.
    return { ok: false, reason: 'unknownFetchSite' };
  }
  const origin = e.origin?.trim();
  if (origin !== undefined && origin !== '') {
    if (origin === 'null') return { ok: false, reason: 'nullOrigin' };
    // Exact match: browsers serialise the origin as URL.origin does (lower-case host, no default port).
    return e.ownOrigins.includes(origin) ? { ok: true, by: 'origin' } : { ok: false, reason: 'foreignOrigin' };
  }
  const token = e.token();
  if (token === 'valid') return { ok: true, by: 'token' };
  return { ok: false, reason: token === 'missing' ? 'missingToken' : 'invalidToken' };
}
