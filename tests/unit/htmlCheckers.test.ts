// The markup checkers' wiring (tests/support/htmlCheckers.ts): a walk whose checkers never ran, or whose
// output was misread, would pass on any markup. So the real Nu checker and HTML_CodeSniffer are run here
// on a known-bad document, and must find what is wrong with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { codeSnifferErrors, nuCheck, nuFailures, trackServerMarkup } from '../support/htmlCheckers.ts';

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page</title></head><body><main>${body}</main></body></html>`;
const good = page('<h1>Fine</h1><p>Nothing wrong here.</p>');
// An image without a text alternative, and an id used twice.
const bad = page('<h1>Broken</h1><img src="a.png"><p id="twice">One</p><p id="twice">Two</p>');

describe('Nu checker output', () => {
  const json = (messages: unknown[]) => JSON.stringify({ version: 'test', messages });
  const screenOf = (url: string) => (url === 'file:/tmp/a.html' ? 'screen A' : url);

  it('fails on an error and a non-document error, naming the screen, the message and the extract', () => {
    const found = nuFailures(
      json([
        { type: 'error', url: 'file:/tmp/a.html', message: 'Duplicate ID “x”.', extract: '<p id="x">\n  two' },
        { type: 'non-document-error', subType: 'io', url: 'file:/tmp/b.html', message: 'File not found.' },
      ]),
      screenOf,
    );
    expect(found).toEqual(['screen A: Duplicate ID “x”. (<p id="x"> two)', 'file:/tmp/b.html: non-document-error io: File not found.']);
  });

  it('does not fail on info messages, warnings among them', () => {
    const info = [
      { type: 'info', url: 'file:/tmp/a.html', message: 'Trailing slash on void elements has no effect.' },
      { type: 'info', subType: 'warning', url: 'file:/tmp/a.html', message: 'The first occurrence of ID “x” was here.' },
    ];
    expect(nuFailures(json(info), screenOf)).toEqual([]);
  });

  it('refuses output that is not the checker’s report', () => {
    expect(() => nuFailures('', screenOf)).toThrow();
    expect(() => nuFailures('{"version":"x"}', screenOf)).toThrow();
  });
});

describe('the checkers themselves', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('the Nu checker finds the missing alt and the duplicate id, on the bad screen only', async () => {
    const found = await nuCheck([
      { screen: 'good screen', html: good },
      { screen: 'bad screen', html: bad },
    ]);
    expect(found).toEqual([
      expect.stringMatching(/^bad screen: An “img” element must have an “alt” attribute.* \(.*<img src="a.png">.*\)$/),
      expect.stringMatching(/^bad screen: Duplicate ID “twice”\. \(/),
    ]);
  });

  it('HTML_CodeSniffer finds the missing alt, also under a Content-Security-Policy that allows no script', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    for (const [url, html] of [
      ['http://checkers.test/good', good],
      ['http://checkers.test/bad', bad],
    ] as const) {
      await tab.route(url, (route) =>
        route.fulfill({ contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': "script-src 'none'" }, body: html }),
      );
    }
    await tab.route('**/*.png', (route) => route.abort());
    await tab.goto('http://checkers.test/good');
    expect(await codeSnifferErrors(tab)).toEqual([]);
    await tab.goto('http://checkers.test/bad');
    expect(await codeSnifferErrors(tab)).toContainEqual(expect.stringMatching(/^WCAG2AA\.Principle1\.Guideline1_1\.1_1_1\.H37 .*\(<img src="a.png">\)$/));
    await context.close();
  });

  it('the server markup of a screen that refreshes itself stays readable once the next load has begun', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const tab = await context.newPage();
    const markup = trackServerMarkup(tab);
    const refreshing = page('<h1>Scan the QR code</h1>').replace('<title>', '<meta http-equiv="refresh" content="1; url=/next"><title>');
    await tab.route('http://checkers.test/qr', (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: refreshing }));
    // The refresh comes a second later (as the QR screen's does); the next load answers only after the walk
    // has asked for the markup.
    let answerNext = () => {};
    const nextAsked = new Promise<void>((asked) => {
      void tab.route('http://checkers.test/next', async (route) => {
        asked();
        await new Promise<void>((answer) => (answerNext = answer));
        await route.fulfill({ contentType: 'text/html; charset=utf-8', body: good });
      });
    });
    await tab.goto('http://checkers.test/qr', { waitUntil: 'commit' });
    await nextAsked;
    expect(await markup()).toBe(refreshing);
    answerNext();
    await context.close();
  });
});
