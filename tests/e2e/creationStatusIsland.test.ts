// The customer-creation status island in a real browser against a scripted server-sent event stream
// (tests/support/scriptedIslands.ts): the browser hydrates the server's markup, ignores an event of another shape,
// renders updates, survives a dropped stream, redirects, shows the done screen's choice and a failed outcome.
import { beforeEach, describe, expect, it } from 'vitest';
import type { CreationView } from '../../shared/creationView.ts';
import { axeViolations, describeViolations } from '../support/browser.ts';
import { expectIslandsHydrated } from '../support/clientBuild.ts';
import { errors, noScripts, page, sse, useScriptedIslands, views } from '../support/scriptedIslands.ts';

/** Events per SSE connection (in order); a connection after the last script gets nothing. */
let sseScript: CreationView[][] = [];
/** The stream holds its events until this resolves (lets a test look at the page before they arrive). */
let sseGate: Promise<void> = Promise.resolve();
useScriptedIslands({ events: () => sseScript, gate: () => sseGate });

beforeEach(() => {
  sseScript = [];
  sseGate = Promise.resolve();
});

describe('creationStatus island', () => {
  it("hydrates the server's markup and ignores an event of another shape", async () => {
    const otherShape = { ...views.stillPending, title: 'Of another shape', tone: 'calm' } as unknown as CreationView;
    // The same events on whichever connection the reloaded page opens (its first or, after a drop, its second).
    sseScript = [
      [otherShape, views.stillPending],
      [otherShape, views.stillPending],
    ];
    let release!: () => void;
    sseGate = new Promise((resolve) => (release = resolve));
    await page.goto('/creation');
    await expectIslandsHydrated(page, ['creationStatus']);
    // Every title the live region shows from now on.
    await page.locator('.creation__status').evaluate((status) => {
      const titles: string[] = [];
      (window as unknown as { titles: string[] }).titles = titles;
      new MutationObserver(() => titles.push(status.querySelector('h1')?.textContent ?? '')).observe(status, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    release();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Still working');
    expect(await page.evaluate(() => (window as unknown as { titles: string[] }).titles)).not.toContain('Of another shape');
    expect(await page.locator('[data-outcome]').getAttribute('data-outcome')).toBe('queued');
    expect(errors).toEqual([]);
  });

  it('updates from events, survives a dropped stream and redirects after a pause', async () => {
    sseScript = [[views.stillPending], [views.done]];
    // Held until the server's pending view has been read: on a busy machine the first event could otherwise arrive
    // before the test looks (stop 29's CI run saw 'Still working' here).
    let release!: () => void;
    sseGate = new Promise((resolve) => (release = resolve));
    await page.goto('/creation');
    const heading = page.getByRole('heading', { level: 1 });
    expect(await heading.innerText()).toBe('Please wait...');
    release();
    // The island marks when it has hydrated (client/hydrate.tsx), as the bench counts it; the live region it renders
    // into stays the server's element, so each outcome is read out.
    await expect.poll(() => page.evaluate(() => performance.getEntriesByName('island:creationStatus').length)).toBe(1);
    await page.locator('[role="status"]').evaluate((el) => el.setAttribute('data-kept', 'yes'));

    await expect.poll(() => heading.innerText()).toBe('Still working');
    // Second connection: the browser reconnected by itself and said which event it had seen.
    await expect.poll(() => heading.innerText(), { timeout: 5000 }).toBe('Your account is ready');
    expect(sse.lastEventIds).toEqual([undefined, '1']);
    expect(await page.locator('[data-outcome]').getAttribute('data-outcome')).toBe('done');
    expect(await page.locator('[role="status"]').innerText()).toContain('Taking you onwards.');
    expect(await page.locator('[role="status"][data-kept="yes"]').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/welcome');

    await page.waitForURL('**/welcome');
    const waited = sse.welcomeAt - sse.doneSentAt;
    expect(waited).toBeGreaterThanOrEqual(1400);
    expect(waited).toBeLessThan(4000);
    await noScripts();
    expect(errors).toEqual([]);
  });

  it('shows the done screen as the server renders it: Continue a form post, "Start using the app" a link beside it', async () => {
    sseScript = [[views.doneToChoose]];
    await page.goto('/creation');
    const continued = page.getByRole('button', { name: 'Continue' });
    await continued.waitFor();
    const form = page.locator('form.actions');
    expect(await form.getAttribute('method')).toBe('post');
    expect(await form.getAttribute('action')).toBe('/creation/continue');
    expect(await form.getByRole('link', { name: 'Start using the app' }).getAttribute('href')).toBe('/app');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows a failed outcome with its action as a form post', async () => {
    sseScript = [[views.error]];
    let release!: () => void;
    sseGate = new Promise((resolve) => (release = resolve));
    await page.goto('/creation');
    // The pending view first, spinner and all.
    expect(await page.locator('.spinner').count()).toBe(1);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    release();
    const retry = page.getByRole('button', { name: 'Try again' });
    await retry.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Something went wrong');
    expect(await page.locator('.spinner').count()).toBe(0);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await retry.click();
    await page.waitForURL('**/creation');
    expect(errors).toEqual([]);
  });
});
