// Helmet with a strict CSP: scripts only from our origin with a per-request nonce, no inline script; styles from our
// origin, and inline only the stylesheet whose hash is listed. Helmet's headers are computed once (only the nonce
// differs between answers), and random values come from a pool: both cost a page a few per cent per request.
import { randomFillSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { RequestHandler } from 'express';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;

/**
 * `size` bytes from the system's CSPRNG, as crypto.randomBytes answers them, each byte handed out once: drawn a pool at
 * a time (one call for many nonces, cookie values and session ids rather than one each).
 */
export function randomBytesPooled(size: number): Buffer {
  if (size > POOL_BYTES) return randomFillSync(Buffer.alloc(size));
  if (poolAt + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    poolAt = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolAt, poolAt + size));
  poolAt += size;
  return bytes;
}

export function nonceMiddleware(): RequestHandler {
  return (_req, res, next) => {
    res.locals.nonce = randomBytesPooled(16).toString('base64');
    next();
  };
}

// Where each answer's own nonce goes in the policy helmet wrote once.
const NONCE_SLOT = 'securityHeadersNonceSlot';

type Helmet = ReturnType<typeof helmet>;
type Header = { name: string; value: string | number | readonly string[] } | { name: string; removed: true };

/** The headers `middleware` sets and removes, whatever the request (helmet's are the same for every one). */
function headersOf(middleware: Helmet): Header[] {
  const headers: Header[] = [];
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.push({ name, value }),
    removeHeader: (name: string) => headers.push({ name, removed: true }),
  };
  let done = false;
  middleware({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not set its headers at once');
  return headers;
}

/** Sets `headers` on each answer, a value with the nonce slot getting the answer's nonce (res.locals.nonce). */
function fixedHeaders(headers: Header[]) {
  const steps = headers.map((h) => {
    if ('removed' in h) return (res: ServerResponse) => void res.removeHeader(h.name);
    const { name, value } = h;
    if (typeof value !== 'string' || !value.includes(NONCE_SLOT)) return (res: ServerResponse) => void res.setHeader(name, value);
    const [before, after] = value.split(NONCE_SLOT) as [string, string];
    return (res: ServerResponse) => void res.setHeader(name, `${before}${(res as unknown as { locals: { nonce: string } }).locals.nonce}${after}`);
  });
  return (_req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
    for (const step of steps) step(res);
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
  const headers = headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", `'nonce-${NONCE_SLOT}'`],
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
    }),
  );
  return fixedHeaders(headers) as unknown as RequestHandler;
}

/** What every answer carries beside its policy: HSTS only where TLS terminates in front of us, no referrer off-site. */
const commonHeaders = (httpsOnly: boolean) => ({ strictTransportSecurity: httpsOnly, referrerPolicy: { policy: 'same-origin' as const } });

/**
 * Helmet's headers for an answer that is no document (an event stream): the same as a page's, with a policy that
 * allows nothing, and no CORS header, so no page of another origin reads it.
 */
export function streamSecurityHeaders(httpsOnly: boolean): ReturnType<typeof fixedHeaders> {
  return fixedHeaders(
    headersOf(
      helmet({
        contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'self'"] } },
        ...commonHeaders(httpsOnly),
      }),
    ),
  );
}
