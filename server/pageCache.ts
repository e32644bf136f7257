// Rendered pages kept as strings, so the start page serves at a good fraction of an Express hello. A page whose markup
// follows only from what its key holds is rendered once per key; each request then gets that string with its own
// CSP nonce and anti-forgery token put in, so no two people share either (server/security.ts,
// server/csrfProtection.ts). The render sees placeholders in their place: letters and digits only, which HTML
// escaping and encodeURIComponent leave as they are, as they leave a real nonce in an attribute and a real token.

/** What a render is given in place of the per-request values, and answers whether it used the token. */
export interface PlaceholderValues {
  nonce: string;
  csrfToken: () => string;
}

const NONCE_PLACEHOLDER = 'pageCacheNonce0a7f3c9e2b';
const CSRF_PLACEHOLDER = 'pageCacheCsrf5d1e8b4a6c';

// Values that read the same in every context the page may put them in (attribute, URL query).
const SAFE_NONCE = /^[A-Za-z0-9+/=]+$/;
const SAFE_TOKEN = /^[A-Za-z0-9._~-]+$/;

interface Entry {
  html: string;
  usesCsrf: boolean;
}

export interface PageCache {
  /**
   * The page for `key`, rendered by `render` on first use; `nonce` and `csrfToken` (asked only when the page has a
   * post form, as it sets the token's cookie) are the request's own.
   */
  page(key: string, render: (values: PlaceholderValues) => string, nonce: string, csrfToken: () => string): string;
}

/** At most `maxEntries` pages; when full, it starts afresh (keys are few: market × locale × campaign × banners …). */
export function createPageCache(maxEntries = 500): PageCache {
  const entries = new Map<string, Entry>();
  return {
    page(key, render, nonce, csrfToken) {
      let entry = entries.get(key);
      if (!entry) {
        let usesCsrf = false;
        const html = render({
          nonce: NONCE_PLACEHOLDER,
          csrfToken: () => {
            usesCsrf = true;
            return CSRF_PLACEHOLDER;
          },
        });
        if (entries.size >= maxEntries) entries.clear();
        entry = { html, usesCsrf };
        entries.set(key, entry);
      }
      if (!SAFE_NONCE.test(nonce)) throw new Error('page cache: a nonce of unexpected characters');
      let html = entry.html.replaceAll(NONCE_PLACEHOLDER, nonce);
      if (entry.usesCsrf) {
        const token = csrfToken();
        if (!SAFE_TOKEN.test(token)) throw new Error('page cache: a token of unexpected characters');
        html = html.replaceAll(CSRF_PLACEHOLDER, token);
      }
      return html;
    },
  };
}
