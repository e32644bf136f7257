// server/pageCache.ts: a page kept once per key reads exactly as a render with the request's own values, in every
// place a page puts them (a nonce attribute, a token field, meta and a URL query), and no two requests share either.
import { describe, expect, it } from 'vitest';
import { createPageCache, type PlaceholderValues } from '../../server/pageCache.ts';
import { withCsrfQuery } from '../../views/components/CsrfField.tsx';

/** A page with the nonce on a script and the token in a meta, a field and a multipart action's query. */
const render = (values: PlaceholderValues, variant = 'a') => {
  const token = values.csrfToken();
  return `<head><meta name="csrf-token" content="${token}"/><script nonce="${values.nonce}" src="/x.js"></script></head><body>${variant}<form action="${withCsrfQuery('/upload', token)}"><input name="_csrf" value="${token}"/></form></body>`;
};

describe('page cache', () => {
  it('answers what a render with the request’s own nonce and token would, for each request', () => {
    const cache = createPageCache();
    const requests = [
      { nonce: 'n0nce+/AAAA==', token: 'tok.en_1-A' },
      { nonce: 'BBBBbbbb1234==', token: 'tok.en_2-B' },
      { nonce: 'C/C+cc', token: 'Zm9v.YmFy' },
    ];
    for (const r of requests) {
      const fresh = render({ nonce: r.nonce, csrfToken: () => r.token });
      expect(
        cache.page(
          'k',
          (v) => render(v),
          r.nonce,
          () => r.token,
        ),
      ).toBe(fresh);
    }
  });

  it('renders once per key and keeps keys apart', () => {
    const cache = createPageCache();
    let renders = 0;
    const counted = (variant: string) => (v: PlaceholderValues) => {
      renders++;
      return render(v, variant);
    };
    const a1 = cache.page('a', counted('a'), 'n1', () => 't1');
    const b1 = cache.page('b', counted('b'), 'n1', () => 't1');
    const a2 = cache.page('a', counted('WRONG'), 'n2', () => 't2');
    expect(renders).toBe(2);
    expect(a1).toContain('<body>a');
    expect(b1).toContain('<body>b');
    expect(a2).toBe(render({ nonce: 'n2', csrfToken: () => 't2' }, 'a'));
    expect(a2).not.toContain('n1');
    expect(a2).not.toContain('t1');
  });

  it('asks for the token (which sets its cookie) only for a page that uses it', () => {
    const cache = createPageCache();
    let asked = 0;
    const token = () => {
      asked++;
      return 'tok';
    };
    const page = (v: PlaceholderValues) => `<script nonce="${v.nonce}"></script>`;
    expect(cache.page('no form', page, 'n1', token)).toBe('<script nonce="n1"></script>');
    expect(cache.page('no form', page, 'n2', token)).toBe('<script nonce="n2"></script>');
    expect(asked).toBe(0);
    cache.page('form', (v) => render(v), 'n3', token);
    cache.page('form', (v) => render(v), 'n4', token);
    expect(asked).toBe(2);
  });

  it('starts afresh when full', () => {
    const cache = createPageCache(2);
    let renders = 0;
    const page = (v: PlaceholderValues) => `${++renders}${v.nonce}`;
    cache.page('a', page, 'n', () => '');
    cache.page('b', page, 'n', () => '');
    cache.page('c', page, 'n', () => '');
    expect(cache.page('a', page, 'n', () => '')).toBe('4n');
  });

  it('refuses a nonce or token that a page might write otherwise than the placeholder', () => {
    const cache = createPageCache();
    expect(() =>
      cache.page(
        'k',
        (v) => render(v),
        'a"b',
        () => 't',
      ),
    ).toThrow(/nonce/);
    expect(() =>
      cache.page(
        'k',
        (v) => render(v),
        'n',
        () => 'a&b',
      ),
    ).toThrow(/token/);
  });
});
