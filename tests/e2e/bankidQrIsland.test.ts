// The BankID QR island in a real browser against the scripted status endpoint (tests/support/scriptedIslands.ts):
// the browser hydrates the server's markup, rotates the QR code, ignores an answer of another shape, stops once failed,
// and works without JavaScript.
import { describe, expect, it } from 'vitest';
import { axeViolations, describeViolations } from '../support/browser.ts';
import { expectIslandsHydrated } from '../support/clientBuild.ts';
import { baseUrl, browser, errors, liveText, noScripts, page, qrPath, qrScript, qrSvgs, useScriptedIslands } from '../support/scriptedIslands.ts';
import type { BankidQrStatus } from '../../shared/bankidQr.ts';

useScriptedIslands();

describe('bankidQr island', () => {
  it('hydrates the markup, rotates the QR code through failed polls, shows the spinner and follows next', async () => {
    await page.goto('/qr');
    await expectIslandsHydrated(page, ['bankidQr']);
    // An answer of another shape (zod refuses it) changes nothing; polling goes on.
    qrScript.status = { qrSvg: qrSvgs[1]!, message: 'Scan the QR code.', state: 'waiting', retry: null, showSpinner: false } as unknown as BankidQrStatus;
    const before = qrScript.requests;
    await expect.poll(() => qrScript.requests).toBeGreaterThan(before + 2);
    expect(await liveText()).toBe('Start your BankID app and scan the QR code.');

    qrScript.failures = 2;
    qrScript.status = { qrSvg: qrSvgs[1]!, message: 'Scan the QR code.', state: 'pending', retry: null, showSpinner: false };

    const qrImage = page.getByRole('img', { name: 'QR code to scan with the BankID app' });
    await expect.poll(() => qrImage.locator('path[stroke]').getAttribute('d')).toBe(qrPath(qrSvgs[1]!));
    expect(qrScript.requests).toBeGreaterThanOrEqual(3);
    expect(new Set(qrScript.accept)).toEqual(new Set(['application/json']));
    await expect.poll(() => liveText()).toBe('Scan the QR code.');
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    qrScript.status = { qrSvg: null, message: 'Enter your security code in the BankID app.', state: 'pending', retry: null, showSpinner: true };
    await expect.poll(() => liveText()).toBe('Signing in Enter your security code in the BankID app.');
    expect(await page.getByRole('img').count()).toBe(0);
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    qrScript.status = { qrSvg: null, message: 'Done', state: 'complete', retry: null, showSpinner: true, next: '/done' };
    await page.waitForURL('**/done');
    await noScripts();
    // Only the two failures the server was told to produce.
    expect(errors.filter((e) => !/Failed to load resource|ERR_EMPTY_RESPONSE/.test(e))).toEqual([]);
    expect(errors.length).toBeLessThanOrEqual(2);
  });

  it('stops polling once failed and offers the retry as a form post', async () => {
    await page.goto('/qr');
    // The island marks when it has hydrated (client/hydrate.tsx), as the bench counts it.
    await expect.poll(() => page.evaluate(() => performance.getEntriesByName('island:bankidQr').length)).toBe(1);
    // The live region stays the server's element (screen readers announce its new text).
    await page.locator('[aria-live="polite"]').evaluate((el) => el.setAttribute('data-kept', 'yes'));
    qrScript.status = {
      qrSvg: null,
      message: 'The BankID app did not answer.',
      state: 'failed',
      retry: { url: '/qr/retry', label: 'Try again' },
      showSpinner: false,
    };
    const retry = page.getByRole('button', { name: 'Try again' });
    await retry.waitFor();
    expect(await page.locator('[aria-live="polite"][data-kept="yes"]').count()).toBe(1);
    const requests = qrScript.requests;
    await page.waitForTimeout(600);
    expect(qrScript.requests).toBe(requests);
    expect(await liveText()).toBe('The BankID app did not answer.');
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    await retry.click();
    await page.waitForURL('**/done');
    expect(errors).toEqual([]);
  });

  it('works without JavaScript: server-rendered QR and a refresh that polls', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, javaScriptEnabled: false });
    const noJs = await context.newPage();
    await noJs.goto('/qr');
    expect(await noJs.getByRole('img', { name: 'QR code to scan with the BankID app' }).count()).toBe(1);
    expect(await noJs.locator('noscript').innerHTML()).toContain('http-equiv="refresh" content="2"');
    await context.close();
  });
});
