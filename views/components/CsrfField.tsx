// The anti-forgery token of every post form: the fallback of server/csrfProtection.ts for browsers that send neither
// Sec-Fetch-Site nor Origin. The same markup on the server and in the islands: on the server renderPage provides the
// token through CsrfContext (asking for it sets its cookie, so only pages with a post form set one); in the browser it
// comes from <meta name="csrf-token">, which renderPage writes whenever the body asked for the token. No token (a view
// rendered alone in a unit test) renders nothing.
import { createContext, useContext } from 'react';
import { CSRF_FIELD, readCsrfToken } from '../../client/components/csrfToken.ts';

export { CSRF_FIELD, CSRF_META } from '../../client/components/csrfToken.ts';

/** Server side only: answers the page's token (and sets its cookie on first use). */
export const CsrfContext = createContext<(() => string) | null>(null);

export function useCsrfToken(): string {
  const fromServer = useContext(CsrfContext);
  if (fromServer) return fromServer();
  return readCsrfToken();
}

/** The hidden token field; put it in every <form method="post">. */
export function CsrfField() {
  const token = useCsrfToken();
  return token ? <input type="hidden" name={CSRF_FIELD} value={token} /> : null;
}

/**
 * A multipart form's action with the token in the query: the CSRF check runs before the route parses
 * the multipart body, so a hidden field would come too late there (server/csrfProtection.ts).
 */
export function withCsrfQuery(action: string, token: string): string {
  if (!token) return action;
  return `${action}${action.includes('?') ? '&' : '?'}${CSRF_FIELD}=${encodeURIComponent(token)}`;
}
