// Identified people for the bench, over plain HTTP as tests/support/journey.ts identifyOverHttp does (without a test
// runner): choosing Private starts the QR order, the sandbox's phone identifies a persona, the status poll completes
// and routing answers the person's page. Each person keeps a cookie jar of their own (distinct sessions).
import type { StepId } from '../shared/contracts/brokerageContract.ts';
import { httpAnswerOf, screenOf } from '../tests/support/httpAnswers.ts';

export interface Persona {
  nationalId: string;
  country: string;
  scenario: string;
}

/** One browser's cookies: name → value, as Set-Cookie left them. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      if (at > 0) this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  entries(): Array<[string, string]> {
    return [...this.cookies];
  }
}

/** A browser over fetch: its cookies, no redirects followed, posts as a same-origin form. */
export function browserOf(webUrl: string, jar = new CookieJar()) {
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(path, webUrl), {
      ...init,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(init.headers as Record<string, string>) },
    });
    jar.take(res);
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };
  return {
    jar,
    get: (path: string) => call(path),
    post: (path: string, body: string) =>
      call(path, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' } }),
  };
}

export interface Person {
  scenario: string;
  /** The Cookie header of the person's browser. */
  cookie: string;
  cookies: Array<[string, string]>;
  /** The customer-information page (path and query) the person is on. */
  page: string;
}

async function expectStatus(what: string, actual: { status: number; text: string }, status: number): Promise<void> {
  if (actual.status !== status) throw new Error(`${what}: answered ${actual.status}, expected ${status}: ${actual.text.slice(0, 200)}`);
}

export async function waitingOrders(sandboxUrl: string): Promise<string[]> {
  const orders = (await (await fetch(`${sandboxUrl}/sandbox/bankid/orders`)).json()) as Array<{ orderRef: string }>;
  return orders.map((o) => o.orderRef);
}

export async function identifyOrder(sandboxUrl: string, orderRef: string, persona: Persona): Promise<void> {
  const res = await fetch(`${sandboxUrl}/sandbox/bankid/orders/${orderRef}/identify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nationalId: persona.nationalId }),
  });
  if (!res.ok) throw new Error(`the sandbox phone could not identify order ${orderRef}: ${res.status}`);
}

export async function personaOf(sandboxUrl: string, scenario: string): Promise<Persona> {
  const personas = (await (await fetch(`${sandboxUrl}/sandbox/personas`)).json()) as Persona[];
  const found = personas.find((p) => p.scenario === scenario && p.country === 'SE');
  if (!found) throw new Error(`no SE persona for ${scenario}`);
  return found;
}

// The new order is found by what was waiting before: one start at a time, across the callers side by side.
let ordersInTurn: Promise<unknown> = Promise.resolve();

/** The text of the page's main element, for an error that says what the person saw. */
const mainText = (html: string) =>
  (/<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? html)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 400);

/**
 * Chooses Private and finds the order it started. A start the BankID page answers with a failure ("try again": on a
 * starved machine the start limits' Redis check can outlast its 1 s command timeout) is tried again, as the person
 * would, at most three times.
 */
async function startOrder(browser: ReturnType<typeof browserOf>, sandboxUrl: string): Promise<string> {
  let shown = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = new Set(await waitingOrders(sandboxUrl));
    await expectStatus('choosing Private', await browser.post('/onboarding/customer-type', 'customerType=private'), 303);
    const page = await browser.get('/onboarding');
    await expectStatus('the BankID page', page, 200);
    const orderRef = (await waitingOrders(sandboxUrl)).find((o) => !before.has(o));
    if (orderRef) return orderRef;
    shown = mainText(page.text);
  }
  throw new Error(`choosing Private started no BankID order, three times; the BankID page said: ${shown}`);
}

/** Identifies one person as the persona. */
async function identify(webUrl: string, sandboxUrl: string, persona: Persona) {
  const browser = browserOf(webUrl);
  const started = ordersInTurn.then(() => startOrder(browser, sandboxUrl));
  ordersInTurn = started.catch(() => undefined);
  const orderRef = await started;
  await identifyOrder(sandboxUrl, orderRef, persona);
  await expectStatus('the BankID status', await browser.get('/onboarding/identification/bankid/status'), 200);
  const routed = await browser.get('/onboarding/routing');
  if (routed.status !== 303 || !routed.location) throw new Error(`routing answered ${routed.status}`);
  return { browser, page: routed.location };
}

/** Looks at the person's page until it shows `until` (a KYC loader waits on the worker), at most `timeoutMs`. */
async function shownScreen(browser: ReturnType<typeof browserOf>, page: string, until: (step: string, screen: string) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await browser.get(page);
    const shown = screenOf(res.text);
    if (shown && until(...shown)) return { html: res.text, step: shown[0] as StepId, screen: shown[1] };
    if (Date.now() > deadline) throw new Error(`${page} still shows ${shown?.join(' ') ?? `a ${res.status}`}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export type PageKind = 'step' | 'kyc' | 'legacy';

const scenarioOf: Record<PageKind, string> = { step: 'onboarding', kyc: 'kyc', legacy: 'legacyFlow' };

/**
 * `count` people on a page of `kind`: step, the account picker (onboarding persona, past milestone one); kyc, the
 * first KYC question (the kyc persona, once the worker prepared it); legacy, the legacy single form (legacyFlow).
 */
export async function peopleOn(kind: PageKind, count: number, webUrl: string, sandboxUrl: string): Promise<Person[]> {
  const persona = await personaOf(sandboxUrl, scenarioOf[kind]);
  const people: Person[] = [];
  for (let i = 0; i < count; i++) {
    const { browser, page } = await identify(webUrl, sandboxUrl, persona);
    const path = page.split('?')[0]!;
    if (kind === 'step') {
      // The persona's application resumes where an earlier person of the bench left it (past milestone one).
      const first = await shownScreen(browser, page, () => true);
      if (first.step === 'MILESTONE_ONE_STEP') {
        const body = httpAnswerOf(first.step, first.screen, first.html);
        if (typeof body !== 'string') throw new Error('milestone one posts no file');
        await expectStatus('milestone one', await browser.post(`${path}/step`, body), 303);
      }
      await shownScreen(browser, page, (step) => step === 'ACCOUNT_PICKER_STEP');
    } else if (kind === 'kyc') {
      await shownScreen(browser, page, (step, screen) => step === 'KYC_STEP' && screen === 'question');
    } else {
      await shownScreen(browser, page, (step, screen) => step === 'EXISTING_STEP' && screen === 'form');
    }
    people.push({ scenario: persona.scenario, cookie: browser.jar.header(), cookies: browser.jar.entries(), page });
  }
  return people;
}
