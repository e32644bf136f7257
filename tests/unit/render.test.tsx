// renderPage and the island manifest against a real client build.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientBuildManifest } from '../support/clientBuild.ts';
import { inlineCssOf, Island, loadManifest, renderPage, type Manifest } from '../../server/render.tsx';
import { BankidQrOrder, type BankidQrProps } from '../../views/components/BankidQrStatus.tsx';
import { CreationStatus, type CreationView } from '../../views/components/CreationStatus.tsx';

const root = path.resolve(import.meta.dirname, '../..');
let manifest: Manifest;

beforeAll(() => {
  manifest = clientBuildManifest();
});

const qrProps: BankidQrProps = {
  statusUrl: '/onboarding/bankid/status',
  pollMs: 1000,
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M0 0h7v7H0z"/></svg>',
  message: 'Start your BankID app. "Quotes" & <tags>',
  state: 'pending',
  retry: null,
  labels: { qrAlt: 'QR code for BankID', signingIn: 'Signing in' },
  showSpinner: false,
};

const pendingView: CreationView = {
  outcome: 'queued',
  title: 'Please wait...',
  body: 'Your account is being created.',
  tone: 'pending',
  spinner: true,
  action: null,
  redirectTo: null,
};

function page(body: React.ReactElement, extra: { noscriptRefreshSeconds?: number; inlineStyles?: boolean } = {}) {
  return renderPage({
    manifest,
    nonce: 'n0nce+/=',
    locale: 'sv-SE',
    title: 'Onboarding',
    description: 'Open an account',
    canonicalUrl: 'https://bank.example/onboarding',
    body,
    ...extra,
  });
}

const count = (html: string, needle: string) => html.split(needle).length - 1;

/** The POST form around a submit button; attribute order is React's business. */
function postForm(html: string, action: string, label: string) {
  const form = new RegExp(`<form([^>]*)><button type="submit" class="btn">${label}</button></form>`).exec(html)?.[1] ?? '';
  return { action: form.includes(`action="${action}"`), post: form.includes('method="post"') };
}

// React escapes attribute values; undo exactly that to read data-props back.
const unescapeAttr = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('renderPage', () => {
  it('renders a complete document with the shell head', () => {
    const html = page(
      <main>
        <h1>Hej</h1>
      </main>,
    );
    expect(html.startsWith('<!doctype html><html lang="sv-SE"><head>')).toBe(true);
    expect(html).toContain('<meta charSet="utf-8"/>');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toContain('<title>Onboarding</title>');
    expect(html).toContain('<meta name="description" content="Open an account"/>');
    expect(html).toContain('<link rel="canonical" href="https://bank.example/onboarding"/>');
    expect(html).toContain(`<link rel="stylesheet" href="${manifest.css}"/>`);
    expect(html).toContain('<body><main><h1>Hej</h1></main></body></html>');
  });

  it('sends no script at all for a page without islands', () => {
    const html = page(<p>No JavaScript here</p>);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('<noscript');
  });

  it('sends exactly the entry and preloads of the islands used, with the nonce', () => {
    const entry = manifest.islands.bankidQr!;
    const html = page(
      <main>
        <BankidQrOrder qr={qrProps} />
      </main>,
    );
    expect(count(html, '<script')).toBe(1);
    expect(html).toContain(`<script type="module" src="${entry.file}" nonce="n0nce+/="></script>`);
    expect(entry.imports.length).toBeGreaterThan(0);
    expect(count(html, 'rel="modulepreload"')).toBe(entry.imports.length);
    for (const chunk of entry.imports) {
      expect(html).toContain(`<link rel="modulepreload" href="${chunk}" nonce="n0nce+/="/>`);
    }
    expect(html).not.toContain(manifest.islands.creationStatus!.file);
  });

  it('renders the island markup with JSON props and the QR for screen readers', () => {
    const html = page(<BankidQrOrder qr={qrProps} />);
    const match = /<div data-island="bankidQr" data-props="([^"]*)">/.exec(html);
    expect(match).not.toBeNull();
    // The browser hydrates the same component with the same props (the SVG travels escaped in them too).
    expect(JSON.parse(unescapeAttr(match![1]!))).toEqual(qrProps);
    expect(count(html, '<svg')).toBe(1);
    expect(html).toContain('role="img" aria-label="QR code for BankID"><svg');
    expect(html).toContain('aria-live="polite"');
    expect(html).toContain('Start your BankID app. &quot;Quotes&quot; &amp; &lt;tags&gt;');
  });

  it('renders the retry button as a plain form post (works without JavaScript)', () => {
    const html = page(<BankidQrOrder qr={{ ...qrProps, state: 'failed', qrSvg: null, retry: { url: '/onboarding/bankid/retry', label: 'Try again' } }} />);
    expect(postForm(html, '/onboarding/bankid/retry', 'Try again')).toEqual({ action: true, post: true });
    expect(html).not.toContain('role="img"');
  });

  it('deduplicates shared chunks when two islands are on one page', () => {
    const html = page(
      <>
        <BankidQrOrder qr={qrProps} />
        <CreationStatus eventsUrl="/events" view={pendingView} />
        <BankidQrOrder qr={qrProps} />
      </>,
    );
    expect(count(html, '<script')).toBe(2);
    const chunks = new Set([...manifest.islands.bankidQr!.imports, ...manifest.islands.creationStatus!.imports]);
    expect(count(html, 'rel="modulepreload"')).toBe(chunks.size);
  });

  it('renders the creation view with its action and live region', () => {
    const html = page(
      <CreationStatus
        eventsUrl="/events"
        view={{ ...pendingView, tone: 'error', spinner: false, action: { kind: 'post', url: '/retry', label: 'Try again' } }}
      />,
    );
    expect(html).toContain('role="status"');
    expect(html).toContain('<h1 class="creation__title">Please wait...</h1>');
    expect(postForm(html, '/retry', 'Try again')).toEqual({ action: true, post: true });
    expect(html).not.toContain('class="spinner');
  });

  it('adds a noscript refresh only when asked', () => {
    const html = page(<p>Waiting</p>, { noscriptRefreshSeconds: 2 });
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="2"/></noscript>');
    expect(html).not.toContain('<script');
  });

  it('links the stylesheet, or on an entry page carries it inline and only prefetches the file', () => {
    const linked = page(<p>Hi</p>);
    expect(count(linked, `<link rel="stylesheet" href="${manifest.css}"/>`)).toBe(1);
    expect(linked).not.toContain('<style');
    const entry = page(<p>Hi</p>, { inlineStyles: true });
    expect(entry).not.toContain('rel="stylesheet"');
    expect(count(entry, `<link rel="prefetch" href="${manifest.css}"/>`)).toBe(1);
    // The entry page runs no script but prefetches React's chunk, so the first island page finds it cached.
    expect(count(entry, `<link rel="prefetch" href="${manifest.react}"/>`)).toBe(1);
    expect(entry).not.toContain('<script');
    expect(linked).not.toContain(manifest.react);
    // The stylesheet as built, byte for byte: its hash is what the CSP allows.
    const inline = /<style>([\s\S]*?)<\/style>/.exec(entry)?.[1];
    expect(inline).toBe(readFileSync(path.join(root, 'public', manifest.css!), 'utf8'));
    expect(createHash('sha256').update(inline!).digest('base64')).toBe(manifest.inlineCss!.sha256);
  });

  it('fails loudly for an island missing from the build', () => {
    expect(() => page(<Island name="nope" component={() => null} props={{}} />)).toThrow(/not in the client build manifest/);
  });
});

describe('manifest', () => {
  it('lists every island with files that exist on disk', () => {
    // An island's file is <name>Island.tsx (docs/fileNames.md); <name> is its manifest key.
    const islandFiles = readdirSync(path.join(root, 'client/islands'))
      .filter((f) => /Island\.tsx$/.test(f))
      .map((f) => f.replace(/Island\.tsx$/, ''));
    expect(Object.keys(manifest.islands).sort()).toEqual(islandFiles.sort());
    expect(islandFiles).toContain('bankidQr');
    expect(islandFiles).toContain('dialog');
    // React and react-dom are one chunk that every island imports: the browser fetches and caches it once.
    for (const island of Object.values(manifest.islands)) expect(island.imports).toContain(manifest.react);
    expect(readFileSync(path.join(root, 'public', manifest.react!), 'utf8')).toContain('hydrateRoot');
    const files = [manifest.css!, ...Object.values(manifest.islands).flatMap((i) => [i.file, ...i.imports])];
    for (const url of files) {
      expect(url).toMatch(/^\/build\/[\w-]+-[A-Z0-9]{8}\.(js|css)$/);
      expect(existsSync(path.join(root, 'public', url)), url).toBe(true);
    }
  });

  it('refuses a stylesheet that would end its inline <style> element early', () => {
    expect(() => inlineCssOf('a::after { content: "</style><script>" }')).toThrow(/cannot be put inline/);
    expect(inlineCssOf('a { color: red }').sha256).toBe(createHash('sha256').update('a { color: red }').digest('base64'));
  });

  it('tells how to fix a missing or broken manifest', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'manifest-'));
    expect(() => loadManifest(path.join(dir, 'missing.json'))).toThrow(/run npm run build/);
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ islands: { x: { file: 'x.js' } } }));
    expect(() => loadManifest(path.join(dir, 'bad.json'))).toThrow(/invalid.*run npm run build/s);
  });
});
