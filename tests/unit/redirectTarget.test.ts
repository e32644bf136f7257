// Redirect sanitising (identification-routing-creation §4 "Redirect sanitising"; shared/redirectTarget.ts): a target
// from a request is accepted only as a relative path of our own origin, answered re-serialised. A property test over
// generated text built from the pieces of known bypasses, the bypasses themselves, and good paths kept as they are.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRedirectTarget, redirectTargetOr } from '../../shared/redirectTarget.ts';
import { redirectBypasses } from '../support/redirectBypasses.ts';

const OWN = 'https://onboarding.example.se';
const GET_STARTED = 'https://www.example.se/kom-igang';

/** Every percent-decoding of `text` until it stops changing (at most 10), the text itself first. */
function decodings(text: string): string[] {
  const out = [text];
  for (let i = 0; i < 10; i++) {
    let next: string;
    try {
      next = decodeURIComponent(out.at(-1)!);
    } catch {
      // A lone % (or bytes that are no UTF-8): decode each run of %XX bytes that can be, leniently.
      next = out.at(-1)!.replace(/(%[0-9a-f]{2})+/gi, (run) => new TextDecoder().decode(Buffer.from(run.replace(/%/g, ''), 'hex')));
    }
    if (next === out.at(-1)) break;
    out.push(next);
  }
  return out;
}

/** What a lenient browser may make of a text before it parses it: tabs and newlines dropped, backslashes read as slashes. */
const browserReading = (text: string) => text.replace(/[\t\n\r]/g, '').replace(/\\/g, '/');

/** The claims about anything accepted; throws (fails) when one does not hold. */
function expectHarmless(path: string): void {
  expect(path.startsWith('/')).toBe(true);
  expect(path.startsWith('//')).toBe(false);
  for (const form of [...decodings(path), ...decodings(path).map((f) => f.normalize('NFKC'))]) {
    expect(form).not.toMatch(/[\\\p{Cc}\s\u200b-\u200f\u2028-\u202e\u2060\ufeff]/u);
    expect(form.startsWith('//')).toBe(false);
    expect(new URL(form, OWN).origin).toBe(OWN);
    expect(new URL(browserReading(form), OWN).origin).toBe(OWN);
  }
  const resolved = new URL(path, OWN);
  expect(resolved.origin).toBe(OWN);
  expect(resolved.username + resolved.password).toBe('');
  // Relative for real: against another origin it stays there.
  expect(new URL(path, 'https://elsewhere.example').origin).toBe('https://elsewhere.example');
}

// The pieces bypasses are made of: slashes in every spelling, encodings of them (once, twice), controls and spaces,
// look-alikes, schemes, userinfo, dot segments.
const pieces = [
  '/',
  '//',
  '\\',
  '%2F',
  '%2f',
  '%5C',
  '%5c',
  '%252F',
  '%255C',
  '%25',
  '%',
  '%2e',
  '%2E%2E',
  '.',
  '..',
  './',
  '../',
  '\t',
  '\n',
  '\r',
  ' ',
  '%09',
  '%0a',
  '%0D',
  '%00',
  '%20',
  '\u0000',
  '\u00a0',
  '\u200b',
  '\u2028',
  '\u202e',
  '\u3000',
  '／',
  '＼',
  '。',
  '．',
  '｡',
  '%EF%BC%8F',
  '%E3%80%82',
  '@',
  ':',
  '?',
  '#',
  '&',
  '=',
  'evil.com',
  'user:pass@',
  'http:',
  'https:',
  'javascript:',
  'data:',
  'HTTP://',
  'onboarding',
  'a',
  'ö',
  '😀',
];
const fromPieces = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));
const anyText = fc.oneof(
  fromPieces,
  fromPieces.map((t) => `/${t}`),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }).map((t) => `/${t}`),
  fc.webPath(),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webUrl().map((u) => u.replace(/^https?:/, '')),
);

describe('anything accepted is a harmless path of our own origin (property)', () => {
  it('over 10,000 generated targets', () => {
    let accepted = 0;
    fc.assert(
      fc.property(anyText, (raw) => {
        const checked = checkRedirectTarget(raw, OWN);
        if (!checked.accepted) return;
        accepted++;
        expectHarmless(checked.path);
        // The answer is stable: checked again, it is accepted unchanged.
        expect(checkRedirectTarget(checked.path, OWN)).toEqual(checked);
      }),
      { numRuns: 10_000 },
    );
    // The generators reach the accepting side too, or the property would hold vacuously.
    expect(accepted).toBeGreaterThan(500);
  });

  it('a rejected target gives the fallback, an accepted one its path', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const checked = checkRedirectTarget(raw, OWN);
        expect(redirectTargetOr(raw, OWN, GET_STARTED)).toBe(checked.accepted ? checked.path : GET_STARTED);
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('known bypasses are rejected', () => {
  it.each(redirectBypasses.map((b) => [JSON.stringify(b), b]))('%s', (_shown, raw) => {
    expect(checkRedirectTarget(raw, OWN)).toMatchObject({ accepted: false });
    expect(redirectTargetOr(raw, OWN, GET_STARTED)).toBe(GET_STARTED);
  });

  it('and anything that is not text', () => {
    for (const raw of [undefined, null, 1, ['/onboarding'], { path: '/onboarding' }])
      expect(checkRedirectTarget(raw, OWN)).toEqual({ accepted: false, reason: 'notText' });
  });
});

describe('good paths', () => {
  it.each([
    '/',
    '/onboarding',
    '/onboarding?lang=en',
    '/onboarding/case-status#case-sent',
    '/overview?tab=accounts&sort=name',
    '/a/b/c/',
    '/faq#epk-pension-account',
    '/search?q=a%2Fb',
    '/x?next=//not-a-host',
    '/x?q=100%25',
    '/path-with_dots.and~tilde',
    '/onboarding/customer-creation/p%2F1',
    '/@handle',
  ])('%s is accepted unchanged', (path) => {
    expect(checkRedirectTarget(path, OWN)).toEqual({ accepted: true, path });
  });

  it.each([
    ['/a/../b', '/b'],
    ['/a/./b', '/a/b'],
    ['/översikt', '/%C3%B6versikt'],
    ['/a?b="c"', '/a?b=%22c%22'],
    ['/a/%2e%2e/b', '/b'],
  ])('%s is answered as WHATWG URL writes it: %s', (raw, path) => {
    expect(checkRedirectTarget(raw, OWN)).toEqual({ accepted: true, path });
  });

  it('the answer is never the raw input object but its re-serialisation, on whichever origin of ours', () => {
    expect(checkRedirectTarget('/onboarding', 'http://dk.localhost:3000')).toEqual({ accepted: true, path: '/onboarding' });
    expect(checkRedirectTarget('/onboarding', 'https://onboarding.example.se/some/base/path')).toEqual({ accepted: true, path: '/onboarding' });
  });
});
