// Lighthouse on every page of the journey as the identified person sees it (mobile performance ≥ 98, accessibility
// and best practices 100). How it walks and audits: docs/benchmarkMethods.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import type { Result as LighthouseResult } from 'lighthouse';
import { chromiumArgs } from '../tests/support/browser.ts';
import { CHROMIUM_PATH } from '../tests/support/chromiumPaths.ts';
import { answerStepsOverHttp, screenOf } from '../tests/support/httpAnswers.ts';
import { freePort } from './benchStack.ts';
import { browserOf, identifyOrder, peopleOn, personaOf, waitingOrders } from './people.ts';
import { markdownTable } from './benchMath.ts';
import { LIGHTHOUSE_TARGETS, type LighthouseCategory as Category } from './budgets.ts';

const CATEGORIES: readonly Category[] = ['performance', 'accessibility', 'best-practices'];

export interface LighthouseScores {
  page: string;
  /** 0–100 as Lighthouse shows them; null when the page was not audited or the category has no score. */
  scores: Record<Category, number | null>;
  /** The audits that cost the most in each category under its target, "id (shown value)". */
  failing: string[];
  /** Lighthouse's benchmarkIndex of the machine during the run: its 4× CPU slowdown multiplies what this host took. */
  hostCpu: number | null;
  /** Why the page has no scores (a timeout, an error, the part's cap). */
  error?: string;
}

const AUDIT_TIMEOUT_MS = 90_000;
const TOP_FAILING = 5;

/** Under its target, or not measured. */
export function underTarget(s: LighthouseScores): Category[] {
  return CATEGORIES.filter((c) => s.scores[c] === null || s.scores[c] < LIGHTHOUSE_TARGETS[c]);
}

type Lhr = Pick<LighthouseResult, 'categories' | 'audits' | 'finalDisplayedUrl' | 'environment' | 'runtimeError'>;

function onlyNotActionable(details: unknown): boolean {
  const items = (details as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) && items.length > 0 && items.every((i) => (i as { failureType?: unknown }).failureType === 'Not actionable');
}

/**
 * The audits behind a category's shortfall: the weighted ones (performance's metrics, every accessibility and best
 * practices audit) by what they cost the score, then performance's unweighted opportunities and diagnostics by score.
 */
export function failingAudits(lhr: Pick<Lhr, 'categories' | 'audits'>, categories: readonly Category[], top = TOP_FAILING): string[] {
  const found: Array<{ id: string; label: string; cost: number; score: number }> = [];
  for (const c of categories) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (['notApplicable', 'informative', 'manual', 'error'].includes(audit.scoreDisplayMode)) continue;
      // bf-cache's reasons here are all "Not actionable": no-store on pages with personal data, and headless flags.
      if (onlyNotActionable(audit.details)) continue;
      if (found.some((f) => f.id === ref.id)) continue;
      const label = audit.displayValue ? `${ref.id} (${audit.displayValue})` : ref.id;
      found.push({ id: ref.id, label, cost: ref.weight * (1 - audit.score), score: audit.score });
    }
  }
  return found
    .sort((a, b) => b.cost - a.cost || a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, top)
    .map((f) => f.label);
}

/** Lighthouse's shown score (0–100) of each category. */
export function scoresOf(lhr: Pick<Lhr, 'categories'>): Record<Category, number | null> {
  const shown = (c: Category) => {
    const score = lhr.categories[c]?.score;
    return typeof score === 'number' ? Math.round(score * 100) : null;
  };
  return { performance: shown('performance'), accessibility: shown('accessibility'), 'best-practices': shown('best-practices') };
}

export function lighthouseTable(pages: readonly LighthouseScores[]): string {
  const shown = (n: number | null) => (n === null ? 'n/a' : String(n));
  return markdownTable(
    ['page', 'performance', 'accessibility', 'best practices', 'benchmarkIndex', 'under target: top audits'],
    pages.map((p) => [
      p.page,
      shown(p.scores.performance),
      shown(p.scores.accessibility),
      shown(p.scores['best-practices']),
      p.hostCpu === null ? 'n/a' : String(Math.round(p.hostCpu)),
      p.error ?? (p.failing.join(', ') || '—'),
    ]),
  );
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

interface Auditor {
  /** Audits `path` on the web with these cookies in the browser (none: a first visit). */
  audit(page: string, path: string, cookies: ReadonlyArray<[string, string]>): Promise<void>;
  results: LighthouseScores[];
}

function auditorOn(
  lighthouse: typeof import('lighthouse').default,
  context: BrowserContext,
  port: number,
  webUrl: string,
  deadline: number,
  log: (l: string) => void,
): Auditor {
  const results: LighthouseScores[] = [];
  const none = { performance: null, accessibility: null, 'best-practices': null };
  /** One Lighthouse run: its result, or why there is none (`again`: Lighthouse's own failure, worth one more try). */
  const runOnce = async (page: string, url: string, timeoutMs: number): Promise<Lhr | { error: string; again: boolean }> => {
    try {
      const run = lighthouse(url, { port, logLevel: 'error', output: 'json', onlyCategories: [...CATEGORIES] });
      const lhr = (await withTimeout(run, timeoutMs, `Lighthouse on ${page}`))?.lhr;
      if (!lhr) return { error: 'Lighthouse gave no result', again: true };
      // NO_NAVSTART, NO_FCP and the like: Lighthouse's trace of the load went wrong, not the page.
      if (lhr.runtimeError) return { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`, again: true };
      // A page that moved on by itself while loading (a finished creation) would be scored as the page it went to.
      const landed = new URL(lhr.finalDisplayedUrl);
      if (landed.origin + landed.pathname !== new URL(url).origin + new URL(url).pathname)
        return { error: `moved on to ${landed.href} while audited`, again: false };
      return lhr;
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err), again: false };
    }
  };
  return {
    results,
    async audit(page, path, cookies) {
      const started = performance.now();
      let failure = 'not audited: the part reached its cap';
      for (let attempt = 1; attempt <= 2; attempt++) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        // Lighthouse clears the cache and the origin's storage (not its cookies) itself.
        await context.clearCookies();
        if (cookies.length > 0) await context.addCookies(cookies.map(([name, value]) => ({ name, value, url: webUrl })));
        const lhr = await runOnce(page, new URL(path, webUrl).href, Math.min(AUDIT_TIMEOUT_MS, left));
        if (!('error' in lhr)) {
          const entry: LighthouseScores = { page, scores: scoresOf(lhr), failing: [], hostCpu: lhr.environment.benchmarkIndex };
          entry.failing = failingAudits(lhr, underTarget(entry));
          results.push(entry);
          const seconds = Math.round((performance.now() - started) / 1000);
          const failing = entry.failing.length ? `; ${entry.failing.join(', ')}` : '';
          log(`  ${page}: ${CATEGORIES.map((c) => `${c} ${entry.scores[c] ?? 'n/a'}`).join(', ')} (${seconds} s, benchmarkIndex ${entry.hostCpu})${failing}`);
          return;
        }
        failure = lhr.error;
        log(`  ${page}: ${lhr.error}${lhr.again && attempt === 1 ? '; once more' : ''}`);
        if (!lhr.again) break;
      }
      results.push({ page, scores: none, failing: [], hostCpu: null, error: failure });
    },
  };
}

/** Follows the web's redirects from `path` over HTTP (at most a few) to the page it shows. */
async function landOn(browser: ReturnType<typeof browserOf>, path: string): Promise<string> {
  for (let hops = 0; hops < 5; hops++) {
    const res = await browser.get(path);
    if (res.status === 200) return path;
    if (res.status < 300 || res.status >= 400 || !res.location) throw new Error(`${path} answered ${res.status}`);
    path = res.location;
  }
  throw new Error(`${path}: too many redirects`);
}

/** The journey over HTTP, auditing each page as the person reaches it. */
async function walkAndAudit(webUrl: string, sandboxUrl: string, auditor: Auditor): Promise<void> {
  const browser = browserOf(webUrl);
  await auditor.audit('start page', '/onboarding', []);

  const choosePrivate = async (someone: ReturnType<typeof browserOf>) => {
    const chosen = await someone.post('/onboarding/customer-type', 'customerType=private');
    if (chosen.status !== 303) throw new Error(`choosing Private answered ${chosen.status}`);
  };
  // The BankID page as someone of its own sees it: an order lives 30 s (the sandbox's), less than an audit may take
  // here, so the person who walks on chooses Private after it and is identified at once.
  const waiting = browserOf(webUrl);
  await choosePrivate(waiting);
  await auditor.audit('BankID', '/onboarding', waiting.jar.entries());

  const persona = await personaOf(sandboxUrl, 'creationStuck');
  const before = new Set(await waitingOrders(sandboxUrl));
  await choosePrivate(browser);
  await browser.get('/onboarding');
  const orderRef = (await waitingOrders(sandboxUrl)).find((o) => !before.has(o));
  if (!orderRef) throw new Error('choosing Private started no BankID order');
  // A creation that stays queued: the creation page is loaded while it waits, as a person sees it, and does not move
  // on to the logged-in site (the onboarding persona's creation is done within a second here). The web gives up after
  // its 45th poll, 13.5 s after signing at the bench's CREATION_POLL_MS; Lighthouse's load begins a few seconds after it
  // connects, and the error view may replace the waiting one in the page late in the audit (no navigation).
  await identifyOrder(sandboxUrl, orderRef, persona);
  await browser.get('/onboarding/identification/bankid/status');
  const routed = await browser.get('/onboarding/routing');
  if (routed.status !== 303 || !routed.location) throw new Error(`routing answered ${routed.status}`);
  const page = routed.location;
  const path = page.split('?')[0]!;

  const audited = new Set<string>();
  const shownAfterLoaders = async () => {
    // A loader waits on the worker and goes by itself: the page after it is the screen (30 s at most).
    const until = Date.now() + 30_000;
    for (;;) {
      const { text } = await browser.get(page);
      const shown = screenOf(text);
      if (shown && shown[1] !== 'loader') return { html: text, step: shown[0], screen: shown[1] };
      if (Date.now() > until) throw new Error(`${page} still shows ${shown?.join(' ') ?? 'no step'}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await answerStepsOverHttp(
    async () => {
      const { html, step, screen } = await shownAfterLoaders();
      const name = `${step} ${screen}`;
      if (!audited.has(name)) {
        audited.add(name);
        await auditor.audit(`customer information: ${name}`, page, browser.jar.entries());
      }
      return html;
    },
    async (body) => {
      const posted = await browser.post(`${path}/step`, body);
      if (posted.status !== 303) throw new Error(`${path}/step answered ${posted.status}`);
    },
  );

  // Milestone three leads to the (sandbox's) signing page; its Sign leads back to the web's completion, then creation.
  const toSigning = await browser.post(`${path}/step`, 'step=MILESTONE_THREE_STEP&screen=milestone');
  if (toSigning.status !== 303 || !toSigning.location) throw new Error(`milestone three answered ${toSigning.status}`);
  const signed = await fetch(`${toSigning.location}/sign`, { method: 'POST', redirect: 'manual' });
  const completeUrl = signed.headers.get('location');
  if (signed.status !== 303 || !completeUrl) throw new Error(`signing answered ${signed.status}`);
  const creation = await landOn(browser, new URL(completeUrl, webUrl).pathname + new URL(completeUrl, webUrl).search);
  await auditor.audit('customer creation', creation, browser.jar.entries());

  const [legacy] = await peopleOn('legacy', 1, webUrl, sandboxUrl);
  await auditor.audit('legacy form', legacy!.page, legacy!.cookies);
}

/** Lighthouse's scores of every page of the journey, within `capMs` (pages past it are listed as not audited). */
export async function measureLighthouse(webUrl: string, sandboxUrl: string, log: (line: string) => void, capMs = 8 * 60_000): Promise<LighthouseScores[]> {
  const none = { performance: null, accessibility: null, 'best-practices': null };
  // Loaded here, not at the top: the pure helpers above are unit-tested without it, and a tree without it (node_modules
  // older than package.json) still gets the bench's other figures.
  let lighthouse: typeof import('lighthouse').default;
  try {
    lighthouse = (await import('lighthouse')).default;
  } catch (err) {
    const error = `Lighthouse could not be loaded (npm ci installs it): ${err instanceof Error ? err.message : String(err)}`;
    log(`  ${error}`);
    return [{ page: 'every page', scores: none, failing: [], hostCpu: null, error }];
  }
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...chromiumArgs, `--remote-debugging-port=${port}`],
  });
  const auditor = auditorOn(lighthouse, context, port, webUrl, Date.now() + capMs, log);
  try {
    await walkAndAudit(webUrl, sandboxUrl, auditor);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    log(`  the walk stopped: ${error}`);
    auditor.results.push({ page: 'the rest of the journey', scores: none, failing: [], hostCpu: null, error });
  } finally {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  }
  return auditor.results;
}
