// The CSRF rules (shared/csrf.ts) as a table, the token field's rendering, and a guard that every post
// form of the views and islands carries the field (server/csrfProtection.ts has the full story).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { csrfVerdict, type CsrfEvidence, type CsrfVerdict, type TokenState } from '../../shared/csrf.ts';
import { CsrfContext, CsrfField, withCsrfQuery } from '../../views/components/CsrfField.tsx';
import { ScreenFields } from '../../views/components/ScreenForm.tsx';
import { renderPage } from '../../server/render.tsx';

const own = ['https://onboarding.example.se', 'https://onboarding.example.dk'];

describe('csrfVerdict', () => {
  const rows: Array<[string, Partial<CsrfEvidence> & { tokenState?: TokenState }, CsrfVerdict]> = [
    ['GET is never checked', { method: 'GET', secFetchSite: 'cross-site' }, { ok: true, by: 'safeMethod' }],
    ['HEAD is never checked', { method: 'HEAD', origin: 'https://evil.example' }, { ok: true, by: 'safeMethod' }],
    ['OPTIONS is never checked', { method: 'OPTIONS' }, { ok: true, by: 'safeMethod' }],
    ['same-origin passes', { secFetchSite: 'same-origin' }, { ok: true, by: 'fetchMetadata' }],
    [
      'same-origin wins over a foreign Origin (the header a browser cannot be made to lie in)',
      { secFetchSite: 'same-origin', origin: 'https://evil.example' },
      { ok: true, by: 'fetchMetadata' },
    ],
    ['header case and spaces do not matter', { secFetchSite: ' Same-Origin ' }, { ok: true, by: 'fetchMetadata' }],
    ['none (the person reloads or resubmits) passes', { secFetchSite: 'none' }, { ok: true, by: 'userInitiated' }],
    ['cross-site is refused, even with an own Origin', { secFetchSite: 'cross-site', origin: own[0] }, { ok: false, reason: 'crossSite' }],
    ['same-site (a sibling host) is refused', { secFetchSite: 'same-site', origin: own[1] }, { ok: false, reason: 'sameSite' }],
    ['an unknown value is refused', { secFetchSite: 'same-origin, cross-site' }, { ok: false, reason: 'unknownFetchSite' }],
    ['no Sec-Fetch-Site: an own Origin passes', { origin: own[1] }, { ok: true, by: 'origin' }],
    ['no Sec-Fetch-Site: a foreign Origin is refused', { origin: 'https://evil.example' }, { ok: false, reason: 'foreignOrigin' }],
    ['an Origin that only starts like ours is refused', { origin: `${own[0]}.evil.example` }, { ok: false, reason: 'foreignOrigin' }],
    ['an own host on another scheme is refused', { origin: 'http://onboarding.example.se' }, { ok: false, reason: 'foreignOrigin' }],
    ['Origin null is refused, whatever the token', { origin: 'null', tokenState: 'valid' }, { ok: false, reason: 'nullOrigin' }],
    ['neither header: a valid token passes', { tokenState: 'valid' }, { ok: true, by: 'token' }],
    ['neither header: an invalid token is refused', { tokenState: 'invalid' }, { ok: false, reason: 'invalidToken' }],
    ['neither header: no token is refused', { tokenState: 'missing' }, { ok: false, reason: 'missingToken' }],
    ['PUT, PATCH and DELETE are checked like POST', { method: 'DELETE', tokenState: 'missing' }, { ok: false, reason: 'missingToken' }],
  ];
  it.each(rows)('%s', (_name, input, expected) => {
    const { tokenState = 'missing', ...rest } = input;
    expect(csrfVerdict({ method: 'POST', ownOrigins: own, token: () => tokenState, ...rest })).toEqual(expected);
  });

  it('computes the token only when no header decides', () => {
    let asked = 0;
    const token = () => (asked++, 'valid' as const);
    csrfVerdict({ method: 'POST', secFetchSite: 'cross-site', ownOrigins: own, token });
    csrfVerdict({ method: 'POST', origin: own[0], ownOrigins: own, token });
    expect(asked).toBe(0);
  });
});

describe('CsrfField', () => {
  it('renders the token from the page render, and nothing without one', () => {
    const html = renderToStaticMarkup(
      <CsrfContext.Provider value={() => 'tok-en_1'}>
        <CsrfField />
      </CsrfContext.Provider>,
    );
    expect(html).toBe('<input type="hidden" name="_csrf" value="tok-en_1"/>');
    expect(renderToStaticMarkup(<CsrfField />)).toBe('');
  });

  it('puts the token in a multipart action query', () => {
    expect(withCsrfQuery('/a/step', 'x+y')).toBe('/a/step?_csrf=x%2By');
    expect(withCsrfQuery('/a/step?z=1', 't')).toBe('/a/step?z=1&_csrf=t');
    expect(withCsrfQuery('/a/step', '')).toBe('/a/step');
  });

  it('the page asks for the token once, and writes it into the head only when a form used it', () => {
    let asked = 0;
    const csrfToken = () => (asked++, 'tok');
    const base = { manifest: { islands: {} }, nonce: 'n', locale: 'en', title: 't', canonicalUrl: 'https://x.example/onboarding', csrfToken };
    const withForms = renderPage({
      ...base,
      body: (
        <form method="post">
          <CsrfField />
          <CsrfField />
        </form>
      ),
    });
    expect(asked).toBe(1);
    expect(withForms).toContain('<meta name="csrf-token" content="tok"/>');
    const withoutForms = renderPage({ ...base, body: <p>no form</p> });
    expect(asked).toBe(1);
    expect(withoutForms).not.toContain('csrf-token');
  });
});

describe('every post form carries the token field', () => {
  const files = [
    ...['views', 'views/pages', 'views/components', 'client/islands', 'client/components'].flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.tsx'))
        .map((f) => join(dir, f)),
    ),
  ];
  const postForms = files.flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    return [...source.matchAll(/<form\b[^>]*?method="post"[\s\S]*?<\/form>/g)].map((m) => ({ file, form: m[0] }));
  });

  it('finds the post forms', () => {
    // 28 before the page machine; the three upload screens' Continue forms are one now (views/components/UploadScreen.tsx).
    expect(postForms.length).toBeGreaterThanOrEqual(26);
  });

  // A customer-information form gets the token with its hidden step and screen fields (ScreenFields).
  it.each(postForms.map((f, i) => [`${f.file} #${i}`, f.form] as const))('%s', (_name, form) => {
    expect(form).toMatch(/<CsrfField \/>|<ScreenFields fields=\{/);
  });

  it('ScreenFields renders the token with the step and screen', () => {
    const html = renderToStaticMarkup(
      <CsrfContext.Provider value={() => 'tok-en_1'}>
        <ScreenFields fields={{ step: 'TAX_INFO_STEP', screen: 'numbers' }} />
      </CsrfContext.Provider>,
    );
    expect(html).toBe(
      '<input type="hidden" name="_csrf" value="tok-en_1"/><input type="hidden" name="step" value="TAX_INFO_STEP"/><input type="hidden" name="screen" value="numbers"/>',
    );
  });
});
