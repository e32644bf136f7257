// Redirect sanitising (identification-routing-creation §4, §5 "Redirect URL rule"): a redirect target that comes from
// a request (clientUrl, a query restored through the identification broker, a URL the server was asked for) is used only
// as a relative path of a configured origin (BANK_SITE_URL's for clientUrl; ours for a page reloaded); anything else is
// rejected and the person sent to the market's get-started page. Pure. Why the rule is strict twice (every form the text
// may take, then the WHATWG parse): docs/decisions.md "Redirect sanitising".

/** Longer targets are refused outright (no path of ours is near this long). */
export const MAX_REDIRECT_TARGET_CHARS = 2048;
/** How many rounds of percent-decoding are followed; a text still changing after them is refused. */
export const MAX_DECODE_ROUNDS = 4;

export type RedirectRejection = 'notText' | 'tooLong' | 'notOneLeadingSlash' | 'backslash' | 'controlOrSpace' | 'notUtf8' | 'tooDeeplyEncoded' | 'notOurOrigin';

/** A target checked: our own path (pathname, search and hash as WHATWG URL writes them), or why it was refused. */
export type RedirectTarget = { accepted: true; path: string } | { accepted: false; reason: RedirectRejection };

// Controls (C0, DEL, C1), every Unicode space and line break, and format characters (zero-width, bidi
// overrides), which some parsers drop silently.
const CONTROL_OR_SPACE = /[\p{Cc}\p{Cf}\p{Z}\s]/u;
// Backslash and the characters IDNA or NFKC fold into one (full-width, small form variants).
const BACKSLASH = /[\\\uFF3C\uFE68]/;
// IDNA reads these as dots in a host name.
const LOOKALIKE_DOTS = /[\u3002\uFF0E\uFF61]/g;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One round of percent-decoding: each run of %XX bytes decoded as UTF-8, the rest (a lone %) kept. Null when a run is
 * no UTF-8: another reader might take its bytes one by one (%85 as the control NEL), so such a text is refused.
 */
function percentDecodeOnce(text: string): string | null {
  let valid = true;
  const decoded = text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    try {
      return utf8.decode(bytes);
    } catch {
      valid = false;
      return run;
    }
  });
  return valid ? decoded : null;
}

const fold = (text: string): string => text.normalize('NFKC').replace(LOOKALIKE_DOTS, '.');

/**
 * The forms a text may take on its way through browsers, proxies and parsers: percent-decoded and NFKC-folded,
 * each as often as it changes anything; or why not: a form that is no UTF-8, or one still changing after
 * MAX_DECODE_ROUNDS rounds.
 */
function formsOf(text: string): string[] | 'notUtf8' | 'tooDeeplyEncoded' {
  const seen = new Set([text]);
  let frontier = [text];
  for (let round = 0; frontier.length > 0; round++) {
    if (round > MAX_DECODE_ROUNDS) return 'tooDeeplyEncoded';
    const next: string[] = [];
    for (const form of frontier) {
      const decoded = percentDecodeOnce(form);
      if (decoded === null) return 'notUtf8';
      for (const other of [decoded, fold(form)]) {
        if (seen.has(other)) continue;
        seen.add(other);
        next.push(other);
      }
    }
    frontier = next;
  }
  return [...seen];
}

/** Why a form is not a harmless relative path, or null when it is. */
function problemOf(form: string): RedirectRejection | null {
  if (CONTROL_OR_SPACE.test(form)) return 'controlOrSpace';
  if (BACKSLASH.test(form)) return 'backslash';
  // Exactly one leading slash: `//host` and `/\host` are protocol-relative to browsers, `host` or `x:` are not paths.
  if (form[0] !== '/' || form[1] === '/') return 'notOneLeadingSlash';
  return null;
}

/** Why the text, in any of its forms, is not a harmless relative path; null when none is found. */
function textProblem(text: string): RedirectRejection | null {
  const forms = formsOf(text);
  if (typeof forms === 'string') return forms;
  for (const form of forms) {
    const problem = problemOf(form);
    if (problem) return problem;
  }
  return null;
}

/**
 * Checks a redirect target from a request against `ownOrigin`, a configured origin (the bank's site, PUBLIC_URL or
 * the market's): accepted only as a same-origin relative path, answered as WHATWG URL re-serialises it.
 */
export function checkRedirectTarget(raw: unknown, ownOrigin: string): RedirectTarget {
  if (typeof raw !== 'string') return { accepted: false, reason: 'notText' };
  if (raw.length > MAX_REDIRECT_TARGET_CHARS) return { accepted: false, reason: 'tooLong' };
  const problem = textProblem(raw);
  if (problem) return { accepted: false, reason: problem };
  const origin = new URL(ownOrigin).origin;
  let resolved: URL;
  try {
    resolved = new URL(raw, origin);
  } catch {
    return { accepted: false, reason: 'notOurOrigin' };
  }
  if (resolved.origin !== origin || resolved.username !== '' || resolved.password !== '') return { accepted: false, reason: 'notOurOrigin' };
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // Dot segments can collapse to `//host` (`/a/..//host`); the answer itself must pass the same rule.
  const answerProblem = textProblem(path);
  if (answerProblem) return { accepted: false, reason: answerProblem === 'notOneLeadingSlash' ? 'notOurOrigin' : answerProblem };
  return { accepted: true, path };
}

/** The target's own path when accepted, else `fallback` (the market's get-started page). */
export function redirectTargetOr(raw: unknown, ownOrigin: string, fallback: string): string {
  const checked = checkRedirectTarget(raw, ownOrigin);
  return checked.accepted ? checked.path : fallback;
}
