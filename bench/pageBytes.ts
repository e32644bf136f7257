// Bytes per page as sent: the HTML and the JavaScript a page loads before it is usable (its
// scripts, their modulepreloads and the modules they import statically), each fetched as brotli, as gzip and as it
// is. Modules a page imports later (import()) are counted apart as lazy: they are off the critical path.
import { get } from 'node:http';

export type Encoding = 'br' | 'gzip' | 'identity';

export interface Sizes {
  br: number;
  gzip: number;
  raw: number;
}

export interface PageBytes {
  name: string;
  html: Sizes;
  js: Sizes;
  lazyJs: Sizes;
  scripts: string[];
}

/** The body's bytes as they travelled (no decoding) and the encoding the server chose. */
function fetchBytes(url: string, encoding: Encoding, cookie?: string): Promise<{ status: number; body: Buffer; encoding: string }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers: { 'accept-encoding': encoding, ...(cookie ? { cookie } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), encoding: String(res.headers['content-encoding'] ?? 'identity') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function sizesOf(url: string, cookie?: string): Promise<Sizes & { text: string }> {
  const [br, gzip, raw] = await Promise.all((['br', 'gzip', 'identity'] as const).map((e) => fetchBytes(url, e, cookie)));
  if (raw!.status !== 200) throw new Error(`${url} answered ${raw!.status}`);
  return { br: br!.body.length, gzip: gzip!.body.length, raw: raw!.body.length, text: raw!.body.toString('utf8') };
}

const add = (a: Sizes, b: Sizes): Sizes => ({ br: a.br + b.br, gzip: a.gzip + b.gzip, raw: a.raw + b.raw });
const none = (): Sizes => ({ br: 0, gzip: 0, raw: 0 });

/** The scripts and modulepreloads a page's HTML names, as absolute URLs. */
export function scriptsOf(html: string, pageUrl: string): string[] {
  const found = [
    ...[...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<link\b(?=[^>]*\brel="modulepreload")[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]!),
  ];
  return [...new Set(found.map((src) => new URL(src.replace(/&amp;/g, '&'), pageUrl).href))];
}

/** A module's relative imports: static (`import … from"./x.js"`, `import"./x.js"`) and lazy (`import("./x.js")`). */
export function importsOf(js: string, moduleUrl: string): { static: string[]; lazy: string[] } {
  const resolve = (spec: string) => new URL(spec, moduleUrl).href;
  const statics = [...js.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+)["']/g)].map((m) => resolve(m[1]!));
  const lazy = [...js.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)].map((m) => resolve(m[1]!));
  return { static: [...new Set(statics)], lazy: [...new Set(lazy)] };
}

/** Sizes of JavaScript by URL, fetched once per run. */
export class ScriptSizes {
  /** @param reactChunk the path of the shared React chunk (the client build's manifest.react) */
  constructor(private readonly reactChunk?: string) {}

  private readonly known = new Map<string, Promise<Sizes & { text: string }>>();

  of(url: string): Promise<Sizes & { text: string }> {
    let sizes = this.known.get(url);
    if (!sizes) this.known.set(url, (sizes = sizesOf(url)));
    return sizes;
  }

  /**
   * The scripts' static module graph (critical), the part of it that is the page's own (all but the shared React chunk,
   * `reactChunk`), and what it imports lazily, each module counted once.
   */
  async total(scripts: readonly string[]): Promise<{ js: Sizes; ownJs: Sizes; lazyJs: Sizes }> {
    const critical = new Set<string>();
    const lazy = new Set<string>();
    const queue = [...scripts];
    while (queue.length > 0) {
      const url = queue.shift()!;
      if (critical.has(url)) continue;
      critical.add(url);
      const imports = importsOf((await this.of(url)).text, url);
      queue.push(...imports.static);
      imports.lazy.forEach((l) => lazy.add(l));
    }
    let js = none();
    let ownJs = none();
    let lazyJs = none();
    for (const url of critical) {
      js = add(js, await this.of(url));
      if (new URL(url).pathname !== this.reactChunk) ownJs = add(ownJs, await this.of(url));
    }
    for (const url of lazy) if (!critical.has(url)) lazyJs = add(lazyJs, await this.of(url));
    return { js, ownJs, lazyJs };
  }
}

/** One page's HTML (for the person of `cookie`) and its JavaScript. */
export async function measurePageBytes(name: string, url: string, scripts: ScriptSizes, cookie?: string): Promise<PageBytes> {
  const html = await sizesOf(url, cookie);
  const found = scriptsOf(html.text, url);
  const { js, lazyJs } = await scripts.total(found);
  return { name, html: { br: html.br, gzip: html.gzip, raw: html.raw }, js, lazyJs, scripts: found };
}
