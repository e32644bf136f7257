// Pages, scripts and the stylesheet once went out uncompressed although the browser asks for brotli.
// Now hashed build files go out as the build compressed them (.br, .gz beside each file; esbuild.config.mjs) with
// their year-long immutable caching, pages and JSON compressed per answer (server/app.ts), and the creation event
// stream never (a compressed stream would hold its events back).
import { get, type IncomingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { clientBuildManifest } from '../support/clientBuild.ts';
import { identifyAndRoute, prospectIdIn, sidOf, stack, useServerStack } from '../support/serverHttp.ts';

useServerStack();

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose body is kept as sent (no client-side decompression). */
function rawGet(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const decoded = (r: Raw): string => {
  const encoding = r.headers['content-encoding'];
  const bytes = encoding === 'br' ? brotliDecompressSync(r.body) : encoding === 'gzip' ? gunzipSync(r.body) : r.body;
  return bytes.toString('utf8');
};

describe('compressed answers', () => {
  it('build files: brotli when the browser takes it, else gzip, else as they are; always cached for a year', async () => {
    const manifest = clientBuildManifest();
    if (!manifest.css) throw new Error('the client build has no stylesheet');
    const files = [manifest.css, ...Object.values(manifest.islands).map((i) => i.file)];
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const original = readFileSync(`public${file}`, 'utf8');
      const cases: Array<[string, string | undefined]> = [
        ['br, gzip, deflate', 'br'],
        ['gzip, deflate', 'gzip'],
        ['identity', undefined],
      ];
      for (const [accept, encoding] of cases) {
        const r = await rawGet(`${stack.webUrl}${file}`, { 'accept-encoding': accept });
        expect(r.status, `${file} (${accept})`).toBe(200);
        expect(r.headers['content-encoding'], `${file} (${accept})`).toBe(encoding);
        expect(r.headers['content-type'], file).toMatch(file.endsWith('.css') ? /^text\/css/ : /javascript/);
        expect(r.headers['cache-control'], file).toBe('public, max-age=31536000, immutable');
        expect(r.headers.vary, file).toMatch(/Accept-Encoding/i);
        expect(decoded(r), `${file} (${accept})`).toBe(original);
        if (encoding) expect(r.body.length, `${file} (${accept}) is smaller`).toBeLessThan(Buffer.byteLength(original));
      }
    }
  });

  it('pages: compressed per answer, brotli first', async () => {
    const br = await rawGet(`${stack.webUrl}/onboarding?lang=en`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    const html = decoded(br);
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(br.body.length).toBeLessThan(Buffer.byteLength(html) / 2);

    const gzip = await rawGet(`${stack.webUrl}/onboarding?lang=en`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toMatch(/<\/html>$/);

    const plain = await rawGet(`${stack.webUrl}/onboarding?lang=en`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toMatch(/<\/html>$/);
  });

  it('the creation event stream is never compressed, so each event goes out as it is written', async () => {
    const agent = request.agent(stack.webUrl);
    const prospectId = prospectIdIn(await identifyAndRoute(agent, 'onboarding'));
    const cookie = `onb.sid=${sidOf(agent)}`;
    const first = await new Promise<{ headers: IncomingHttpHeaders; chunk: string }>((resolve, reject) => {
      const req = get(
        `${stack.webUrl}/onboarding/customer-creation/${encodeURIComponent(prospectId)}/events`,
        { headers: { 'accept-encoding': 'br, gzip', accept: 'text/event-stream', cookie } },
        (res) => {
          res.once('data', (c: Buffer) => {
            resolve({ headers: res.headers, chunk: c.toString('utf8') });
            req.destroy();
          });
          res.on('error', () => undefined);
        },
      );
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
    expect(first.headers['content-type']).toBe('text/event-stream');
    expect(first.headers['content-encoding']).toBeUndefined();
    // The first write (the reconnect hint) arrives on its own, readable as sent.
    expect(first.chunk).toMatch(/^retry: \d+\n\n/);
  });
});
