// Each distinct screen is checked once per run by each markup checker (axe, the Nu checker, HTML_CodeSniffer): a hash
// of what the checker sees decides, and a screen seen before gets the findings of its first check under its own name.
// The findings are shared by the run's test workers through files in CHECKED_SCREENS_DIR (tests/support/globalSetup.ts),
// where each submission is also counted; without that directory, within the worker only.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CSRF_FIELD, CSRF_META } from '../../client/components/csrfToken.ts';

export type Checker = 'axe' | 'nu' | 'codeSniffer';
export const checkers: readonly Checker[] = ['axe', 'nu', 'codeSniffer'];

export const CHECKED_SCREENS_DIR = 'CHECKED_SCREENS_DIR';

export const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * `markup` with the values each request or prospect makes up (CSP nonces, anti-forgery tokens, UUIDs) named by their
 * order of appearance: for deciding whether two screens are the same, as no checker's finding depends on such a value
 * beyond its being equal to another.
 */
export function withOpaqueValuesNamed(markup: string): string {
  const names = new Map<string, string>();
  const named = (value: string) => names.get(value) ?? names.set(value, `opaque${names.size}`).get(value)!;
  const tokens = [...markup.matchAll(new RegExp(`name="(?:${CSRF_FIELD}|${CSRF_META})" (?:value|content)="([^"]+)"`, 'g'))].map((m) => m[1]!);
  let text = markup.replace(/\bnonce="([^"]*)"/g, (_, nonce: string) => `nonce="${named(nonce)}"`);
  for (const token of tokens) text = text.replaceAll(token, named(token));
  return text.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, named);
}

/**
 * What axe and HTML_CodeSniffer judge on a page as it is now, as one string: the DOM and the state the markup does not
 * show (form values, focus, an open modal, scroll, the viewport the layout and contrast depend on). Styles come from
 * the markup too (the run's stylesheet does not change during it).
 */
export async function shownScreen(page: Page): Promise<string> {
  const shown = await page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    const values = [...document.querySelectorAll('input, select, textarea')].map((el) =>
      el instanceof HTMLInputElement
        ? `${el.value}:${el.checked}`
        : el instanceof HTMLSelectElement
          ? String(el.selectedIndex)
          : (el as HTMLTextAreaElement).value,
    );
    return [
      document.compatMode,
      window.innerWidth,
      window.innerHeight,
      window.scrollX,
      window.scrollY,
      all.indexOf(document.activeElement as Element),
      all.map((el) => (el.matches(':modal') ? 1 : 0)).join(''),
      values.join('\u0000'),
      document.documentElement.outerHTML,
    ].join('\u0001');
  });
  return withOpaqueValuesNamed(shown);
}

const known = new Map<string, Promise<unknown>>();

function sharedDir(): string | undefined {
  const dir = process.env[CHECKED_SCREENS_DIR];
  if (dir) mkdirSync(dir, { recursive: true });
  return dir;
}

function readShared(dir: string | undefined, checker: Checker, hash: string): { findings: unknown } | undefined {
  if (!dir) return undefined;
  try {
    return { findings: JSON.parse(readFileSync(join(dir, `${checker}-${hash}.json`), 'utf8')) };
  } catch {
    return undefined;
  }
}

function count(dir: string | undefined, checker: Checker, hash: string, checked: boolean): void {
  // One line per submission; O_APPEND keeps the workers' lines whole.
  if (dir) appendFileSync(join(dir, `${checker}.log`), `${hash} ${checked ? 'checked' : 'reused'}\n`);
}

/**
 * The findings of `checker` on the screen whose content is `content` (plain JSON, without the screen's name):
 * `check()` runs only for content not seen before in this run (`dir`: where the run's workers share findings and
 * count submissions). A check that threw is not kept.
 */
export function checkedOnce<T>(checker: Checker, content: string, check: () => Promise<T>, dir = sharedDir()): Promise<T> {
  const hash = hashOf(content);
  const key = `${dir} ${checker} ${hash}`;
  const mine = known.get(key);
  if (mine) {
    count(dir, checker, hash, false);
    return mine as Promise<T>;
  }
  const theirs = readShared(dir, checker, hash);
  if (theirs) {
    count(dir, checker, hash, false);
    const findings = Promise.resolve(theirs.findings as T);
    known.set(key, findings);
    return findings;
  }
  count(dir, checker, hash, true);
  const findings = check().then((found) => {
    if (dir) {
      const file = join(dir, `${checker}-${hash}.json`);
      writeFileSync(`${file}.${process.pid}`, JSON.stringify(found));
      renameSync(`${file}.${process.pid}`, file);
    }
    return found;
  });
  known.set(key, findings);
  findings.catch(() => known.delete(key));
  return findings;
}

/** Per checker: the screens submitted, the distinct ones among them, and the checks run (more than distinct only when two workers met the same screen at once). */
export function checkedScreensReport(dir: string): Record<Checker, { submitted: number; distinct: number; checked: number }> {
  const entries = checkers.map((checker) => {
    let lines: string[] = [];
    try {
      lines = readFileSync(join(dir, `${checker}.log`), 'utf8')
        .split('\n')
        .filter(Boolean);
    } catch {
      // Nothing submitted to this checker in this run.
    }
    const hashes = new Set(lines.map((line) => line.split(' ')[0]));
    return [checker, { submitted: lines.length, distinct: hashes.size, checked: lines.filter((l) => l.endsWith(' checked')).length }] as const;
  });
  return Object.fromEntries(entries) as Record<Checker, { submitted: number; distinct: number; checked: number }>;
}
