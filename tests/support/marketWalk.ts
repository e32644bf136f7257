// The four-market walk of the customer-information steps (customer-information §2.3, §4.1), shared by the WithJs and
// WithoutJs files of tests/e2e/ (two files, so the walks run side by side on two cores): each market's own host and eID,
// the step list the server sends, axe, the Nu HTML Checker, HTML_CodeSniffer and tests/support/layoutChecks.ts on every
// screen, then signing and the created customer. Without JavaScript one market walks in the browser (its form posts);
// the others post over HTTP, every screen they show checked the same way on its markup set into two long-lived tabs.
import request from 'supertest';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import { browser, brokerHeading, expectPhoneLayout, identifyInMarket, marketUrl, PHONE, stack, type Market, type ScreenHook } from './e2e.ts';
import { collectPageErrors } from './browser.ts';
import { expectAccessible, identifyAtBrokerOverHttp, personaFor, showWithoutJs, type Persona } from './journey.ts';
import { codeSnifferErrors, HtmlChecks, trackServerMarkup } from './htmlCheckers.ts';
import { answerStepsOverHttp, currentStep, screenOf, walkToMilestoneThree, type MultipartAnswer } from './customerInformation.ts';
import { decode, h1 } from './serverHttp.ts';
import { expectScreenLayout } from './layoutChecks.ts';

/**
 * The persona lives abroad, so the server sends every step: the residency step included, and the tax step
 * then opens the FATCA dialog for home-only liability; then every question of the KYC questionnaire.
 */
const expectedSteps: StepId[] = [
  'MILESTONE_ONE_STEP',
  'ACCOUNT_PICKER_STEP',
  'ACCOUNT_ALIAS_STEP',
  'MILESTONE_TWO_STEP',
  'CONTACT_INFORMATION_STEP',
  'CITIZENSHIP_STEP',
  'RESIDENCY_STEP',
  'TAX_INFO_STEP',
  'KYC_STEP',
];

/** The market's eID walked in the browser, its screens checked too (tests/support/e2e.ts identifyInMarket). */
const identify = (page: Page, country: Market, persona: Persona, onScreen: ScreenHook) =>
  identifyInMarket(page, country, persona, /\/onboarding\/customer-information\//, { onScreen });

/** The market's own languages (the walk itself reads English): long words of each must fit a phone too. */
const marketLocales: Record<Market, string[]> = { SE: ['sv-SE'], NO: ['nb-NO'], DK: ['da-DK'], FI: ['fi-FI', 'sv-FI'] };

async function walkMarket(country: Market, javaScript: boolean, checks: HtmlChecks): Promise<void> {
  const persona = await personaFor(stack.sandboxUrl, 'livesAbroad', country);
  // A small phone: most prospects use one.
  const viewport = PHONE;
  const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport });
  const axeContext = javaScript ? null : await browser.newContext({ viewport });
  const axePage = await axeContext?.newPage();
  const page = await context.newPage();
  const errors = javaScript ? collectPageErrors(page) : [];
  const serverMarkup = trackServerMarkup(page);
  /**
   * Every screen: the phone checks of tests/support/e2e.ts, axe and HTML_CodeSniffer as shown, its HTML kept for the
   * walk's one Nu run. Without JavaScript, and for a screen that moves on by itself (`moving`), the checks run on a
   * snapshot of the server's markup in the scripted tab. `shown`: a page of its own (the test BankID app). `later`:
   * checked after the walk when it runs `deferred` (the BankID order lives 30 s; checking first could outlast it).
   */
  const deferred: Array<() => Promise<void>> = [];
  const accessibility = async (tab: Page, screen: string, noJs: boolean) => {
    await expectAccessible(tab, noJs ? `${screen} (no JavaScript)` : screen);
    checks.sniffed(screen, await codeSnifferErrors(tab));
  };
  const check = async (screen: string, { shown = page, moving = false, later = false }: { shown?: Page; moving?: boolean; later?: boolean } = {}) => {
    const url = shown.url();
    const noJs = axePage !== undefined && shown === page;
    const html = noJs ? await serverMarkup() : await shown.content();
    // The layout as the visitor's browser lays it out (without JavaScript, `scripting: none` styles apply).
    if (!moving) {
      await expectPhoneLayout(shown, screen);
      await expectScreenLayout(shown, screen);
    }
    checks.collect(screen, html);
    if (later) {
      deferred.push(async () => {
        // A scripted tab: axe and HTML_CodeSniffer need JavaScript (without it, the walk's own context has none).
        const tab = await (axeContext ?? context).newPage();
        await showWithoutJs(shown, tab, { url, html });
        await accessibility(tab, screen, noJs);
        await tab.close();
      });
      return;
    }
    const tab = noJs ? axePage : moving ? await context.newPage() : shown;
    // The server's markup (or the snapshot), not the page's DOM: a screen that refreshes itself (the BankID
    // QR screen without JavaScript) may be navigating by now.
    if (tab !== shown) await showWithoutJs(shown, tab, { url, html });
    if (moving) {
      await expectPhoneLayout(tab, screen);
      await expectScreenLayout(tab, screen);
    }
    await accessibility(tab, screen, noJs);
    if (moving) await tab.close();
  };

  // The screens before the customer-information page, the sandbox's own included, pass the same checks (SE's two
  // BankID screens once identified).
  await identify(page, country, persona, (shown, screen) => check(screen, { shown, later: country === 'SE' }));
  for (const run of deferred) await run();
  expect(new URL(page.url()).host).toBe(new URL(marketUrl(country)).host);
  // The first customer-information screen in the market's own languages (the locale cookie, as the language
  // switch sets it), then English again for the walk.
  for (const locale of [...marketLocales[country], 'en']) {
    await context.addCookies([{ name: 'locale', value: locale, url: marketUrl(country) }]);
    await page.reload();
    expect(await page.locator('html').getAttribute('lang')).toBe(locale);
    await check(`${country} first customer-information screen in ${locale}`);
  }

  const seen: StepId[] = [];
  await walkToMilestoneThree(page, async (step, screen) => {
    if (!seen.includes(step)) seen.push(step);
    await check(`${country} ${step} ${screen}`);
  });
  expect(seen).toEqual(expectedSteps);

  expect((await currentStep(page)).step).toBe('MILESTONE_THREE_STEP');
  expect(await page.locator('h1').textContent()).toBe('Almost there! Just need to sign with your eID.');
  await check(`${country} milestone three`);
  await page.getByRole('button', { name: 'Sign with Bank ID' }).click();
  await page.waitForURL(`${stack.sandboxUrl}/sandbox/signing/**`);
  await check(`${country} signing page (sandbox)`);
  await page.getByRole('button', { name: 'Sign' }).click();
  await page.waitForURL(/\/onboarding\/customer-creation\//);
  await expect.poll(() => page.locator('main').textContent(), { timeout: 20_000 }).toContain('Agreements signed');
  // With JavaScript the outcome moves on by itself after a moment (views/components/CreationStatus.tsx).
  await check(`${country} customer creation`, { moving: javaScript });
  // Joined, so that a failure names each error (the walks report through Promise.allSettled).
  expect(errors.join('\n')).toBe('');
  await axeContext?.close();
  await context.close();
}

/**
 * A market's walk without JavaScript over HTTP, as the browser's form posts send it (tests/support/httpAnswers.ts):
 * the same screens as walkMarket's, each checked as walkMarket checks a JavaScript-free screen, on its server markup
 * set into two long-lived tabs: one without JavaScript for the layout, one scripted (scripts refused) for axe and
 * HTML_CodeSniffer; and its HTML kept for the Nu run. The form posts themselves are the browser walk's (NO_JS_BROWSER_MARKET).
 */
async function walkMarketOverHttp(country: Market, checks: HtmlChecks): Promise<void> {
  const persona = await personaFor(stack.sandboxUrl, 'livesAbroad', country);
  const plainContext = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const scriptedContext = await browser.newContext({ viewport: PHONE });
  const [plain, scripted] = [await plainContext.newPage(), await scriptedContext.newPage()];
  // Checked after the walk, which then keeps the pace of a person (the sandbox's orders and the loaders' waits are timed).
  const screens: Array<{ screen: string; url: string; html: string }> = [];
  const check = (screen: string, url: string, html: string) => void screens.push({ screen, url, html });

  // As the browser asks: the market's host, and English as the walks' browser prefers.
  const web = marketUrl(country);
  const agent = request.agent(stack.webUrl);
  const get = (path: string) => agent.get(path).set('host', new URL(web).host).set('accept-language', 'en-US,en;q=0.9');
  const post = (path: string) => agent.post(path).set('host', new URL(web).host).set('sec-fetch-site', 'same-origin');
  const form = (path: string, body: string) => post(path).type('form').send(body).expect(303);
  const sandbox = request(stack.sandboxUrl);
  const shown = async (path: string, screen: string) => {
    const html = (await get(path).expect(200)).text;
    check(screen, `${web}${path}`, html);
    return html;
  };

  // The screens before the customer-information page, the sandbox's own included.
  if (country === 'SE') {
    const orders = async () => ((await sandbox.get('/sandbox/bankid/orders')).body as Array<{ orderRef: string }>).map((o) => o.orderRef);
    const before = new Set(await orders());
    await form('/onboarding/customer-type', 'customerType=private');
    await shown('/onboarding', `${country} BankID QR`);
    const orderRef = (await orders()).find((o) => !before.has(o))!;
    const app = (await sandbox.get('/sandbox/bankid/app').expect(200)).text;
    expect(app).toContain(`data-order-ref="${orderRef}"`);
    check(`${country} test BankID app`, `${stack.sandboxUrl}/sandbox/bankid/app`, app);
    await sandbox.post(`/sandbox/bankid/orders/${orderRef}/identify`).send({ nationalId: persona.nationalId }).expect(200);
    await get('/onboarding/identification/bankid/status').expect(200);
  } else {
    await shown('/onboarding', `${country} start page`);
    await form('/onboarding/customer-type', 'customerType=private');
    await shown('/onboarding', `${country} identification`);
    const start = await form('/onboarding/identification/oidc', '');
    const back = await identifyAtBrokerOverHttp(stack.sandboxUrl, start.headers.location as string, persona.nationalId, async (url, html) => {
      expect(h1(html)).toBe(brokerHeading[country]);
      check(`${country} broker login (sandbox)`, url, html);
    });
    await get((await get(back.pathname + back.search).expect(302)).headers.location as string).expect(303);
  }
  const page = (await get('/onboarding/routing').expect(303)).headers.location as string;
  expect(page).toMatch(/^\/onboarding\/customer-information\//);

  // The first customer-information screen in the market's own languages (the locale cookie, as the language switch
  // sets it), then English again for the walk.
  for (const locale of [...marketLocales[country], 'en']) {
    agent.jar.setCookie(`locale=${locale}`, new URL(stack.webUrl).hostname, '/');
    const html = await shown(page, `${country} first customer-information screen in ${locale}`);
    expect(html).toContain(`<html lang="${locale}"`);
  }

  const seen: StepId[] = [];
  await answerStepsOverHttp(
    async () => {
      const html = (await get(page).expect(200)).text;
      const [step, screen] = screenOf(html)! as [StepId, string];
      if (screen === 'loader') return html;
      if (!seen.includes(step)) seen.push(step);
      if (step !== 'MILESTONE_THREE_STEP') check(`${country} ${step} ${screen}`, `${web}${page}`, html);
      return html;
    },
    async (body) => void (await form(`${page}/step`, body)),
    async ({ fields, file }: MultipartAnswer) => {
      let upload = post(`${page}/step`);
      for (const [name, value] of Object.entries(fields)) upload = upload.field(name, value);
      await upload.attach('file', file.bytes, { filename: file.name, contentType: file.contentType }).expect(303);
    },
  );
  expect(seen).toEqual([...expectedSteps, 'MILESTONE_THREE_STEP']);

  const milestone = await shown(page, `${country} milestone three`);
  expect(screenOf(milestone)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
  expect(h1(milestone)).toBe('Almost there! Just need to sign with your eID.');
  const signing = new URL((await form(`${page}/step`, 'step=MILESTONE_THREE_STEP&screen=milestone')).headers.location as string);
  expect(signing.origin).toBe(stack.sandboxUrl);
  check(`${country} signing page (sandbox)`, signing.href, (await sandbox.get(signing.pathname).expect(200)).text);
  const creation = new URL((await sandbox.post(`${signing.pathname}/sign`).expect(303)).headers.location as string, web).pathname;
  expect(creation).toMatch(/^\/onboarding\/customer-creation\//);
  // The page refreshes itself until the outcome is in, as a browser without JavaScript sees it.
  let outcome = '';
  await expect
    .poll(async () => decode((outcome = (await get(creation).expect(200)).text)), { timeout: 20_000, message: `${country}: the outcome on the creation page` })
    .toContain('Agreements signed');
  check(`${country} customer creation`, `${web}${creation}`, outcome);

  // The tab without JavaScript writes each screen into a page of the screen's origin (no route, so the stylesheet and
  // fonts come from its cache), but a screen that refreshes itself is served at its URL, where the refresh finds it
  // again; the scripted tab loads each at its URL with every script refused (showWithoutJs).
  for (const { screen, url, html } of screens) {
    checks.collect(screen, html);
    if (html.includes('http-equiv="refresh"')) await showWithoutJs(plain, plain, { url, html });
    else {
      if (new URL(plain.url()).origin !== new URL(url).origin) await plain.goto(url);
      await plain.setContent(html);
    }
    await expectPhoneLayout(plain, screen);
    await expectScreenLayout(plain, screen);
    await plain.unrouteAll();
    await showWithoutJs(plain, scripted, { url, html });
    await expectAccessible(scripted, `${screen} (no JavaScript)`);
    checks.sniffed(screen, await codeSnifferErrors(scripted));
  }
  await plainContext.close();
  await scriptedContext.close();
}

/** The market whose walk without JavaScript is the browser's: the OIDC broker's forms (SE's BankID without JavaScript: tests/e2e/journey.test.ts). */
const NO_JS_BROWSER_MARKET: Market = 'FI';

/**
 * Walks the four markets side by side (each has its own browser context, session and prospect), then runs the
 * Nu checker once over every market's screens (one Java start; also after a walk that failed, so that one run
 * lists every error found). Without JavaScript, NO_JS_BROWSER_MARKET walks in the browser and the others over HTTP.
 */
export async function walkEveryMarket(javaScript: boolean): Promise<void> {
  const checks = new HtmlChecks();
  const markets = ['SE', 'NO', 'DK', 'FI'] as const;
  const walk = (country: Market) =>
    javaScript || country === NO_JS_BROWSER_MARKET ? walkMarket(country, javaScript, checks) : walkMarketOverHttp(country, checks);
  const results = await Promise.allSettled(markets.map(walk));
  const failures = results.flatMap((r, i) =>
    r.status === 'rejected' ? [`${markets[i]}: ${r.reason instanceof Error ? `${r.reason.message}\n${r.reason.stack}` : String(r.reason)}`] : [],
  );
  const { nu, codeSniffer } = await checks.errors();
  expect({ failures, codeSniffer, nu }).toEqual({ failures: [], codeSniffer: [], nu: [] });
  expect(checks.screens).toBeGreaterThan(4 * 20);
}
