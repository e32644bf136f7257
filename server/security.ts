// Helmet with a strict CSP: scripts only from our origin with a per-request nonce, no inline script; styles from our
// origin, and inline only the stylesheet whose hash is listed.
import { randomBytes } from 'node:crypto';
import helmet from 'helmet';
import type { RequestHandler } from 'express';

export function nonceMiddleware(): RequestHandler {
  return (_req, res, next) => {
    res.locals.nonce = randomBytes(16).toString('base64');
    next();
  };
}

/** `httpsOnly`: the site is served over TLS (secure cookies); then browsers are told to stay on https. */
export function securityHeaders(options: {
  httpsOnly: boolean;
  formActionOrigins: string[];
  imageOrigins?: string[];
  /** Base64 SHA-256 hashes of the inline stylesheets allowed (the entry page's, server/render.tsx). */
  styleHashes?: string[];
}): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as unknown as { locals: { nonce: string } }).locals.nonce}'`],
        styleSrc: ["'self'", ...(options.styleHashes ?? []).map((hash) => `'sha256-${hash}'`)],
        // The background image comes from the content service's origin(s).
        imgSrc: ["'self'", 'data:', ...(options.imageOrigins ?? [])],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'self'"],
        // Chrome applies form-action to the redirect after a post, so the signing service must be listed.
        formAction: ["'self'", ...options.formActionOrigins],
        // Only over TLS: on plain http (a local production-mode run) it would break every asset load.
        ...(options.httpsOnly ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    ...commonHeaders(options.httpsOnly),
  });
}

/** What every answer carries beside its policy: HSTS only where TLS terminates in front of us, no referrer off-site. */
const commonHeaders = (httpsOnly: boolean) => ({ strictTransportSecurity: httpsOnly, referrerPolicy: { policy: 'same-origin' as const } });

/**
 * Helmet's headers for an answer that is no document (an event stream): the same as a page's, with a policy that
 * allows nothing, and no CORS header, so no page of another origin reads it.
 */
export function streamSecurityHeaders(httpsOnly: boolean): ReturnType<typeof helmet> {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'self'"] } },
    ...commonHeaders(httpsOnly),
  });
}
