// The one-way door after signing in real Chromium (customer-information §4.8): the person
// signs, goes Back twice in the browser and finds the customer-information page closed: no Change, no Sign,
// only the way on to customer creation, and nothing reached the brokerage (the sandbox's read-out of the calls
// that change something there). axe on the closed page at 360×740 and on a desktop; nothing wider than the viewport.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { browser, identifyAs, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { expectAccessible } from '../support/journey.ts';
import { currentStep, walkToMilestoneThree } from '../support/customerInformation.ts';

useE2eStack();

const DESKTOP = { width: 1280, height: 800 };

/** The calls that reached the brokerage on the prospect's own paths (steps, milestones, signatures). */
async function prospectCalls(prospectId: string): Promise<string[]> {
  const { body } = await request(stack.sandboxUrl).get('/sandbox/brokerage-calls').query({ prospectId }).expect(200);
  return (body as { calls: { method: string; path: string }[] }).calls.filter((c) => c.path.includes('/prospects/')).map((c) => `${c.method} ${c.path}`);
}

describe('after signing, Back twice', () => {
  it('finds the page closed: no Change, no Sign, the way on to creation; nothing reaches the brokerage', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await identifyAs(page, 'accounts');
    await walkToMilestoneThree(page);
    expect((await currentStep(page)).step).toBe('MILESTONE_THREE_STEP');
    const milestone = page.url();
    const prospectId = decodeURIComponent(new URL(milestone).pathname.split('/').pop()!);
    expect(await page.getByRole('button', { name: /^Change/ }).count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Sign with Bank ID' }).click();
    await page.waitForURL(`${stack.sandboxUrl}/sandbox/signing/**`);
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.waitForURL(/\/onboarding\/customer-creation\//);
    const before = await prospectCalls(prospectId);

    // Back to the signing page (the order is signed: it says so), then to milestone three's address.
    await page.goBack();
    expect(page.url().startsWith(`${stack.sandboxUrl}/sandbox/signing/`)).toBe(true);
    await page.goBack();
    expect(page.url()).toBe(milestone);
    await page.getByRole('heading', { name: 'You have signed' }).waitFor();
    expect(await page.getByRole('button', { name: /^Change/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Sign with Bank ID|I have signed/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Back' }).isDisabled()).toBe(true);
    const onward = page.getByRole('link', { name: 'Continue to customer creation' });
    expect(await onward.isVisible()).toBe(true);

    for (const [screen, viewport] of [
      ['the closed page (phone)', PHONE],
      ['the closed page (desktop)', DESKTOP],
    ] as const) {
      await page.setViewportSize(viewport);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen}: page width`).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page, screen);
    }

    await Promise.all([page.waitForURL(/\/onboarding\/customer-creation\//), onward.click()]);
    expect(await prospectCalls(prospectId)).toEqual(before);
    await context.close();
  }, 120_000);
});
