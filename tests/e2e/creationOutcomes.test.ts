// Every customer-creation outcome's screen and both feedback pages in Chromium (identification-routing-creation §2
// "Customer creation screens", §4, §8): each outcome persona, signed over HTTP and continued in the browser, with and
// without JavaScript, on a phone and a desktop: title, text, buttons and their targets, the FAQ link, the support banner,
// the progress step, the layout and axe. The screen that moves on by itself (nightly downtime) is followed; done stays
// until the person chooses; maxPollingTries' Try again starts polling again.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { browser, expectPhoneLayout, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors, evaluateSettled } from '../support/browser.ts';
import { expectAccessible, identifyOverHttp, recordMainTexts, showWithoutJs } from '../support/journey.ts';
import { answerStepsOverHttp } from '../support/customerInformation.ts';
import { agentCookies } from '../support/agentCookies.ts';
import { routes } from '../../shared/routes.ts';
import en from '../../locales/en.json' with { type: 'json' };

// 45 polls 50 ms apart: the stuck persona reaches maxPollingTries in about two seconds.
const APP_URL = 'https://app.example.com/open';
// The Swedish FAQ (the walk is on the Swedish host): the market's own (identification-routing-creation §2 FAQ target).
const FAQ_URL_SE = 'https://www.example.se/fragor-och-svar-test';
useE2eStack({ env: { CREATION_POLL_MS: '50', APP_URL, FAQ_URL_SE } });

type Agent = ReturnType<typeof request.agent>;
const DESKTOP = { width: 1280, height: 800 };
const viewports = [
  { name: '360px', ...PHONE },
  { name: 'desktop', ...DESKTOP },
];
const PHONE_NUMBER = '+46 8 000 000 00';

interface Button {
  label: string;
  /** A link's path (or URL) or a form's action path, as the page holds it. */
  target: string | RegExp;
  post?: boolean;
}
interface Screen {
  title: string;
  text: string;
  buttons: Button[];
  /** Links besides the FAQ (which every outcome has). */
  links: Array<{ label: string; url: string | RegExp }>;
  step: 3 | 4;
  /** With JavaScript the screen moves on by itself to a URL matching this. */
  movesOnTo?: RegExp;
}

const creationPage = (prospectId: string) => routes.customerCreation(prospectId);
// Continue posts: for an outcome that allows log-in it hands the login over to the bank's site (tests/e2e/arriveLoggedIn.test.ts).
const CONTINUE: Button = { label: en['creation.button.continue'], target: /\/continue$/, post: true };
const RETRY: Button = { label: en['creation.button.tryAgain'], target: /\/retry\?run=\d+$/, post: true };
const EXTERNAL_FORM = { label: en['creation.error.externalForm'], url: 'https://forms.example.com/additional-information' };
const errorScreen: Screen = { title: en['creation.error.title'], text: en['creation.error.text'], buttons: [RETRY], links: [EXTERNAL_FORM], step: 3 };

/** Each outcome persona (sandbox/personas.ts) and the screen its creation ends on (identification-routing-creation §8). */
const personas: Record<string, Screen> = {
  onboarding: {
    title: en['creation.done.title'],
    text: en['creation.done.text'],
    buttons: [CONTINUE, { label: en['creation.button.startUsingApp'], target: APP_URL }],
    links: [],
    step: 4,
    // It stays until the person chooses (WCAG 2.2.1): Continue or the app.
  },
  customerExists: {
    title: en['creation.alreadyAccount.title'],
    text: en['creation.customerExists.text'],
    buttons: [{ ...CONTINUE, label: en['creation.button.login'] }],
    links: [],
    step: 4,
  },
  accountLimit: { title: en['creation.accountLimit.title'], text: en['creation.accountLimit.text'], buttons: [CONTINUE], links: [], step: 3 },
  creationPaused: {
    title: en['creation.creationPaused.title'],
    text: en['creation.creationPaused.text'],
    buttons: [CONTINUE],
    links: [{ label: en['caseStatus.link'], url: /^\/onboarding\/trigger-case\// }],
    step: 4,
  },
  creationNightlyDowntime: {
    title: en['creation.nightly_downtime.title'],
    // The market's opening hour as English writes it (shared/localeFormats.ts), as on the downtime page.
    text: en['creation.nightly_downtime.text'].replace('{time}', '6:00 AM'),
    buttons: [CONTINUE],
    links: [],
    step: 4,
    movesOnTo: /\/onboarding\/nightly-downtime-status\?justCompletedSignup=true/,
  },
  creationFailed: errorScreen,
  creationStuck: errorScreen,
};

/** Identified, every step answered and the agreements signed over HTTP: the browser opens the creation page. */
async function signedOverHttp(scenario: string, entry?: string): Promise<{ prospectId: string; cookies: Array<{ name: string; value: string }> }> {
  const agent: Agent = request.agent(stack.webUrl);
  if (entry) await agent.get(entry).expect(200);
  const { page, prospectId } = await identifyOverHttp(agent, stack.sandboxUrl, scenario);
  const post = (body: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303);
  await answerStepsOverHttp(
    async () => (await agent.get(page).expect(200)).text,
    async (body) => void (await post(body)),
  );
  const toSigning = await post('step=MILESTONE_THREE_STEP&screen=milestone');
  await request(stack.sandboxUrl)
    .post(`${new URL(toSigning.headers.location as string).pathname}/sign`)
    .expect(303);
  return { prospectId, cookies: agentCookies(agent, stack.webUrl).map(({ name, value }) => ({ name, value })) };
}

/** What the page's main content and progress bar show. */
async function readScreen(page: Page) {
  return evaluateSettled(page, () => {
    const main = document.querySelector('main')!;
    const text = (el: Element | null) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    const steps = [...document.querySelectorAll('.progress > li')];
    const current = steps.findIndex((li) => li.getAttribute('aria-current') === 'step');
    return {
      title: text(main.querySelector('h1')),
      text: text(main.querySelector('h1 + p')),
      buttons: [...main.querySelectorAll('a.btn, form button')].map((el) => {
        // A link inside the form (the done screen's "Start using the app") is a link all the same.
        const form = el.tagName === 'BUTTON' ? el.closest('form') : null;
        return form
          ? { label: text(el), target: form.getAttribute('action') ?? '', post: form.method === 'post' }
          : { label: text(el), target: el.getAttribute('href') ?? '', post: false };
      }),
      links: [...main.querySelectorAll('a:not(.btn)')].map((a) => ({ label: text(a), url: a.getAttribute('href') ?? '' })),
      banner: text(main.querySelector('p.banner')),
      step: steps.length === 0 ? 0 : current < 0 ? 4 : current + 1,
      failed: current >= 0 && steps[current]!.classList.contains('progress__step--failed'),
      stepSaid: current >= 0 ? text(steps[current]!.querySelector('.visually-hidden')) : '',
    };
  });
}

type Shown = Awaited<ReturnType<typeof readScreen>>;

function expectTarget(actual: string, expected: string | RegExp, what: string): void {
  if (typeof expected === 'string') expect(actual, what).toBe(expected);
  else expect(actual, what).toMatch(expected);
}

function expectScreen(shown: Shown, expected: Screen, screen: string): void {
  expect({ title: shown.title, text: shown.text }, screen).toEqual({ title: expected.title, text: expected.text });
  expect(
    shown.buttons.map((b) => b.label),
    screen,
  ).toEqual(expected.buttons.map((b) => b.label));
  expected.buttons.forEach((b, i) => {
    expectTarget(shown.buttons[i]!.target, b.target, `${screen}: ${b.label}`);
    expect(shown.buttons[i]!.post, `${screen}: ${b.label}`).toBe(b.post ?? false);
  });
  // The screen's own links, then the FAQ link; the support banner; the progress step.
  expect(
    shown.links.map((l) => l.label),
    screen,
  ).toEqual([...expected.links.map((l) => l.label), en['creation.faq']]);
  expected.links.forEach((l, i) => expectTarget(shown.links[i]!.url, l.url, `${screen}: ${l.label}`));
  expect(shown.links.at(-1)!.url, screen).toBe(FAQ_URL_SE);
  expect(shown.banner, screen).toBe(en['creation.support'].replace('{phone}', PHONE_NUMBER));
  expect(shown.step, screen).toBe(expected.step);
}

let jsContext: BrowserContext;
let noJsContext: BrowserContext;
/** A scripted tab with scripts refused: axe on a no-JS screen, and the server's markup of a screen that moves on. */
let copyTab: Page;
const signed = new Map<string, Promise<{ prospectId: string; cookies: Array<{ name: string; value: string }> }>>();

beforeAll(async () => {
  // The personas sign over HTTP one after another (identifyOverHttp tells its BankID order by the sandbox's list of
  // orders, so two at once would mix them up), in the background: each test waits for its own.
  let previous: Promise<unknown> = Promise.resolve();
  const inTurn = (scenario: string, entry?: string) => {
    const next = previous.catch(() => undefined).then(() => signedOverHttp(scenario, entry));
    next.catch(() => undefined);
    previous = next;
    return next;
  };
  for (const scenario of Object.keys(personas)) signed.set(scenario, inTurn(scenario));
  signed.set('webview', inTurn('onboarding', '/onboarding?webview=true'));
  jsContext = await browser.newContext({ viewport: PHONE });
  noJsContext = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
  copyTab = await (await browser.newContext({ viewport: PHONE })).newPage();
}, 60_000);

afterAll(async () => {
  await Promise.all([jsContext?.close(), noJsContext?.close(), copyTab?.context().close()]);
});

/** The person's session in both browser contexts (one person at a time). */
async function enter(scenario: string): Promise<string> {
  const { prospectId, cookies } = await signed.get(scenario)!;
  for (const context of [jsContext, noJsContext]) {
    await context.clearCookies();
    await context.addCookies(cookies.map((c) => ({ ...c, url: stack.webUrl })));
  }
  return prospectId;
}

/**
 * The layout at each viewport on `page` (resized), and axe at one of them: a screen's markup is the same with and without
 * JavaScript (the server renders the markup its script enhances), so axe runs on it once per viewport, at the phone
 * without JavaScript and at the desktop with it, which keeps the file cheap.
 */
async function checkAtEachSize(
  page: Page,
  screen: string,
  axeAt: (typeof viewports)[number]['name'],
  axe: (page: Page, screen: string) => Promise<void>,
): Promise<void> {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await expectPhoneLayout(page, `${screen} ${viewport.name}`);
    if (viewport.name === axeAt) await axe(page, `${screen} ${viewport.name}`);
  }
}

/** axe on a no-JS page: its markup in the scripted copy tab, scripts refused, at the page's size. */
async function axeWithoutJs(page: Page, screen: string): Promise<void> {
  await copyTab.setViewportSize(page.viewportSize()!);
  await showWithoutJs(page, copyTab);
  await expectAccessible(copyTab, screen);
}

/** Without JavaScript: the page refreshes itself until the outcome, which stays; axe on its markup in a scripted tab. */
async function withoutJs(url: string, expected: Screen, screen: string): Promise<Page> {
  const page = await noJsContext.newPage();
  await page.goto(url);
  await expect.poll(async () => (await readScreen(page)).title, { timeout: 20_000 }).toBe(expected.title);
  expectScreen(await readScreen(page), expected, screen);
  await checkAtEachSize(page, screen, '360px', axeWithoutJs);
  return page;
}

/** With JavaScript: the island shows the outcome (or moves on by itself, checked on the server's markup). */
async function withJs(url: string, expected: Screen, screen: string): Promise<void> {
  const page = await jsContext.newPage();
  const errors = collectPageErrors(page);
  const shown = await recordMainTexts(page);
  await page.setViewportSize(PHONE);
  await page.goto(url);
  if (expected.movesOnTo) {
    await page.waitForURL(expected.movesOnTo, { timeout: 20_000 });
    expect(
      shown().some((t) => t.includes(expected.title) && t.includes(expected.text)),
      screen,
    ).toBe(true);
    const html = await (await jsContext.request.get(url)).text();
    await showWithoutJs(page, copyTab, { url, html });
    expectScreen(await readScreen(copyTab), expected, screen);
    await checkAtEachSize(copyTab, screen, 'desktop', expectAccessible);
  } else {
    await expect.poll(async () => (await readScreen(page)).title, { timeout: 20_000 }).toBe(expected.title);
    expectScreen(await readScreen(page), expected, screen);
    await checkAtEachSize(page, screen, 'desktop', expectAccessible);
  }
  expect(errors).toEqual([]);
  await page.close();
}

describe('customer-creation outcome screens', () => {
  it.each(Object.entries(personas))(
    '%s: its outcome with and without JavaScript, phone and desktop',
    async (scenario, expected) => {
      const url = `${stack.webUrl}${creationPage(await enter(scenario))}`;
      const page = await withoutJs(url, expected, `${scenario} (no JavaScript)`);
      await withJs(url, expected, scenario);
      // Continue is a full server redirect: the overview for outcomes that allow log-in (identification-routing-creation §4),
      // logged in by the bank site's hand-off; / for a paused creation, which allows none.
      if (scenario === 'onboarding') {
        await page.getByRole('button', { name: en['creation.button.continue'] }).click();
        await page.waitForURL(`${stack.sandboxUrl}/sandbox/overview`);
        expect(await page.locator('.login-status').getAttribute('data-logged-in')).toBe('true');
      }
      await page.close();
    },
    90_000,
  );

  it('creationStuck: Try again starts polling again (a new run, the polling screen, then its outcome)', async () => {
    const url = `${stack.webUrl}${creationPage(await enter('creationStuck'))}`;
    const page = await jsContext.newPage();
    const shown = await recordMainTexts(page);
    await page.goto(url);
    const retry = page.getByRole('button', { name: en['creation.button.tryAgain'] });
    await retry.waitFor();
    const before = shown().length;
    await retry.click();
    await expect
      .poll(
        () =>
          shown()
            .slice(before)
            .some((t) => t.includes(en['creation.polling.title'])),
        { timeout: 10_000 },
      )
      .toBe(true);
    await expect.poll(async () => (await readScreen(page)).title, { timeout: 20_000 }).toBe(en['creation.error.title']);
    await page.close();
  }, 60_000);

  it('in the app’s webview, done has no "Start using the app" and Continue goes to the login-in-app route', async () => {
    const url = `${stack.webUrl}${creationPage(await enter('webview'))}`;
    const page = await noJsContext.newPage();
    await page.goto(url);
    await expect.poll(async () => (await readScreen(page)).title, { timeout: 20_000 }).toBe(en['creation.done.title']);
    expect((await readScreen(page)).buttons.map((b) => b.label)).toEqual([en['creation.button.continue']]);
    await page.getByRole('button', { name: en['creation.button.continue'] }).click();
    await page.waitForURL(`${stack.webUrl}${routes.loginInApp}`);
    await page.close();
  }, 60_000);
});

describe('the feedback pages', () => {
  const feedback = {
    cancel: { path: routes.cancel, title: en['feedback.cancel.title'], text: en['feedback.cancel.text'], step: 3, failed: false },
    error: {
      path: routes.error,
      title: en['feedback.error.title'],
      text: en['feedback.error.text'].replace('{phone}', PHONE_NUMBER),
      step: 2,
      failed: true,
    },
  } as const;

  it.each(Object.entries(feedback))(
    '%s: with and without JavaScript, phone and desktop',
    async (variant, expected) => {
      // A visitor's pages: Try again leads to the start page (an identified person's would lead on to their step).
      await Promise.all([noJsContext.clearCookies(), jsContext.clearCookies()]);
      for (const context of [noJsContext, jsContext]) {
        const page = await context.newPage();
        await page.goto(`${stack.webUrl}${expected.path}`);
        const shown = await readScreen(page);
        const screen = `${variant}${context === noJsContext ? ' (no JavaScript)' : ''}`;
        expect({ title: shown.title, text: shown.text }, screen).toEqual({ title: expected.title, text: expected.text });
        // Go back to the public site's home (HOME_URL, "/" of the bank's site: the sandbox here), Try again to Onboarding.
        expect(shown.buttons, screen).toEqual([
          { label: en['feedback.goBack'], target: `${stack.sandboxUrl}/`, post: false },
          { label: en['feedback.tryAgain'], target: routes.start, post: false },
        ]);
        expect({ step: shown.step, failed: shown.failed }, screen).toEqual({ step: expected.step, failed: expected.failed });
        // The failed step says so in words (its visually hidden status), not by colour alone.
        expect(shown.stepSaid, screen).toBe(`(${expected.failed ? 'failed' : 'current step'})`);
        await (context === jsContext ? checkAtEachSize(page, screen, 'desktop', expectAccessible) : checkAtEachSize(page, screen, '360px', axeWithoutJs));
        await page.getByRole('link', { name: en['feedback.tryAgain'] }).click();
        await page.waitForURL(`${stack.webUrl}${routes.start}`);
        await page.close();
      }
    },
    60_000,
  );
});
