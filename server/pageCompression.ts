// A page's brotli, made in one call on the whole rendered page: compression() (server/app.ts) would compress it through
// a zlib stream on the thread pool, which costs a page about twice the CPU for the same bytes. Only the brotli answer
// is made here; any other coding (gzip, deflate, none) is left to compression() as before, which lets an encoded
// answer pass.
import { brotliCompressSync, constants } from 'node:zlib';
import type { IncomingMessage } from 'node:http';

/** compression()'s own: below it an answer goes out as it is; brotli at its quality (4, the usual for dynamic pages). */
const THRESHOLD_BYTES = 1024;
const QUALITY = 4;

/** The q of each coding the Accept-Encoding header names (`*` included), a missing q being 1. */
function codingQualities(header: string): Map<string, number> {
  const qualities = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    qualities.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  return qualities;
}

/**
 * Whether compression() would answer `req` with brotli (its negotiation: the highest q wins, brotli first on a tie):
 * brotli's q (its own, else `*`'s) is above 0 and no other coding the header names has a higher one.
 */
export function prefersBrotli(req: Pick<IncomingMessage, 'headers' | 'method'>): boolean {
  const header = req.headers['accept-encoding'];
  if (req.method === 'HEAD' || typeof header !== 'string') return false;
  const qualities = codingQualities(header);
  const br = qualities.get('br') ?? qualities.get('*') ?? 0;
  if (!(br > 0)) return false;
  for (const [name, q] of qualities) if (name !== 'br' && name !== '*' && q > br) return false;
  return true;
}

/** The page's brotli when the request prefers it and the page is not too small to compress; else null. */
export function brotliPage(req: Pick<IncomingMessage, 'headers' | 'method'>, html: string): Buffer | null {
  if (!prefersBrotli(req)) return null;
  const raw = Buffer.from(html, 'utf8');
  if (raw.length < THRESHOLD_BYTES) return null;
  return brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
}
