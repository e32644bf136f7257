// The axe check every browser test relies on (tests/support/browser.ts axeViolations, in the page itself) finds what
// it must on a known-bad page: so that a faster way of running it cannot pass silently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeViolations, launchChromium } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

describe('axeViolations', () => {
  it('reports a missing alt text, too little contrast, a nameless button and a field without a label', async () => {
    const page = await browser.newPage();
    await page.setContent(`<!doctype html><html lang="en"><head><title>Bad</title></head><body><main>
      <h1>Known bad</h1>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <p style="color:#bbb;background:#fff">Too pale to read</p>
      <button></button>
      <input type="text">
    </main></body></html>`);
    const ids = (await axeViolations(page)).map((v) => v.id).sort();
    expect(ids).toEqual(['button-name', 'color-contrast', 'image-alt', 'label']);
    await page.close();
  });

  it('reports nothing on a page without faults', async () => {
    const page = await browser.newPage();
    await page.setContent(`<!doctype html><html lang="en"><head><title>Good</title></head><body><main>
      <h1>Fine</h1><label for="n">Name</label><input id="n" type="text"><button>Send</button></main></body></html>`);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });
});
