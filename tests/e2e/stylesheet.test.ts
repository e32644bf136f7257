// styles.css in a real browser: every documented class on one scripted page (tests/support/scriptedIslands.ts),
// checked by axe, for touch targets and for the layout widths of the spec.
import { describe, expect, it } from 'vitest';
import { axeViolations, describeViolations } from '../support/browser.ts';
import { errors, noScripts, page, useScriptedIslands } from '../support/scriptedIslands.ts';

useScriptedIslands();

describe('styles.css', () => {
  it('passes axe on every documented class and keeps 44 px touch targets', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto('/styles');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    for (const selector of ['.btn', '.card', '.site-header__logo', '.checkbox-card', '.field input']) {
      const box = (await page.locator(selector).first().boundingBox())!;
      expect(Math.min(box.width, box.height), selector).toBeGreaterThanOrEqual(44);
    }
    // The whole card toggles its box: a tap on the description text lands on the stretched label.
    await page.locator('#sav-text').scrollIntoViewIfNeeded();
    const text = (await page.locator('#sav-text').boundingBox())!;
    await page.mouse.click(text.x + text.width / 2, text.y + text.height / 2);
    expect(await page.locator('#sav').isChecked()).toBe(true);
    await noScripts();
    expect(errors).toEqual([]);
  });

  it('uses the layout widths of the spec', async () => {
    const widths: [number, number][] = [
      [360, 360],
      [600, 530],
      [800, 760],
      [1100, 976],
      [1400, 1280],
      [1800, 1600],
    ];
    await page.goto('/styles');
    for (const [viewport, expected] of widths) {
      await page.setViewportSize({ width: viewport, height: 900 });
      const pageWidth = await page.locator('.page').evaluate((el) => el.getBoundingClientRect().width);
      const contentWidth = await page.locator('.content').evaluate((el) => el.getBoundingClientRect().width);
      expect(pageWidth, `page at ${viewport}px`).toBe(expected);
      expect(contentWidth, `content at ${viewport}px`).toBeLessThanOrEqual(520);
    }
  });
});
