// Whether a request may change state, judged from what the browser says about where it comes from: Sec-Fetch-Site,
// else Origin, else (old browsers) the form's signed token. CSRF is not left to the SameSite=Lax cookie alone. Pure
// rules; server/csrfProtection.ts reads the headers and the token and applies them. The order of evidence and why:
// docs/decisions.md "Cross-site requests".

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
