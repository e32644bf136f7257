// The application status page in Chromium (identification-routing-creation §2 "Application status page", §4 "Status
// page", §5): the open-case persona of each market, with and without JavaScript, walked on a phone or a desktop (each
// state laid out and checked on both), sees "Pending", answers every open task and sees "In progress"; what was typed
// and uploaded is there again in a fresh browser. The per-market texts and form posts: tests/http/caseStatusMarkets.test.ts.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browser, expectPhoneLayout, identifyInMarket, marketUrl, PHONE, stack, useE2eStack, type Market } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectAccessible, personaFor, showWithoutJs } from '../support/journey.ts';
import { codeSnifferErrors, HtmlChecks, trackServerMarkup } from '../support/htmlCheckers.ts';
import { pdfOfSize, samplePdf, samplePng, sampleJpeg } from '../support/files.ts';
import { answered, expectOpenCaseAnswered, readOut } from '../support/caseStatus.ts';

useE2eStack({ env: { FILE_RETRY_DELAY_MS: '5' } });

const DESKTOP = { width: 1280, height: 800 };
const file = (name: string, buffer: Buffer, mimeType: string) => ({ name, buffer, mimeType });
const pdf = (name: string) => file(name, samplePdf(), 'application/pdf');

/** The form of the task titled `title` (its section). */
const taskForm = (page: Page, title: string): Locator =>
  page.locator('section.case-task').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** With JavaScript, the form's island has hydrated once its Send is disabled (no file yet); a file chosen before would not upload. */
const hydrated = (form: Locator) => expect.poll(() => form.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);

const stepTwo = (page: Page) => page.locator('[data-step-two] .badge').textContent();

/**
 * One market's walk on `viewport`; each state is laid out and checked (axe, HTML_CodeSniffer) on the other screen
 * too, by resizing: a walk per screen would repeat the same answers for no more than that.
 */
async function walkMarket(country: Market, javaScript: boolean, viewport: typeof PHONE, checks: HtmlChecks): Promise<void> {
  const persona = await personaFor(stack.sandboxUrl, 'openCase', country);
  const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport });
  const axeContext = javaScript ? null : await browser.newContext({ viewport });
  const axePage = await axeContext?.newPage();
  const page = await context.newPage();
  const errors = javaScript ? collectPageErrors(page) : [];
  const serverMarkup = trackServerMarkup(page);
  const name = `${country} ${javaScript ? 'JS' : 'no JS'}`;
  const screens = viewport === PHONE ? [PHONE, DESKTOP] : [DESKTOP, PHONE];
  // Each state: its HTML for Nu; on each screen, the layout, axe and HTML_CodeSniffer as shown (without JavaScript on
  // the server's markup in a scripted tab); then the walk's own screen again.
  const check = async (state: string) => {
    const html = axePage ? await serverMarkup() : await page.content();
    checks.collect(`${name} ${state}`, html);
    const tab = axePage ?? page;
    if (axePage) await showWithoutJs(page, axePage, { url: page.url(), html });
    for (const size of screens) {
      const screen = `${name} ${size.width}px ${state}`;
      await page.setViewportSize(size);
      await expectPhoneLayout(page, screen);
      if (axePage) await axePage.setViewportSize(size);
      await expectAccessible(tab, axePage ? `${screen} (no JavaScript)` : screen);
      checks.sniffed(screen, await codeSnifferErrors(tab));
    }
    await page.setViewportSize(viewport);
  };

  await context.addCookies([{ name: 'locale', value: 'en', url: marketUrl(country) }]);
  await identifyInMarket(page, country, persona, /\/onboarding\/case-status/);
  expect(await page.locator('h1').textContent()).toBe('Your application has been received');
  expect(await stepTwo(page)).toBe('Pending');
  expect(await page.locator('section.case-task').count()).toBe(3);
  await check('pending');

  // The residency form: the address as typed, one proof file per kind chosen; refused first, what was typed kept.
  const residency = taskForm(page, 'Your address abroad');
  await residency.getByLabel('Address').fill('');
  await residency.getByLabel('City').fill('Porto');
  if (javaScript) {
    await hydrated(residency);
    await residency.getByLabel('Housing contract', { exact: true }).setInputFiles([file('notes.txt', Buffer.from('plain text'), 'text/plain')]);
    await expect.poll(() => residency.getByRole('alert').first().textContent()).toBe('We only support PDF, PNG and JPEG, please try again');
  } else {
    await residency.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.error-summary').first().textContent()).toContain('Enter your address');
    expect(await taskForm(page, 'Your address abroad').getByLabel('City').inputValue()).toBe('Porto');
  }
  await check('with errors');

  const form = taskForm(page, 'Your address abroad');
  await form.getByLabel('Address').fill('Rua das Flores 12');
  await form.getByLabel('Zip code').fill('4050-262');
  await form.getByLabel('City').fill('Porto');
  expect(await form.getByLabel('Country').getAttribute('readonly')).not.toBeNull();
  await form.getByLabel('Housing contract', { exact: true }).setInputFiles([pdf('lease.pdf')]);
  await form.getByLabel('Bank statement', { exact: true }).setInputFiles([file('statement.png', samplePng(), 'image/png')]);
  if (javaScript) {
    // Each file is uploaded on its own request; Send waits for them.
    await form.getByRole('button', { name: 'Remove statement.png' }).waitFor();
    await form.getByRole('button', { name: 'Remove lease.pdf' }).waitFor();
    // The refused file is dismissed with its Remove.
    await form.getByRole('button', { name: 'Remove notes.txt' }).click();
  }
  await form.getByRole('button', { name: 'Send' }).click();
  await page.waitForURL(/\/onboarding\/case-status\?sent=1#case-sent/);
  expect(await page.getByRole('status').textContent()).toBe('Thank you. We have received what you sent and will continue reviewing your application.');
  expect(await page.locator('section.case-task').count()).toBe(2);

  // Tax liability: two files at once and a comment; tax residence: one file.
  const liability = taskForm(page, 'Tax liability');
  if (javaScript) await hydrated(liability);
  await liability.getByLabel('Comment (optional)').fill('My tax certificate, both pages');
  await liability.getByLabel('Attachments', { exact: true }).setInputFiles([pdf('page-1.pdf'), file('page-2.jpg', sampleJpeg(), 'image/jpeg')]);
  if (javaScript) await liability.getByRole('button', { name: 'Remove page-2.jpg' }).waitFor();
  if (javaScript) await liability.getByRole('button', { name: 'Remove page-1.pdf' }).waitFor();
  await liability.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => page.locator('section.case-task').count()).toBe(1);

  const residence = taskForm(page, 'Tax residence');
  if (javaScript) await hydrated(residence);
  await residence.getByLabel('Attachments', { exact: true }).setInputFiles([pdf('residence.pdf')]);
  if (javaScript) await residence.getByRole('button', { name: 'Remove residence.pdf' }).waitFor();
  await residence.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => page.locator('section.case-task').count()).toBe(0);

  expect(await stepTwo(page)).toBe('In progress');
  const sent = page.locator('ul.case-sent > li');
  expect(await sent.count()).toBe(3);
  expect(await sent.allTextContents()).toEqual([
    expect.stringContaining('Your address abroad'),
    expect.stringContaining('Tax liability'),
    expect.stringContaining('Tax residence'),
  ]);
  await check('sent');

  await expectOpenCaseAnswered(stack.sandboxUrl, persona.nationalId);
  // The refused file's upload answered 422, which Chromium logs as a failed resource; nothing else may be logged.
  expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  expect(errors.length).toBeLessThanOrEqual(1);
  await axeContext?.close();
  await context.close();
}

describe('the application status page in every market', () => {
  // Each market walked once per mode, on the phone in one mode and the desktop in the other.
  const walked = { true: { SE: PHONE, NO: DESKTOP, DK: PHONE, FI: DESKTOP }, false: { SE: DESKTOP, NO: PHONE, DK: DESKTOP, FI: PHONE } } as const;
  for (const javaScript of [true, false]) {
    it(`SE, NO, DK and FI ${javaScript ? 'with' : 'without'} JavaScript, phone and desktop: Pending, every task answered, In progress`, async () => {
      // The personas' tasks open again (the other mode's walks answered them).
      await fetch(`${stack.sandboxUrl}/sandbox/reset`, { method: 'POST' });
      const checks = new HtmlChecks();
      // The walks run side by side, each in its own browser context and session; two at a time (four walks with
      // axe on every state would starve two cores).
      const walks = Object.entries(walked[`${javaScript}`]).map(([country, viewport]) => ({ country: country as Market, viewport }));
      const failures: string[] = [];
      for (let i = 0; i < walks.length; i += 2) {
        const batch = walks.slice(i, i + 2);
        const results = await Promise.allSettled(batch.map((w) => walkMarket(w.country, javaScript, w.viewport, checks)));
        results.forEach((r, j) => {
          if (r.status === 'rejected')
            failures.push(`${batch[j]!.country} ${batch[j]!.viewport.width}px: ${r.reason instanceof Error ? r.reason.stack : String(r.reason)}`);
        });
        if (failures.length > 0) break;
      }
      const { nu, codeSniffer } = await checks.errors();
      expect({ failures, codeSniffer, nu }).toEqual({ failures: [], codeSniffer: [], nu: [] });
    }, 600_000);
  }

  it('with JavaScript on a slow connection, a chosen file shows its upload progress moving, then its Remove', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'caseTaxResidence', 'SE');
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await identifyInMarket(page, 'SE', persona, /\/onboarding\/case-status/);
    const form = taskForm(page, 'Tax residence');
    await hydrated(form);
    // A slow phone's uplink: some 1 MB at 200 kB/s takes about five seconds.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1_000_000, uploadThroughput: 200_000 });
    await form.getByLabel('Attachments', { exact: true }).setInputFiles([file('scan.pdf', pdfOfSize(1_000_000), 'application/pdf')]);
    const bar = form.getByRole('progressbar', { name: 'Uploading… scan.pdf' });
    await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(Number(await bar.getAttribute('value'))).toBeLessThan(1);
    expect(await form.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'uploading');
    await form.getByRole('button', { name: 'Remove scan.pdf' }).waitFor({ timeout: 30_000 });
    expect(await form.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    await context.close();
  }, 120_000);

  it('against a brokerage beyond our guesses, phone and desktop (axe): a failing task list, a task it does not know, an answer kept OPEN', async () => {
    await fetch(`${stack.sandboxUrl}/sandbox/reset`, { method: 'POST' });
    // Walked on the phone; each screen laid out and checked on the desktop too (resized).
    const context = await browser.newContext({ viewport: PHONE });
    const english = () => context.addCookies((['SE', 'DK', 'FI'] as const).map((c) => ({ name: 'locale', value: 'en', url: marketUrl(c) })));
    await english();
    const errors: string[] = [];
    const screen = async (page: Page, state: string) => {
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        await expectPhoneLayout(page, `${size.width}px ${state}`);
        await expectAccessible(page, `${size.width}px ${state}`);
        errors.push(...(await codeSnifferErrors(page)).map((e) => `${size.width}px ${state}: ${JSON.stringify(e)}`));
      }
      await page.setViewportSize(PHONE);
    };

    // SE: the task list fails. Routing sends the open case here, and here it stays (it looped through Onboarding).
    const failing = await context.newPage();
    await identifyInMarket(failing, 'SE', await personaFor(stack.sandboxUrl, 'caseTaskListFails', 'SE'), /\/onboarding\/case-status$/);
    expect(await failing.getByRole('alert').textContent()).toContain('We could not load what we may need from you just now');
    expect(await failing.locator('[data-step-two]').count()).toBe(0);
    await screen(failing, 'task list failed');
    await failing.getByRole('link', { name: 'Try again' }).click();
    await failing.waitForURL(/\/onboarding\/case-status$/);
    await failing.close();
    await context.clearCookies();
    await english();

    // DK: a task of a type the contract does not name, beside two with odd fields.
    const unknown = await context.newPage();
    await identifyInMarket(unknown, 'DK', await personaFor(stack.sandboxUrl, 'caseUnknownTask', 'DK'), /\/onboarding\/case-status/);
    expect(await stepTwo(unknown)).toBe('Pending');
    await unknown.getByRole('heading', { name: 'Another request from us' }).waitFor();
    expect(await unknown.locator('form[enctype="multipart/form-data"]').count()).toBe(2);
    await screen(unknown, 'unknown task');
    await unknown.close();
    await context.clearCookies();
    await english();

    // FI: the brokerage keeps the answered action OPEN: shown sent, and Send says it arrived.
    const keptOpen = await context.newPage();
    await identifyInMarket(keptOpen, 'FI', await personaFor(stack.sandboxUrl, 'caseKeptOpen', 'FI'), /\/onboarding\/case-status/);
    const liability = taskForm(keptOpen, 'Tax liability');
    await hydrated(liability);
    await liability.getByLabel('Attachments', { exact: true }).setInputFiles([pdf('tax.pdf')]);
    await liability.getByRole('button', { name: 'Remove tax.pdf' }).waitFor();
    await liability.getByRole('button', { name: 'Send' }).click();
    await keptOpen.waitForURL(/\/onboarding\/case-status\?sent=1#case-sent/);
    expect(await keptOpen.getByRole('status').textContent()).toContain('Thank you. We have received what you sent');
    expect(await keptOpen.locator('section.case-task').count()).toBe(0);
    expect(await stepTwo(keptOpen)).toBe('In progress');
    await screen(keptOpen, 'sent, kept open');
    await context.close();
    expect(errors).toEqual([]);
  }, 240_000);

  it('with JavaScript, a comment typed and a file uploaded are there again after identifying in a fresh browser; sent once', async () => {
    await fetch(`${stack.sandboxUrl}/sandbox/reset`, { method: 'POST' });
    const persona = await personaFor(stack.sandboxUrl, 'caseTaxLiability', 'SE');
    const open = async (withFile: boolean) => {
      const context = await browser.newContext({ viewport: PHONE });
      await context.addCookies([{ name: 'locale', value: 'en', url: marketUrl('SE') }]);
      const page = await context.newPage();
      await identifyInMarket(page, 'SE', persona, /\/onboarding\/case-status/);
      const form = taskForm(page, 'Tax liability');
      // Hydrated once Send is disabled for want of a file; with a kept file, once its Remove is there.
      if (withFile) await form.getByRole('button', { name: 'Remove kept.pdf' }).waitFor();
      else await hydrated(form);
      return { context, page, form };
    };
    const first = await open(false);
    await first.form.getByLabel('Comment (optional)').fill('Typed on my phone');
    await first.form.getByLabel('Attachments', { exact: true }).setInputFiles([pdf('kept.pdf')]);
    await first.form.getByRole('button', { name: 'Remove kept.pdf' }).waitFor();
    await first.context.close();

    const second = await open(true);
    expect(await second.form.getByLabel('Comment (optional)').inputValue()).toBe('Typed on my phone');
    await expectAccessible(second.page, 'identified again');
    await second.form.getByRole('button', { name: 'Send' }).click();
    await second.page.waitForURL(/\/onboarding\/case-status\?sent=1#case-sent/);
    const out = await readOut(stack.sandboxUrl, persona.nationalId);
    expect(out.uploads.map((u) => u.fileName)).toEqual(['kept.pdf']);
    expect(out.actionUpdates.map((c) => (c.body as { message: string }).message)).toEqual(['Typed on my phone']);
    expect([answered(out.actionUpdates), answered(out.caseUpdates)]).toEqual([1, 1]);
    await second.context.close();
  }, 120_000);

  it('a person without tasks sees In progress and no forms (axe)', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'caseNoTasks', 'NO');
    const context = await browser.newContext({ viewport: PHONE });
    await context.addCookies([{ name: 'locale', value: 'en', url: marketUrl('NO') }]);
    const page = await context.newPage();
    await identifyInMarket(page, 'NO', persona, /\/onboarding\/case-status/);
    expect(await stepTwo(page)).toBe('In progress');
    expect(await page.locator('section.case-task').count()).toBe(0);
    await expectPhoneLayout(page, 'empty');
    await expectAccessible(page, 'empty');
    // Return to site ends the sessions and goes to /.
    await page.getByRole('button', { name: 'Return to site' }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding' || url.pathname === '/');
    await context.close();
  }, 120_000);
});
