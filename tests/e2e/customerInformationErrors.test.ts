// The call wrapper's error banners (customer-information.md §7, §8) in real Chromium: a failing step post
// shows "Something went wrong", a 403 "session expired", each as an alert axe finds no WCAG A/AA fault
// in, with the input kept; the next post goes on without it. Faults come from the sandbox (POST /sandbox/faults).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, identifyAs, PHONE, stack, useE2eStack } from '../support/e2e.ts';
import { expectAccessible } from '../support/journey.ts';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';

useE2eStack();

async function fault(prospectId: string, status: number): Promise<void> {
  const res = await fetch(`${stack.sandboxUrl}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'POST', path: brokeragePaths.contactInfoStep(prospectId), status }),
  });
  expect(res.status).toBe(204);
}

const submit = (page: Page) => Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Continue', exact: true }).click()]);

describe('customer-information error banners', () => {
  it('render as accessible alerts over the kept input, and go with the next post', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await identifyAs(page, 'contactInformation');
    const prospectId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByLabel('Mobile phone number').fill('+46 70 123 45 67');
    await page.getByLabel('Email').fill('banner@example.com');

    await fault(prospectId, 500);
    await submit(page);
    const alert = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    expect(await alert.textContent()).toContain('Please try again at a later time. If the problem persists, please contact customer service.');
    expect(await page.getByLabel('Email').inputValue()).toBe('banner@example.com');
    await expectAccessible(page, 'step error: try again');

    await fault(prospectId, 403);
    await submit(page);
    expect(await page.getByRole('alert').filter({ hasText: 'Your session has expired. Please exit the session and try again.' }).count()).toBe(1);
    expect(await page.getByLabel('Mobile phone number').inputValue()).toBe('+46 70 123 45 67');
    await expectAccessible(page, 'step error: session expired');

    await submit(page);
    await expect.poll(() => page.locator('[data-step]').getAttribute('data-step')).toBe('MILESTONE_THREE_STEP');
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });
});
