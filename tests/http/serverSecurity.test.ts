// HTTP tests of the web server: security headers, the language and its own origin.
// The stack and helpers: tests/support/serverHttp.ts.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { useServerStack, UUID, stack, startWeb, h1, cspOf, nonceOf, openQrPage } from '../support/serverHttp.ts';

useServerStack();

describe('security headers', () => {
  it('sends a strict CSP: scripts from self with a nonce, never unsafe-inline; no x-powered-by, no HSTS on plain http', async () => {
    const res = await request(stack.webUrl).get('/onboarding').expect(200);
    const csp = cspOf(res);
    const scriptSrc = csp.get('script-src')!;
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc.some((v) => /^'nonce-[A-Za-z0-9+/]{22}==?'$/.test(v))).toBe(true);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    // The signing service must stay a permitted form target (Chrome applies form-action to post redirects).
    const formAction = csp.get('form-action')!;
    expect(formAction).toContain("'self'");
    expect(formAction).toContain(new URL(stack.sandboxUrl).origin);
    expect(formAction.filter((v) => v === '*' || /^[a-z]+:$/.test(v))).toEqual([]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });

  it('a page without islands (the start page) ships no script at all', async () => {
    const res = await request(stack.webUrl).get('/onboarding').expect(200);
    expect(h1(res.text)).toBe("Before we get started. Who's the account for?");
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).not.toContain('modulepreload');
  });

  it('uses a fresh nonce per request, and the island page puts exactly that nonce on its scripts', async () => {
    const agent = request.agent(stack.webUrl);
    const { page: first } = await openQrPage(agent);
    const second = await agent.get('/onboarding').expect(200);
    const nonces = [first, second].map(nonceOf);
    expect(nonces[0]).not.toBe(nonces[1]);

    for (const [i, page] of [first, second].entries()) {
      const scripts = [...page.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) {
        expect(tag).toMatch(/\bsrc="\/build\/bankidQr-[^"]+\.js"/);
        expect(/\bnonce="([^"]*)"/.exec(tag)?.[1]).toBe(nonces[i]);
      }
      for (const tag of [...page.text.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/g)].map((m) => m[0])) {
        expect(/\bnonce="([^"]*)"/.exec(tag)?.[1]).toBe(nonces[i]);
      }
      // No inline script body: every script is an external file.
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
    // The script the page names is served.
    const src = /<script\b[^>]*\bsrc="([^"]+)"/.exec(first.text)![1]!;
    await request(stack.webUrl)
      .get(src)
      .expect(200)
      .expect('content-type', /javascript/);
  });

  it('echoes a well-formed x-request-id and replaces missing or malformed ones with a UUID', async () => {
    const sent = 'req-1234abcd_XYZ';
    const echoed = await request(stack.webUrl).get('/onboarding').set('x-request-id', sent).expect(200);
    expect(echoed.headers['x-request-id']).toBe(sent);

    const generated: string[] = [];
    for (const bad of [undefined, 'short', 'has spaces in it', 'semi;colon;value', 'x'.repeat(65), '../../etc/passwd']) {
      // Not /healthz, which answers before the request log and carries no id (server/health.ts).
      const req = request(stack.webUrl).get('/readyz');
      const res = await (bad === undefined ? req : req.set('x-request-id', bad)).expect(200);
      const id = res.headers['x-request-id'] as string;
      expect(id, `for ${String(bad)}`).toMatch(UUID);
      generated.push(id);
    }
    expect(new Set(generated).size).toBe(generated.length);
  });

  it('with COOKIE_SECURE=true tells browsers to stay on https (HSTS, upgrade-insecure-requests)', async () => {
    const url = await startWeb({ COOKIE_SECURE: 'true' });
    const res = await request(url).get('/onboarding').expect(200);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{6,}/);
    expect(cspOf(res).has('upgrade-insecure-requests')).toBe(true);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('language', () => {
  it("speaks each market's language until the visitor picks another (DEFAULT_LOCALE=market)", async () => {
    const url = await startWeb({ DEFAULT_LOCALE: 'market' });
    const port = new URL(url).port;
    const danish = await request(url).get('/onboarding').set('host', `dk.localhost:${port}`).expect(200);
    expect(danish.text).toMatch(/<html lang="da-DK"/);
    const swedish = await request(url).get('/onboarding').expect(200);
    expect(swedish.text).toMatch(/<html lang="sv-SE"/);
    const english = await request(url).get('/onboarding?lang=en').expect(200);
    expect(english.text).toMatch(/<html lang="en"/);
  });
});

describe('own origin', () => {
  it('sends the browser back to the market host it is on (its cookie is per host), never to a forged Host', async () => {
    const port = new URL(stack.webUrl).port;
    const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
    const danish = await request(stack.webUrl).get('/onboarding').set('host', `dk.localhost:${port}`).expect(200);
    expect(canonical(danish.text)).toBe(`http://dk.localhost:${port}/onboarding`);
    const forged = await request(stack.webUrl).get('/onboarding').set('host', 'attacker.example').expect(200);
    expect(canonical(forged.text)).toBe(`${stack.webUrl}/onboarding`);
  });
});
