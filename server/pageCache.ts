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

/** A rendered page cut at its placeholders: `texts` around the `slots`, which are filled in per request. */
interface Entry {
  texts: string[];
  slots: Array<'nonce' | 'csrf'>;
  /** The render asked for the token (and so for its cookie). */
  usesCsrf: boolean;
}

const PLACEHOLDERS = new RegExp(`(${NONCE_PLACEHOLDER}|${CSRF_PLACEHOLDER})`);

/** Cut once, so that a request joins the pieces instead of searching the whole page for each placeholder. */
function entryOf(html: string, usesCsrf: boolean): Entry {
  const pieces = html.split(PLACEHOLDERS);
  return {
    usesCsrf,
    texts: pieces.filter((_, i) => i % 2 === 0),
    slots: pieces.filter((_, i) => i % 2 === 1).map((p) => (p === NONCE_PLACEHOLDER ? 'nonce' : 'csrf')),
  };
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
        entry = entryOf(html, usesCsrf);
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, entry);
      }
      if (!SAFE_NONCE.test(nonce)) throw new Error('page cache: a nonce of unexpected characters');
      let token: string | undefined;
      if (entry.usesCsrf) {
        token = csrfToken();
        if (!SAFE_TOKEN.test(token)) throw new Error('page cache: a token of unexpected characters');
      }
      let html = entry.texts[0]!;
      for (let i = 0; i < entry.slots.length; i++) html += (entry.slots[i] === 'nonce' ? nonce : token!) + entry.texts[i + 1]!;
      return html;
    },
  };
}
