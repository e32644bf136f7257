// Minimal reading and writing of the few plain (unsigned) cookies the shell uses: the locale choice
// (identification-routing-creation §4, FI lang switch), the campaign and the tracking ids. None carries personal data.
import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';

/** The value of one cookie of the request, or undefined (malformed encodings are ignored). */
export function readCookie(req: Pick<IncomingMessage, 'headers'>, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export const LOCALE_COOKIE = 'locale';

/** A year: the language choice outlives the session. Readable by the native app's webview too (not httpOnly). */
export function setLocaleCookie(res: Response, locale: string, secure: boolean): void {
  res.cookie(LOCALE_COOKIE, locale, { path: '/', sameSite: 'lax', secure, httpOnly: false, maxAge: 365 * 24 * 3600 * 1000 });
}
