// Layout checks run in the page as Chromium lays it out, for the walks: progress labels that never break inside a word
// (the rendered line boxes of each word), open dialogs that show they scroll, and a primary action the system banners
// never push below the fold. Each answers its problems as lines; expectLayout fails with every one of them.
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { isLocale } from '../../shared/i18n.ts';
import { SystemStatusBanners } from '../../views/components/SystemStatusBanners.tsx';
import { evaluateSettled } from './browser.ts';

export const NARROW_PHONE = { width: 320, height: 640 };
export const DESKTOP = { width: 1280, height: 800 };

/** The progress bar's visible labels (views/Layout.tsx). */
const progressLabels = '.progress > li > span:not(.visually-hidden)';

/**
 * Words of the progress bar's labels that the browser broke across lines, and a step's ✓ or ✕ on a line of its own:
 * each word's rendered boxes (Range.getClientRects) must share one line.
 */
export function progressLabelBreaks(page: Page): Promise<string[]> {
  return evaluateSettled(
    page,
    (selector) => {
      const problems: string[] = [];
      const lineTops = (range: Range) => new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      for (const label of document.querySelectorAll<HTMLElement>(selector)) {
        const text = label.firstChild;
        if (!(text instanceof Text)) continue;
        const words = [...text.data.matchAll(/\S+/g)];
        for (const word of words) {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          if (lineTops(range).size > 1) problems.push(`progress label "${text.data}" breaks inside "${word[0]}"`);
        }
        // The mark (::before) has no text node: the label's first line box must hold its first word too.
        const first = words[0];
        if (first && getComputedStyle(label, '::before').content !== 'none') {
          const range = document.createRange();
          range.setStart(text, first.index);
          range.setEnd(text, first.index + first[0].length);
          // The mark's glyph may come from another font: the same line within a few pixels.
          const markTop = label.getClientRects()[0]?.top ?? 0;
          if (![...lineTops(range)].some((top) => Math.abs(top - markTop) < 4)) problems.push(`the mark of "${text.data}" sits on a line of its own`);
        }
      }
      return problems;
    },
    progressLabels,
  );
}

/**
 * Open dialogs (modals and sheets) that hold more than they show: each part that scrolls must show it with scroll
 * shadows (gradients fixed to the area under white covers that scroll with the content) or a sticky part casting a
 * shadow over the rest; a part that clips without scrolling hides content for good. The actions must be in view.
 */
export function dialogScrollCues(page: Page): Promise<string[]> {
  return evaluateSettled(page, () => {
    const problems: string[] = [];
    for (const dialog of document.querySelectorAll<HTMLElement>('dialog[open]')) {
      const name = dialog.querySelector('h1, h2')?.textContent ?? dialog.id;
      for (const area of [dialog, ...dialog.querySelectorAll<HTMLElement>('*')]) {
        const hidden = area.scrollHeight - area.clientHeight;
        if (hidden <= 1) continue;
        const style = getComputedStyle(area);
        if (!/auto|scroll/.test(style.overflowY)) {
          if (/hidden|clip/.test(style.overflowY)) problems.push(`dialog "${name}" clips ${hidden} px of its content out of reach`);
          continue;
        }
        const layers = style.backgroundAttachment.split(',').map((a) => a.trim());
        const shadows = (style.backgroundImage.match(/gradient\(/g)?.length ?? 0) >= 2 && layers.includes('local') && layers.includes('scroll');
        const sticky = [...area.querySelectorAll('*')].some((el) => getComputedStyle(el).position === 'sticky' && getComputedStyle(el).boxShadow !== 'none');
        if (!shadows && !sticky) problems.push(`dialog "${name}" scrolls ${hidden} px without a scroll cue`);
      }
      for (const action of dialog.querySelectorAll('.dialog__actions button, .dialog__actions a')) {
        const r = action.getBoundingClientRect();
        if (r.bottom > window.innerHeight || r.top < 0) problems.push(`dialog "${name}": action "${action.textContent}" outside the screen`);
      }
    }
    return problems;
  });
}

const t = createI18n(loadCatalogues());

/** The system banners' markup in `locale`, both shown (views/components/SystemStatusBanners.tsx). */
const bannersHtml = (lang: string) =>
  renderToStaticMarkup(createElement(SystemStatusBanners, { t: t.translator(isLocale(lang) ? lang : 'en'), banners: { maintenance: true, highLoad: true } }));

/**
 * The screen's primary action (its first primary .btn in main) above the fold without the system banners, but below it
 * with both shown: the banners are put where the shell shows them (first in main) unless the screen has them already.
 */
export async function primaryActionPushedBelowFold(page: Page): Promise<string[]> {
  const lang = (await page.locator('html').getAttribute('lang')) ?? '';
  return evaluateSettled(
    page,
    async (html: string) => {
      const main = document.querySelector('main');
      const primary = [...(main?.querySelectorAll<HTMLElement>('.btn:not(.btn-secondary)') ?? [])].find(
        (el) => !el.closest('dialog') && el.checkVisibility({ visibilityProperty: true }),
      );
      if (!main || !primary) return [];
      // Measured where the content's entrance movement ends.
      await Promise.all(main.getAnimations().map((a) => a.finished.catch(() => undefined)));
      const bottom = () => primary.getBoundingClientRect().bottom + window.scrollY;
      // Both banners as the shell shows them: the screen's own (taken out to measure without), else the rendered pair.
      const own = [...main.querySelectorAll('[role="region"][aria-labelledby^="system-status-"]')];
      const banners = document.createElement('div');
      banners.style.display = 'contents';
      const place = document.createComment('banners');
      if (own[0]) own[0].before(place);
      else main.prepend(place);
      if (own.length > 0) banners.append(...own);
      else banners.innerHTML = html;
      const without = bottom();
      place.replaceWith(banners);
      const withBanners = bottom();
      if (own.length > 0) banners.replaceWith(...own);
      else banners.remove();
      return without <= window.innerHeight && withBanners > window.innerHeight
        ? [`primary action "${primary.textContent?.trim()}" ends at ${Math.round(withBanners)} px with both banners, below the ${window.innerHeight} px fold`]
        : [];
    },
    bannersHtml(lang),
  );
}

/** Fails with every problem found, each named by the screen (one string, so a failure lists them all in full). */
export function expectNoLayoutProblems(screen: string, problems: string[]): void {
  const lines = problems.map((problem) => `${screen}: ${problem}`);
  // The lines as the message too: a walk reports a failure by its message alone.
  expect(lines, lines.join('\n')).toEqual([]);
}

/**
 * A walk's screen as shown (a 360×740 phone): open dialogs show when they scroll, the system banners push no primary
 * action below the fold, and the progress labels break no word at 320 px, at the screen's own size and at 1280 px.
 */
export async function expectScreenLayout(page: Page, screen: string): Promise<void> {
  const size = page.viewportSize();
  const problems = [...(await dialogScrollCues(page)), ...(await primaryActionPushedBelowFold(page))];
  // A screen without progress labels has none to break at any width (they are the server's markup, and no script
  // adds any on a resize), so it is not laid out again at the other widths. Its own size last, so the screen is
  // left as it was shown.
  const labelled = await evaluateSettled(page, (selector) => document.querySelector(selector) !== null, progressLabels);
  for (const viewport of size && labelled ? [NARROW_PHONE, DESKTOP, size] : [null]) {
    if (viewport) await page.setViewportSize(viewport);
    const width = viewport?.width ?? (await page.evaluate(() => window.innerWidth));
    problems.push(...(await progressLabelBreaks(page)).map((problem) => `at ${width} px, ${problem}`));
  }
  expectNoLayoutProblems(screen, problems);
}
