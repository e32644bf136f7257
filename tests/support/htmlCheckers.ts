// The two markup checkers beside axe: the Nu HTML Checker (vnu-jar, the W3C validator) on each screen's HTML, and
// HTML_CodeSniffer's WCAG2AA sniffs on the page as shown. Java starts once per walk, not per screen (seconds on 2 cores):
//   const checks = new HtmlChecks();
//   checks.collect(screen, html); checks.sniffed(screen, await codeSnifferErrors(page));   // each screen
//   expect(await checks.errors()).toEqual([]);                                            // once per walk
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { checkedOnce, hashOf, shownScreen, withOpaqueValuesNamed } from './checkedOnce.ts';

const require = createRequire(import.meta.url);
const VNU_JAR = require.resolve('vnu-jar/build/dist/vnu.jar');
const HTMLCS_JS = require.resolve('html_codesniffer/build/HTMLCS.js');

/** The Nu checker's `--format json` output; only what the failure lines need. */
const nuOutput = z.object({
  messages: z.array(
    z.object({
      type: z.string(),
      subType: z.string().optional(),
      url: z.string().optional(),
      message: z.string(),
      extract: z.string().optional(),
    }),
  ),
});

/**
 * The failures in the Nu checker's JSON output, one line each: `<screen>: <message> (<extract>)`. An error
 * fails, and so does a non-document error (a file the checker could not read or parse: the check did not
 * happen); info messages (warnings included) do not. `screenOf` names the screen of a checked file's URL.
 */
export function nuFailures(json: string, screenOf: (url: string) => string): string[] {
  const { messages } = nuOutput.parse(JSON.parse(json));
  return messages
    .filter((m) => m.type === 'error' || m.type === 'non-document-error')
    .map((m) => {
      const where = m.url ? screenOf(m.url) : 'Nu checker';
      const extract = m.extract ? ` (${m.extract.replace(/\s+/g, ' ').trim()})` : '';
      return `${where}: ${m.type === 'error' ? '' : `${m.type}${m.subType ? ` ${m.subType}` : ''}: `}${m.message}${extract}`;
    });
}

/**
 * Runs the Nu checker once over the distinct `documents` (screen → HTML) not checked before in this run
 * (tests/support/checkedOnce.ts), and answers every document's failures (nuFailures) under its screen's name.
 */
export async function nuCheck(documents: ReadonlyArray<{ screen: string; html: string }>): Promise<string[]> {
  const unchecked = new Map<string, { html: string; settle: (found: Promise<string[]>) => void }>();
  const findings = documents.map(({ html }) =>
    checkedOnce(
      'nu',
      withOpaqueValuesNamed(html),
      () => new Promise<string[]>((resolve) => unchecked.set(hashOf(withOpaqueValuesNamed(html)), { html, settle: resolve })),
    ),
  );
  // Awaited below unless the run fails first (which then fails the walk).
  for (const found of findings) found.catch(() => undefined);
  if (unchecked.size > 0) {
    const run = nuRun([...unchecked].map(([hash, { html }]) => ({ hash, html })));
    // A failure of no document (the checker could not read one) means the check did not happen: nothing is kept.
    for (const [hash, { settle }] of unchecked)
      settle(run.then(({ byHash, unplaced }) => (unplaced.length > 0 ? Promise.reject(new Error(unplaced.join('\n'))) : (byHash.get(hash) ?? []))));
    const { unplaced } = await run;
    if (unplaced.length > 0) return unplaced;
  }
  return (await Promise.all(findings)).flatMap((lines, i) => lines.map((line) => `${documents[i]!.screen}: ${line}`));
}

/** One Nu checker run (one Java start) over `documents`: the failures per document's hash, and those of no document. */
async function nuRun(documents: ReadonlyArray<{ hash: string; html: string }>): Promise<{ byHash: Map<string, string[]>; unplaced: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'nu-'));
  try {
    const byUrl = new Map<string, string>();
    const files = await Promise.all(
      documents.map(async ({ hash, html }) => {
        const file = join(dir, `${hash}.html`);
        await writeFile(file, html);
        byUrl.set(pathToFileURL(file).href, hash);
        return file;
      }),
    );
    // The client compiler alone and the serial collector: a short run spends most of its CPU compiling and collecting
    // otherwise (a quarter of the CPU for one screen, two thirds for a walk's); the client compiler needs a larger stack.
    const jvm = ['-Xss4m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];
    const { stdout } = await promisify(execFile)('java', [...jvm, '-jar', VNU_JAR, '--format', 'json', '--exit-zero-always', '--stdout', ...files], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const byHash = new Map<string, string[]>();
    const unplaced: string[] = [];
    // The checker names a file `file:/tmp/…`; Node's URL, `file:///tmp/…`. A line is `<hash>: <failure>`.
    for (const line of nuFailures(stdout, (url) => byUrl.get(pathToFileURL(new URL(url).pathname).href) ?? url)) {
      const [hash, failure] = [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)];
      if (documents.some((d) => d.hash === hash)) byHash.set(hash, [...(byHash.get(hash) ?? []), failure]);
      else unplaced.push(line);
    }
    return { byHash, unplaced };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let htmlcsSource: Promise<string> | undefined;

/**
 * HTML_CodeSniffer's WCAG2AA errors on the page as it is now, one line each: `<code> <message> (<element's
 * outerHTML, its start>)`; warnings and notices (things for a person to look at) do not count. The script is
 * evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
 */
export async function codeSnifferErrors(page: Page): Promise<string[]> {
  return checkedOnce('codeSniffer', await shownScreen(page), async () => {
    htmlcsSource ??= readFile(HTMLCS_JS, 'utf8');
    const source = await htmlcsSource;
    const loaded = await page.evaluate('typeof HTMLCS !== "undefined"');
    if (!loaded) await page.evaluate(`${source}\n;undefined`);
    return page.evaluate(
      () =>
        new Promise<string[]>((resolve, reject) => {
          interface Message {
            type: number;
            code: string;
            msg: string;
            element: Element | Document;
          }
          const htmlcs = (window as unknown as { HTMLCS: { process: (...args: unknown[]) => void; getMessages: () => Message[] } }).HTMLCS;
          htmlcs.process(
            'WCAG2AA',
            document,
            () => {
              const ERROR = 1;
              resolve(
                htmlcs
                  .getMessages()
                  .filter((m) => m.type === ERROR)
                  .map((m) => {
                    const element = m.element instanceof Element ? m.element.outerHTML : '#document';
                    return `${m.code} ${m.msg} (${element.replace(/\s+/g, ' ').slice(0, 160)})`;
                  }),
              );
            },
            () => reject(new Error('HTML_CodeSniffer could not run')),
            'en',
          );
        }),
    );
  });
}

/**
 * The HTML the server sent for `page`'s current document (its last main-frame navigation that was not a
 * redirect): for a JavaScript-free browser, that is the whole screen; `page.content()` would be the parser's
 * re-serialisation of it, with the markup's own mistakes already repaired.
 */
export function trackServerMarkup(page: Page): () => Promise<string> {
  let last: Promise<string> | undefined;
  page.on('response', (response) => {
    const request = response.request();
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    if (response.status() >= 300 && response.status() < 400) return;
    // Read at once: Chromium drops a document's body when the page navigates on, and a screen that refreshes
    // itself (the BankID QR screen without JavaScript) may do so before the walk asks for it.
    last = response.body().then((body) => body.toString('utf8'));
    last.catch(() => undefined);
  });
  return async () => {
    if (!last) throw new Error('no document loaded yet');
    return last;
  };
}

/** The findings of both checkers over one walk (see the top of this file). */
export class HtmlChecks {
  private readonly documents: Array<{ screen: string; html: string }> = [];
  private readonly sniffs: string[] = [];

  collect(screen: string, html: string): void {
    this.documents.push({ screen, html });
  }

  sniffed(screen: string, errors: readonly string[]): void {
    this.sniffs.push(...errors.map((error) => `${screen}: ${error}`));
  }

  get screens(): number {
    return this.documents.length;
  }

  /** Both checkers' failures: HTML_CodeSniffer's as found, then the one Nu run's over every collected screen. */
  async errors(): Promise<{ nu: string[]; codeSniffer: string[] }> {
    return { nu: await nuCheck(this.documents), codeSniffer: [...this.sniffs] };
  }
}
