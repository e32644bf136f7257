// The anti-forgery token's names (server/csrfProtection.ts) and, in the browser, the page's token from the head (where
// renderPage wrote it): views/components/CsrfField.tsx renders the field with it when an island hydrates.

/** The form field the server reads (urlencoded forms). */
export const CSRF_FIELD = '_csrf';
/** The head meta the islands read in the browser. */
export const CSRF_META = 'csrf-token';

/** The token renderPage wrote into the head, or '' (no post form on the page, or not in a browser). */
export function readCsrfToken(): string {
  if (typeof document === 'undefined') return '';
  return document.querySelector(`meta[name="${CSRF_META}"]`)?.getAttribute('content') ?? '';
}
