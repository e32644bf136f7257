// Server rendering of whole pages with React, plus the "islands": the few components that hydrate in
// the browser (views/components/Island.tsx). A page only sends the JavaScript of the islands it actually
// rendered, so JS-free pages (most of the journey) ship no script at all.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { z } from 'zod';
import { CSRF_META, CsrfContext } from '../views/components/CsrfField.tsx';
import { IslandCollector } from '../views/components/Island.tsx';

// --- Build manifest (written by esbuild.config.mjs) -------------------------------------------------

const manifestSchema = z.object({
  islands: z.record(
    z.string(),
    z.object({
      file: z.string().startsWith('/build/'),
      imports: z.array(z.string().startsWith('/build/')),
      /** Imported once the island runs, after the page has loaded (never preloaded). */
      lazy: z.array(z.string().startsWith('/build/')).optional(),
    }),
  ),
  css: z.string().startsWith('/build/').optional(),
  /** The shared chunk holding React and react-dom (every island's first import). */
  react: z.string().startsWith('/build/').optional(),
});

/** A stylesheet's text and its CSP hash (base64 SHA-256). */
export interface InlineCss {
  text: string;
  sha256: string;
}

export type Manifest = z.infer<typeof manifestSchema> & {
  /**
   * The stylesheet, for an entry page to carry inline: on a first visit the page then paints without waiting for a
   * second request on a slow mobile network.
   */
  inlineCss?: InlineCss;
};

export const DEFAULT_MANIFEST_PATH = 'public/build/manifest.json';

/** Reads the island manifest once at start-up; fails loudly when the client build is missing. */
export function loadManifest(path: string = DEFAULT_MANIFEST_PATH): Manifest {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`Client build manifest not found at ${path}: run npm run build`);
    }
    throw err;
  }
  const parsed = manifestSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) {
    throw new Error(`Client build manifest at ${path} is invalid (${parsed.error.message}): run npm run build`);
  }
  const { css } = parsed.data;
  // The manifest sits in public/build, and its URLs are public/'s paths.
  return css ? { ...parsed.data, inlineCss: inlineCssOf(readFileSync(join(dirname(dirname(path)), css), 'utf8')) } : parsed.data;
}

/** The stylesheet as a <style> element may hold it (it cannot end the element early), with its CSP hash. */
export function inlineCssOf(text: string): InlineCss {
  if (/<\/style/i.test(text)) throw new Error('the stylesheet contains "</style": it cannot be put inline');
  return { text, sha256: createHash('sha256').update(text, 'utf8').digest('base64') };
}

// --- Islands -----------------------------------------------------------------------------------------

// The Island component lives with the views that use it (views/components/Island.tsx); renderPage
// provides its collector. Re-exported for callers that render pages.
export { Island, type IslandProps } from '../views/components/Island.tsx';

// --- Pages -------------------------------------------------------------------------------------------

export interface RenderPageOptions {
  manifest: Manifest;
  /** Per-request CSP nonce, put on every script and module preload. */
  nonce: string;
  /** BCP 47 locale for <html lang>. */
  locale: string;
  title: string;
  canonicalUrl: string;
  description?: string;
  /** Without JavaScript a waiting page polls by reloading itself every N seconds. */
  noscriptRefreshSeconds?: number;
  /** Everything inside <body> (views/Layout.tsx supplies header, main and footer). */
  body: ReactElement;
  /**
   * The anti-forgery token of the page's post forms (server/csrfProtection.ts), asked for only when the body
   * renders a CsrfField; then the head carries it for the islands too.
   */
  csrfToken?: () => string;
  /**
   * An entry page, where most visits are first visits: the stylesheet inline (allowed by its hash in the CSP, server/
   * security.ts) and the file only prefetched, so that the next page finds it cached.
   */
  inlineStyles?: boolean;
}

export function renderPage(options: RenderPageOptions): string {
  const { manifest, nonce } = options;
  // The body renders first so that the head knows which islands it used.
  const used = new Set<string>();
  let csrfToken: string | undefined;
  const csrf = options.csrfToken && ((): string => (csrfToken ??= options.csrfToken!()));
  const bodyHtml = renderToString(
    <CsrfContext.Provider value={csrf ?? null}>
      <IslandCollector.Provider value={used}>{options.body}</IslandCollector.Provider>
    </CsrfContext.Provider>,
  );

  const scripts: string[] = [];
  const preloads = new Set<string>();
  for (const name of used) {
    const entry = manifest.islands[name];
    if (!entry) throw new Error(`Island "${name}" is not in the client build manifest: add client/islands/${name}Island.tsx and run npm run build`);
    scripts.push(entry.file);
    for (const chunk of entry.imports) preloads.add(chunk);
  }

  const head = (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{options.title}</title>
      {options.description !== undefined && <meta name="description" content={options.description} />}
      <link rel="canonical" href={options.canonicalUrl} />
      {csrfToken !== undefined && <meta name={CSRF_META} content={csrfToken} />}
      <link rel="icon" href="/images/favicon.svg" type="image/svg+xml" />
      {manifest.css && options.inlineStyles && manifest.inlineCss ? (
        <>
          <style dangerouslySetInnerHTML={{ __html: manifest.inlineCss.text }} />
          <link rel="prefetch" href={manifest.css} />
          {/* React, for the island pages after it: a prefetch waits until the page has what it needs. */}
          {manifest.react && <link rel="prefetch" href={manifest.react} />}
        </>
      ) : (
        manifest.css && <link rel="stylesheet" href={manifest.css} />
      )}
      {options.noscriptRefreshSeconds !== undefined && (
        <noscript>
          <meta httpEquiv="refresh" content={String(options.noscriptRefreshSeconds)} />
        </noscript>
      )}
      {/* Preloading the shared chunks saves a round trip per import level on slow mobile networks. */}
      {[...preloads].map((href) => (
        <link key={href} rel="modulepreload" href={href} nonce={nonce} />
      ))}
      {scripts.map((src) => (
        <script key={src} type="module" src={src} nonce={nonce} />
      ))}
    </head>
  );

  const documentHtml = renderToString(
    <html lang={options.locale}>
      {head}
      {/* The body markup is already React output; inserting it avoids a wrapper element. */}
      <body dangerouslySetInnerHTML={{ __html: bodyHtml }} />
    </html>,
  );
  return `<!doctype html>${documentHtml}`;
}
