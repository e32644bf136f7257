// The refusal screens in real Chromium at a phone and a desktop, each reached as a person (or an attacker) reaches it,
// axe-clean and no wider than the viewport: the 403 of a form another site posted; BankID's "too many attempts"; the
// empty-file message; the 503 "busy, try again" page and "not saved" banners while another request holds the session
// lock; the 503 "temporarily unavailable" page while Redis is down, and the page back once it returns. The last two run
// in Redis mode on a redis-server of this file's own.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { startEmbeddedStack, startRedisStack, type Stack } from '../support/stack.ts';
import { createOwnRedis, type OwnRedis } from '../support/ownRedis.ts';
import { sessionLockKey } from '../support/redisKeys.ts';
import { expectAccessible, identifyOverHttp } from '../support/journey.ts';
import { currentStep } from '../support/customerInformation.ts';
import { samplePdf } from '../support/files.ts';
import en from '../../locales/en.json' with { type: 'json' };

type Agent = ReturnType<typeof request.agent>;

const viewports = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
type Viewport = (typeof viewports)[number];

const TEXT = {
  customerType: "Before we get started. Who's the account for?",
  bankidTitle: en['bankid.title'],
  refused: en['error.refused.title'],
  refusedContinue: en['error.refused.continue'],
  tooManyStarts: en['bankid.TOO_MANY_STARTS'],
  tryAgain: en['bankid.tryAgain'],
  switchToThisDevice: en['bankid.switchToThisDevice'],
  empty: en['fileUpload.error.empty'],
  busy: en['error.busy.title'],
  busyRetry: en['error.busy.retry'],
  notSavedChange: en['customerInformation.notSaved.change'],
  notSavedUpload: en['customerInformation.notSaved.upload'],
  unavailable: en['error.unavailable.title'],
  unavailableRetry: en['error.tryAgain'],
};

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

const h1 = (page: Page) => page.locator('h1').first().textContent();

/** The screen fits the viewport (nothing scrolls sideways) and axe finds no WCAG A/AA fault. */
async function expectScreen(page: Page, viewport: Viewport, screen: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen}: page width`).toBeLessThanOrEqual(viewport.width);
  await expectAccessible(page, `${screen} (${viewport.name})`);
}

/** The session cookie of the agent's session, from its jar (a read-only page view does not send it again). */
function sessionCookieOf(agent: Agent, webUrl: string): { name: string; value: string } {
  const { hostname } = new URL(webUrl);
  const access = { domain: hostname, path: '/', secure: false, script: false } as Parameters<Agent['jar']['getCookie']>[1];
  const name = ['onb.sid', '__Host-onb.sid'].find((n) => agent.jar.getCookie(n, access));
  expect(name).toBeDefined();
  return { name: name!, value: agent.jar.getCookie(name!, access)!.value };
}

/**
 * A person identified over HTTP as the citizenship persona, continued in a Chromium context of the
 * viewport's size (the agent's session cookie copied in). The agent keeps the same session.
 */
async function identifiedInBrowser(
  stack: Stack,
  viewport: Viewport,
): Promise<{ agent: Agent; path: string; context: BrowserContext; page: Page; cookie: { name: string; value: string } }> {
  const agent: Agent = request.agent(stack.webUrl);
  const { page: path } = await identifyOverHttp(agent, stack.sandboxUrl, 'citizenship');
  expect(path).toMatch(/^\/onboarding\/customer-information\//);
  const cookie = sessionCookieOf(agent, stack.webUrl);
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
  await context.addCookies([{ ...cookie, url: stack.webUrl }]);
  const page = await context.newPage();
  await page.goto(`${stack.webUrl}${path}`);
  expect(await currentStep(page)).toEqual({ step: 'CITIZENSHIP_STEP', screen: 'choice' });
  return { agent, path, context, page, cookie };
}

/** Over HTTP, in the same session: another citizenship (Norway), so the step asks for its proof. */
async function toNorwegianProof(agent: Agent, path: string): Promise<void> {
  const post = (body: string) => agent.post(`${path}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303);
  await post('step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=otherCitizenships&confirmed=yes');
  await post('step=CITIZENSHIP_STEP&screen=countries&intent=countries&countries=NO');
}

/** Waits for the document answer of a navigation matching `match` (method and URL). */
const documentResponse = (page: Page, method: string, match: (url: URL) => boolean) =>
  page.waitForResponse((r) => r.request().method() === method && r.request().resourceType() === 'document' && match(new URL(r.url())));

describe('embedded stack: refused post, BankID start limit, empty file', () => {
  let stack: Stack;
  // Another site's page with a form that posts into the journey (a real server: no request interception,
  // so the browser's own Sec-Fetch-* headers are seen).
  let attacker: Server;
  let attackerPort: number;

  beforeAll(async () => {
    stack = await startEmbeddedStack({ BANKID_STARTS_PER_SESSION_PER_MINUTE: '1', FILE_RETRY_DELAY_MS: '5' });
    attacker = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><title>Prize</title></head><body>
        <form method="post" action="${stack.webUrl}/onboarding/customer-type">
          <input type="hidden" name="customerType" value="private">
          <button type="submit">Claim your prize</button>
        </form></body></html>`);
    });
    // Every address (IPv4 and IPv6): localhost may resolve to either.
    await new Promise<void>((resolve) => attacker.listen(0, resolve));
    attackerPort = (attacker.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => attacker?.close(resolve));
    await stack?.stop();
  });

  for (const viewport of viewports) {
    it(`${viewport.name}: a form another site posts gets the 403 "request refused" page`, async () => {
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      // A sibling origin (same host, another port: Sec-Fetch-Site same-site) and another site (cross-site).
      const sites = [
        { url: `http://127.0.0.1:${attackerPort}/prize`, secFetchSite: 'same-site' },
        { url: `http://localhost:${attackerPort}/prize`, secFetchSite: 'cross-site' },
      ];
      const orders = async () => ((await (await fetch(`${stack.sandboxUrl}/sandbox/bankid/all-orders`)).json()) as unknown[]).length;
      const ordersBefore = await orders();
      for (const site of sites) {
        await page.goto(site.url);
        const [response] = await Promise.all([
          documentResponse(page, 'POST', (u) => u.pathname === '/onboarding/customer-type'),
          page.getByRole('button', { name: 'Claim your prize' }).click(),
        ]);
        expect((await response.request().allHeaders())['sec-fetch-site']).toBe(site.secFetchSite);
        expect(response.status()).toBe(403);
        await page.waitForLoadState();
        expect(await h1(page)).toBe(TEXT.refused);
        await expectScreen(page, viewport, `request refused (${site.secFetchSite})`);
      }

      // Nothing was run (choosing Private would have started a BankID order); the way back is the start page.
      expect(await orders()).toBe(ordersBefore);
      const back = page.getByRole('link', { name: TEXT.refusedContinue });
      expect(await back.getAttribute('href')).toBe('/onboarding');
      await Promise.all([page.waitForURL(`${stack.webUrl}/onboarding`), back.click()]);
      expect(await h1(page)).toBe(TEXT.customerType);
      await context.close();
    });

    it(`${viewport.name}: BankID started over the session's limit shows "too many attempts" with Try again`, async () => {
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      await page.goto(`${stack.webUrl}/onboarding`);
      // Private on a desktop browser starts the QR order: the session's one start this minute.
      await Promise.all([page.waitForURL(`${stack.webUrl}/onboarding`), page.getByRole('button', { name: /^Private/ }).click()]);
      await expect.poll(() => h1(page)).toBe(TEXT.bankidTitle);
      // Switching to this device is a second start: refused.
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: TEXT.switchToThisDevice }).click()]);
      await expect.poll(() => page.locator('main').textContent()).toContain(TEXT.tooManyStarts);
      const tryAgain = page.getByRole('button', { name: TEXT.tryAgain });
      expect(await tryAgain.isVisible()).toBe(true);
      await expectScreen(page, viewport, 'BankID too many attempts');

      // Try again within the minute: refused again, the same message and button.
      await Promise.all([page.waitForEvent('load'), tryAgain.click()]);
      await expect.poll(() => page.locator('main').textContent()).toContain(TEXT.tooManyStarts);
      expect(await tryAgain.isVisible()).toBe(true);
      await expectScreen(page, viewport, 'BankID too many attempts, after Try again');
      await context.close();
    });

    it(`${viewport.name}: an empty file is refused with its own message`, async () => {
      const { agent, path, context, page } = await identifiedInBrowser(stack, viewport);
      await toNorwegianProof(agent, path);
      await page.goto(`${stack.webUrl}${path}`);
      expect(await h1(page)).toBe('Proof of citizenship');
      // Choosing the file uploads it at once (the island submits the form).
      await Promise.all([
        page.waitForEvent('load'),
        page.getByLabel('Proof of citizenship for Norway').setInputFiles({ name: 'empty.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(0) }),
      ]);
      await expect.poll(() => page.getByRole('alert').filter({ hasText: TEXT.empty }).count()).toBe(1);
      expect(await page.locator('.file-list').count()).toBe(0);
      await expectScreen(page, viewport, 'empty file');
      await context.close();
    });
  }
});

describe('Redis mode on a redis-server of its own: busy page, "not saved" banners, Redis down', () => {
  const prefix = `test-refusal-${randomUUID().slice(0, 8)}`;
  let ownRedis: OwnRedis;
  let stack: Stack;
  const redisUrl = () => ownRedis.url;

  /** Another request of this person holds the session lock (as another web process would) while `run` runs. */
  async function withLockHeld(cookieValue: string, run: () => Promise<void>): Promise<void> {
    const signed = decodeURIComponent(cookieValue);
    const sessionId = signed.slice(2, signed.lastIndexOf('.'));
    const redis = createClient({ url: redisUrl() });
    await redis.connect();
    const lockKey = sessionLockKey(prefix, sessionId);
    await redis.set(lockKey, 'another-request', { PX: 30_000 });
    try {
      await run();
    } finally {
      await redis.del(lockKey);
      await redis.quit();
    }
  }

  /** The busy page, answered to the page view after the refused post (which redirected to `?notSaved=kind`). */
  /** The step again after a refused post: a read-only page view, so it answers while the lock is held, with the banner. */
  async function expectNotSavedStep(page: Page, response: Response, viewport: Viewport, kind: 'change' | 'upload'): Promise<void> {
    expect(response.status()).toBe(200);
    expect(new URL(response.url()).searchParams.get('notSaved')).toBe(kind);
    // The upload island may load the page once more as it settles: wait for the banner rather than read at once.
    const banner = page.getByRole('alert').filter({ hasText: kind === 'change' ? TEXT.notSavedChange : TEXT.notSavedUpload });
    await expect.poll(() => banner.count().catch(() => 0), { timeout: 15_000 }).toBe(1);
    await page.waitForLoadState();
    await expectScreen(page, viewport, `not saved banner (${kind})`);
  }

  beforeAll(async () => {
    ownRedis = await createOwnRedis('refusal-screens');
    await ownRedis.start();
    // A short lock wait: a refusal comes within a fraction of a second.
    stack = await startRedisStack({ REDIS_URL: redisUrl(), REDIS_PREFIX: prefix, SESSION_LOCK_WAIT_MS: '300', FILE_RETRY_DELAY_MS: '5' });
  });

  afterAll(async () => {
    // The stack removes its keys from this Redis: it must be up for that.
    if (!ownRedis.process) await ownRedis.start().catch(() => {});
    await stack?.stop();
    await ownRedis?.remove();
  });

  for (const viewport of viewports) {
    it(`${viewport.name}: a post refused by the session lock leads back to the step with a "not saved" banner; a page that writes shows the busy page`, async () => {
      const { agent, path, context, page, cookie } = await identifiedInBrowser(stack, viewport);
      const stepUrl = (u: URL) => u.pathname === path;

      // An answer posted while another request holds the lock: not saved. The step's page view only reads, so it
      // answers at once, with the banner.
      await withLockHeld(cookie.value, async () => {
        await page.getByRole('radio', { name: 'I am only a citizen of Sweden' }).check();
        const [shown] = await Promise.all([documentResponse(page, 'GET', stepUrl), page.getByRole('button', { name: 'Continue', exact: true }).click()]);
        await expectNotSavedStep(page, shown, viewport, 'change');
        expect(await currentStep(page)).toEqual({ step: 'CITIZENSHIP_STEP', screen: 'choice' });
        // A page view that writes (the start page) waits for the lock and is refused: the busy page, with Try again.
        const busy = await page.goto(`${stack.webUrl}/onboarding`);
        expect(busy!.status()).toBe(503);
        expect(await h1(page)).toBe(TEXT.busy);
        await expectScreen(page, viewport, 'busy');
      });

      // An upload while the lock is held: the file is not kept, and the person is told.
      await toNorwegianProof(agent, path);
      await page.goto(`${stack.webUrl}${path}`);
      expect(await h1(page)).toBe('Proof of citizenship');
      await withLockHeld(cookie.value, async () => {
        const [shown] = await Promise.all([
          documentResponse(page, 'GET', stepUrl),
          page.getByLabel('Proof of citizenship for Norway').setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: samplePdf() }),
        ]);
        await expectNotSavedStep(page, shown, viewport, 'upload');
      });
      expect(await h1(page)).toBe('Proof of citizenship');
      expect(await page.locator('.file-list').count()).toBe(0);
      await context.close();
    });
  }

  for (const viewport of viewports) {
    it(`${viewport.name}: while Redis is down a page answers the 503 "temporarily unavailable" page, and the journey is back when Redis returns`, async () => {
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      await ownRedis.kill();
      try {
        const response = await page.goto(`${stack.webUrl}/onboarding`);
        expect(response?.status()).toBe(503);
        expect(await h1(page)).toBe(TEXT.unavailable);
        expect(await page.getByRole('link', { name: TEXT.unavailableRetry }).getAttribute('href')).toBe('/onboarding');
        await expectScreen(page, viewport, 'temporarily unavailable');
      } finally {
        await ownRedis.start();
      }
      // The clients reconnect by themselves (within 2 s): the same page view soon shows the start page again.
      await expect.poll(async () => (await page.goto(`${stack.webUrl}/onboarding`))?.status(), { timeout: 15_000, interval: 250 }).toBe(200);
      expect(await h1(page)).toBe(TEXT.customerType);
      await context.close();
    });
  }
});
