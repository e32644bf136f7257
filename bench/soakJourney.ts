// The people of `npm run soak` (bench/soak.ts): one scripted person over HTTP from the start page to the final outcome
// of their customer creation (SE BankID, every customer-information step, signing in the sandbox), each request sent to
// either web process as a balancer would. A person who meets an error page or a refused connection reloads or presses
// again after a moment, for a bounded time; one whose identification broke off starts over in a new browser.
import { CookieJar, identifyOrder, waitingOrders, type Persona } from './people.ts';
import type { JourneyRecord } from './soakMath.ts';
import { answerStepsOverHttp, screenOf } from '../tests/support/httpAnswers.ts';
import { isFinal, type CreationOutcome } from '../shared/creationOutcome.ts';

/** A request that takes longer is given up on, as a person would (the product's own deadline is shorter). */
const REQUEST_TIMEOUT_MS = 20_000;
/** How long a person keeps reloading one page that errs (a restart of the web or of Redis takes a few seconds). */
const RELOAD_FOR_MS = 45_000;
/** How long a signed person waits on the creation page for the final outcome (45 polls take 90 s; a killed worker's job returns after its lock lapses). */
export const OUTCOME_WITHIN_MS = 240_000;
const IDENTIFY_TRIES = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The web processes and the sandbox the people walk on. */
export interface SoakSite {
  webUrls: string[];
  sandboxUrl: string;
}

/** Why people had to reload or press again: a refused connection, a timeout, an error page's status. */
export const retryCauses = new Map<string, number>();
function retried(journey: JourneyRecord, cause: string): void {
  journey.retries += 1;
  retryCauses.set(cause, (retryCauses.get(cause) ?? 0) + 1);
}

type Answer = { status: number; location: string | null; text: string };

/**
 * One browser: its cookie jar, each request to either web process at random (a path of ours), no redirects followed.
 * Random, not in turn: in turn, a person's reload and post could keep landing on the live and the dead process.
 */
function personBrowser(webUrls: string[]) {
  const jar = new CookieJar();
  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const base = webUrls[Math.floor(Math.random() * webUrls.length)]!;
    const res = await fetch(new URL(path, base), {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: { cookie: jar.header(), ...(init.headers as Record<string, string>) },
    });
    jar.take(res);
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };
  return {
    get: (path: string) => call(path),
    post: (path: string, body: string) =>
      call(path, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' } }),
  };
}
type Browser = ReturnType<typeof personBrowser>;

/** Our own path of a redirect location (the web processes' PUBLIC_URLs differ; the balancer serves them all). */
const pathOf = (location: string) => {
  const url = new URL(location, 'http://web.invalid');
  return url.pathname + url.search;
};

/**
 * Sends a request again (a reload, or pressing again) while it fails: refused or cut connection, timeout, or an error
 * page (5xx), for at most RELOAD_FOR_MS. Answers the first other answer.
 */
const causeOf = (err: unknown) =>
  err instanceof Error ? ((err.cause as { code?: string } | undefined)?.code ?? (err.name === 'TimeoutError' ? 'timed out' : err.message)) : String(err);

async function persist(journey: JourneyRecord, what: string, send: () => Promise<Answer>): Promise<Answer> {
  const until = Date.now() + RELOAD_FOR_MS;
  for (;;) {
    let failure: string;
    try {
      const answer = await send();
      if (answer.status < 500) return answer;
      failure = `answered ${answer.status}`;
    } catch (err) {
      failure = causeOf(err);
    }
    if (Date.now() > until) throw new Error(`${what}: still failing after ${RELOAD_FOR_MS / 1000} s (${failure})`);
    retried(journey, failure);
    await sleep(1000);
  }
}

function expectStatus(what: string, answer: Answer, status: number): Answer {
  if (answer.status !== status) throw new Error(`${what}: answered ${answer.status}, expected ${status}: ${answer.text.slice(0, 160).replace(/\s+/g, ' ')}`);
  return answer;
}

// The new BankID order is found by what was waiting before: one start at a time across the lanes.
let ordersInTurn: Promise<unknown> = Promise.resolve();

/** Choosing Private (which starts the QR order), the phone identifying, the status poll, routing: the person's page. */
async function identify(journey: JourneyRecord, { webUrls, sandboxUrl }: SoakSite, persona: Persona): Promise<{ browser: Browser; page: string }> {
  const browser = personBrowser(webUrls);
  const startOrder = async () => {
    const before = new Set(await waitingOrders(sandboxUrl));
    expectStatus('choosing Private', await persist(journey, 'choosing Private', () => browser.post('/onboarding/customer-type', 'customerType=private')), 303);
    expectStatus('the BankID page', await persist(journey, 'the BankID page', () => browser.get('/onboarding')), 200);
    const orderRef = (await waitingOrders(sandboxUrl)).find((o) => !before.has(o));
    if (!orderRef) throw new Error('choosing Private started no BankID order');
    return orderRef;
  };
  const started = ordersInTurn.then(startOrder);
  ordersInTurn = started.catch(() => undefined);
  const orderRef = await started;
  await identifyOrder(sandboxUrl, orderRef, persona);
  expectStatus('the BankID status', await persist(journey, 'the BankID status', () => browser.get('/onboarding/identification/bankid/status')), 200);
  const routed = await persist(journey, 'routing', () => browser.get('/onboarding/routing'));
  // Routing back to the start (the identification's save refused while Redis restarted): the person starts over.
  if (routed.status !== 303 || !routed.location?.includes('/onboarding/customer-information/'))
    throw new Error(`routing answered ${routed.status} ${routed.location ?? ''}`);
  return { browser, page: pathOf(routed.location) };
}

/** A page's first heading, as text (to name an error screen). */
const titleOf = (html: string) =>
  (/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, '')
    .trim()
    .slice(0, 80);

/** The creation outcome the page shows (views/components/CreationStatus.tsx marks it with data-outcome). */
export const shownOutcome = (html: string) => /\bdata-outcome="([A-Za-z_]+)"/.exec(html)?.[1] as CreationOutcome | undefined;

/** One person from the start page to the final outcome of their customer creation. */
export async function walk(journey: JourneyRecord, site: SoakSite, persona: Persona): Promise<void> {
  let identified: { browser: Browser; page: string } | undefined;
  for (let i = 1; !identified; i++) {
    try {
      identified = await identify(journey, site, persona);
    } catch (err) {
      // Started over in a new browser, as a person whose identification broke off would.
      if (i >= IDENTIFY_TRIES) throw err;
      retried(journey, `identification started over (${err instanceof Error ? err.message.slice(0, 60) : String(err)})`);
    }
  }
  const { browser, page } = identified;
  journey.prospectId = decodeURIComponent(page.split('?')[0]!.split('/').pop()!);
  const path = page.split('?')[0]!;

  // Every step answered; a post that failed is found out by the reload that follows (the walker reads the page again).
  let lastShown = '';
  let lastPost = '';
  await answerStepsOverHttp(
    async () => {
      // A page without a step (an error screen served whole) is reloaded after a moment, as a person would.
      const until = Date.now() + RELOAD_FOR_MS;
      for (;;) {
        const html = expectStatus('the customer-information page', await persist(journey, 'the customer-information page', () => browser.get(page)), 200).text;
        const shown = screenOf(html);
        lastShown = shown?.join(' ') ?? `no step: "${titleOf(html)}"`;
        if (shown || Date.now() > until) return html;
        retried(journey, `a page without a step ("${titleOf(html)}")`);
        await sleep(1000);
      }
    },
    async (body) => {
      const answer = await browser.post(`${path}/step`, body).catch((err: unknown) => causeOf(err));
      lastPost = typeof answer === 'string' ? answer : `answered ${answer.status}`;
      if (typeof answer === 'string' || answer.status !== 303) {
        // A person reads the page again after a moment and answers what it shows.
        retried(journey, typeof answer === 'string' ? answer : `step post answered ${answer.status}`);
        await sleep(1000);
      }
    },
  ).catch((err: Error) => {
    throw new Error(`${err.message} (last shown: ${lastShown}; its last post ${lastPost})`);
  });

  // Milestone three: Sign with BankID leads to the sandbox's signing page; pressed again until it does.
  let signingUrl: string | undefined;
  const signUntil = Date.now() + RELOAD_FOR_MS;
  while (!signingUrl) {
    const answer = await browser.post(`${path}/step`, 'step=MILESTONE_THREE_STEP&screen=milestone').catch((err: unknown) => causeOf(err));
    if (typeof answer !== 'string' && answer.status === 303 && answer.location?.includes('/sandbox/signing/')) signingUrl = answer.location;
    else {
      const failure = typeof answer === 'string' ? answer : `milestone three answered ${answer.status}`;
      if (Date.now() > signUntil) throw new Error(`signing: ${failure}`);
      retried(journey, failure);
      await sleep(1000);
      const shown = screenOf((await persist(journey, 'milestone three', () => browser.get(page))).text);
      if (shown?.[0] !== 'MILESTONE_THREE_STEP') throw new Error(`signing: the page shows ${shown?.join(' ') ?? 'no step'} instead of milestone three`);
    }
  }
  const signed = await fetch(`${site.sandboxUrl}${new URL(signingUrl).pathname}/sign`, { method: 'POST', redirect: 'manual' });
  await signed.arrayBuffer();
  const complete = signed.headers.get('location');
  if (signed.status !== 303 || !complete) throw new Error(`the sandbox's Sign answered ${signed.status}`);
  journey.signed = true;

  // Back from signing: the redirects lead to the creation page, which refreshes itself every 2 s without JavaScript.
  let next = pathOf(complete);
  const until = Date.now() + OUTCOME_WITHIN_MS;
  for (let hops = 0; Date.now() < until;) {
    const answer = await persist(journey, next, () => browser.get(next)).catch((err: Error) => {
      if (Date.now() > until) throw err;
      return null;
    });
    if (answer && answer.status === 303 && answer.location) {
      if (++hops > 10) throw new Error(`back from signing: more than 10 redirects (at ${next})`);
      next = pathOf(answer.location);
      continue;
    }
    if (answer && answer.status !== 200) throw new Error(`${next} answered ${answer.status}`);
    const outcome = answer && shownOutcome(answer.text);
    if (outcome && isFinal(outcome)) {
      journey.seen = outcome;
      return;
    }
    await sleep(2000);
  }
  throw new Error(`no final outcome on the creation page within ${OUTCOME_WITHIN_MS / 1000} s`);
}
