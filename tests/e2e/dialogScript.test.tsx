// The dialog island (views/components/Dialog.tsx DialogModal) in Chromium at 360×740 and 1280×800 with axe: the exit
// modal of customer-information §2.2 opened from Exit by keyboard, closed by Esc and by "No, continue signup" with the
// focus back on Exit, "Yes, exit" posting the exit; without JavaScript Exit is a link to the abort screen. A box-gated
// modal: its primary link has no target until the box is ticked, each opening asks afresh, and Esc reports the secondary
// result to the other islands.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ModalDialog, type DialogProps } from '../../views/components/Dialog.tsx';
import { scriptsOf } from '../support/clientBuild.ts';
import { expectPhoneLayout } from '../support/e2e.ts';
import { expectAccessible } from '../support/journey.ts';
import { BASE, customerInformationPage, openRendered, t, renderedPagesStage } from '../support/renderedPages.tsx';

const SIZES = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
];
const PAGE = '/onboarding/customer-information/p-1';
const EXIT = `${PAGE}/exit`;

const stage = renderedPagesStage();

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe('the dialog island', () => {
  it.each(SIZES)('exit modal at $width×$height: opened by keyboard, Esc and No close it, Yes, exit posts the exit', async (viewport) => {
    const posts: string[] = [];
    const { page, errors } = await openRendered(stage.browser, customerInformationPage(stage.manifest, <p>A step</p>), PAGE, {
      viewport,
      other: async (route) => {
        const { pathname } = new URL(route.request().url());
        // The page the exit leads to, as the POST's own answer: Chromium's headless shell does not hand the request
        // after a fulfilled redirect to the route, and the made-up origin has no server to answer it.
        if (route.request().method() === 'POST' && pathname === EXIT) {
          posts.push(pathname);
          return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Left</title><h1>Left</h1>' });
        }
        return route.fulfill({ status: 404, body: '' });
      },
    });
    const scripts = scriptsOf(page);
    await page.reload();
    // Only the dialog's island and what it imports (React's shared chunk among them).
    const fetched = scripts();
    const dialogFiles = [stage.manifest.islands.dialog!.file, ...stage.manifest.islands.dialog!.imports];
    expect(dialogFiles).toContain(stage.manifest.react);
    expect(fetched.sort()).toEqual([...dialogFiles].sort());

    const exit = page.getByRole('link', { name: t('customerInformation.exit') });
    const dialog = page.getByRole('dialog', { name: t('abort.title') });
    expect(await dialog.isVisible()).toBe(false);
    const openByKeyboard = async () => {
      await exit.focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      expect(await page.evaluate(() => document.getElementById('abort-dialog')!.matches(':modal'))).toBe(true);
      // The native modal moved the focus in (its first control).
      expect(await page.evaluate(() => document.getElementById('abort-dialog')!.contains(document.activeElement))).toBe(true);
    };

    await openByKeyboard();
    await expectAccessible(page, `exit modal ${viewport.width}`);
    await expectPhoneLayout(page, `exit modal ${viewport.width}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await activeId(page)).toBe('ci-exit');
    expect(new URL(page.url()).pathname).toBe(PAGE);

    await openByKeyboard();
    await dialog.getByRole('button', { name: t('abort.no') }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await activeId(page)).toBe('ci-exit');
    expect(posts).toEqual([]);

    await openByKeyboard();
    await dialog.getByRole('button', { name: t('abort.yes') }).click();
    await page.waitForURL(`**${EXIT}`);
    expect(await page.locator('h1').textContent()).toBe('Left');
    expect(posts).toEqual([EXIT]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('without JavaScript, Exit is a link to the abort screen', async () => {
    const gets: string[] = [];
    const { page } = await openRendered(stage.browser, customerInformationPage(stage.manifest, <p>A step</p>), PAGE, {
      viewport: SIZES[0],
      javaScriptEnabled: false,
      other: async (route) => {
        gets.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
        return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Abort</title><h1>Abort</h1>' });
      },
    });
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('link', { name: t('customerInformation.exit') }).click();
    await page.waitForURL(`**${EXIT}`);
    expect(gets).toEqual([`GET ${EXIT}`]);
    await page.context().close();
  });

  it.each(SIZES)('box-gated modal at $width×$height: no target until ticked, asked afresh, Esc reports secondary', async (viewport) => {
    const gated: DialogProps = {
      id: 'gated-dialog',
      title: 'Confirm the account',
      text: ['Only one such account can be held at a time.'],
      checkbox: { name: 'confirm', label: 'I confirm' },
      primary: { label: 'Go on', href: `${BASE}/next` },
      secondary: { label: 'Cancel', href: BASE },
      openers: ['open-gated'],
    };
    const body = (
      <>
        <a id="open-gated" href={`${BASE}?dialog=gated`}>
          Choose the account
        </a>
        <ModalDialog {...gated} />
      </>
    );
    const { page, errors } = await openRendered(stage.browser, customerInformationPage(stage.manifest, body), PAGE, { viewport });
    await page.evaluate(() => {
      const w = window as unknown as { closes: unknown[] };
      w.closes = [];
      document.addEventListener('dialog:close', (e) => w.closes.push((e as CustomEvent).detail));
    });
    const dialog = page.getByRole('dialog', { name: gated.title });
    const primary = dialog.getByRole('link', { name: 'Go on' });
    const box = dialog.getByLabel('I confirm');
    const opener = page.getByRole('link', { name: 'Choose the account' });

    await opener.click();
    await dialog.waitFor();
    expect(await primary.getAttribute('href')).toBeNull();
    expect(await primary.getAttribute('aria-disabled')).toBe('true');
    await box.check();
    expect(await primary.getAttribute('href')).toBe(`${BASE}/next`);
    expect(await primary.getAttribute('aria-disabled')).toBeNull();
    await expectAccessible(page, `gated modal ${viewport.width}`);
    await expectPhoneLayout(page, `gated modal ${viewport.width}`);

    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await activeId(page)).toBe('open-gated');
    expect(await page.evaluate(() => (window as unknown as { closes: unknown[] }).closes)).toEqual([{ id: 'gated-dialog', result: 'secondary' }]);

    // Opened again: unticked, no target.
    await opener.click();
    await dialog.waitFor();
    expect(await box.isChecked()).toBe(false);
    expect(await primary.getAttribute('href')).toBeNull();
    expect(new URL(page.url()).pathname).toBe(PAGE);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
