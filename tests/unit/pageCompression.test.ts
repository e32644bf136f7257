// A page's brotli made in one call (server/pageCompression.ts) is chosen exactly when compression() itself would
// answer with brotli, for the Accept-Encoding headers browsers and odd clients send; it decodes to the page.
import { brotliDecompressSync } from 'node:zlib';
import express from 'express';
import compression from 'compression';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { brotliPage, prefersBrotli } from '../../server/pageCompression.ts';

const page = `<!DOCTYPE html><html><body>${'<p>Välkommen till kontot</p>'.repeat(200)}</body></html>`;

const headers = [
  'gzip, deflate, br',
  'gzip, deflate, br, zstd',
  'br',
  'gzip',
  'deflate',
  'identity',
  '*',
  'br;q=0',
  'br;q=0.5, gzip',
  'gzip;q=0.5, br',
  'br;q=0.8, gzip;q=0.8',
  'identity;q=1, br;q=0.5',
  '*;q=0.3, gzip;q=0.2',
  'BR',
  ' gzip ; q=0.9 , br ; q=0.9 ',
];

describe('page compression', () => {
  const app = express();
  app.use(compression());
  app.get('/', (_req, res) => {
    res.type('html').send(page);
  });

  it.each(headers)('brotli for %j exactly when compression() answers brotli', async (accept) => {
    const res = await request(app).get('/').set('accept-encoding', accept).buffer(true);
    expect(prefersBrotli({ method: 'GET', headers: { 'accept-encoding': accept } })).toBe(res.headers['content-encoding'] === 'br');
  });

  it('no brotli without the header, for a HEAD, or for a page below the threshold', () => {
    expect(brotliPage({ method: 'GET', headers: {} }, page)).toBeNull();
    expect(brotliPage({ method: 'HEAD', headers: { 'accept-encoding': 'br' } }, page)).toBeNull();
    expect(brotliPage({ method: 'GET', headers: { 'accept-encoding': 'br' } }, '<p>short</p>')).toBeNull();
  });

  it('the brotli decodes to the page, and is smaller', () => {
    const br = brotliPage({ method: 'GET', headers: { 'accept-encoding': 'gzip, deflate, br' } }, page)!;
    expect(brotliDecompressSync(br).toString('utf8')).toBe(page);
    expect(br.length).toBeLessThan(Buffer.byteLength(page) / 4);
  });
});
