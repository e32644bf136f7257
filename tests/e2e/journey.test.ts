// The walking skeleton's path in real Chromium, in embedded mode (one process, in-memory stand-ins):
// start page → Private → BankID QR → the test BankID app identifies → routing → customer information
// (milestone one, account picker, milestone three) → signing → customer creation over SSE → done; and
// without JavaScript, a prospect going straight to the KYC questionnaire signs too.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, stack, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectAccessible, expectSnapshotAccessible, identifyOnPhone, personaFor, recordMainTexts, startPrivateIdentification } from '../support/journey.ts';
import request from 'supertest';
import { agentCookies } from '../support/agentCookies.ts';
import { atMilestoneThreeOverHttp, walkToMilestoneThree } from '../support/customerInformation.ts';

useE2eStack();

async function qrSource(page: Page): Promise<string> {
  return (await page.locator('[data-island="bankidQr"] svg').first().innerHTML()).slice(0, 4000);
}

describe('Swedish BankID journey (embedded mode)', () => {
  it('walks from the start page to a created customer, every screen accessible', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'onboarding');
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await startPrivateIdentification(page, stack.webUrl, { axe: true });
    // The QR code is drawn and re-drawn with new data every second.
    const first = await qrSource(page);
    expect(first).toContain('<path');
    await expect.poll(() => qrSource(page), { timeout: 5000 }).not.toBe(first);
    await expect.poll(() => page.locator('[aria-live]').first().textContent()).toContain('Start your BankID app.');
    await expectAccessible(page, 'BankID QR');
    // The QR secret never reaches the browser.
    expect(await page.content()).not.toMatch(/qrStartSecret/);

    await identifyOnPhone(browser, stack.sandboxUrl, persona);

    // Routing and prospect creation happen on the server; the island follows to milestone one.
    await page.waitForURL(/\/onboarding\/customer-information\//, { timeout: 15_000 });
    await expect.poll(() => page.locator('h1').textContent()).toBe("Let's start your savings journey!");
    await expectAccessible(page, 'milestone one');
    await page.getByRole('button', { name: 'Start' }).click();

    await expect.poll(() => page.locator('h1').textContent()).toBe('Choose your starting accounts');
    const isk = page.getByRole('checkbox', { name: /Investment Savings Account/ });
    const dep = page.getByRole('checkbox', { name: /Stock and Fund Account/ });
    expect(await isk.isChecked()).toBe(true);
    expect(await dep.isChecked()).toBe(true);
    expect(await dep.isDisabled()).toBe(true);
    await expectAccessible(page, 'account picker');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Continue' }).click()]);
    // The steps between the picker and milestone three, each checked by axe.
    await walkToMilestoneThree(page, (step, screen) => expectAccessible(page, `${step} ${screen}`));

    await expect.poll(() => page.locator('h1').textContent()).toBe('Almost there! Just need to sign with your eID.');
    await expectAccessible(page, 'milestone three');
    await page.getByRole('button', { name: 'Sign with Bank ID' }).click();

    // The sandbox signing service, then back to customer creation.
    await page.waitForURL(`${stack.sandboxUrl}/sandbox/signing/**`);
    // Recorded from before the creation page opens: it may show its outcome and move on at once.
    const shown = await recordMainTexts(page);
    await page.getByRole('button', { name: 'Sign' }).click();
    await page.waitForURL(/\/onboarding\/customer-creation\//);
    await expect.poll(() => shown().some((text) => text.includes('Please wait...'))).toBe(true);
    // A copy: the outcome replaces the polling screen once the customer is created.
    await expectSnapshotAccessible(page, 'customer creation');

    await expect.poll(() => shown().some((text) => text.includes('Agreements signed')), { timeout: 15_000 }).toBe(true);
    // The done screen waits for the person: Continue leads to the bank's site, logged in.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.sandboxUrl}/sandbox/overview`, { timeout: 10_000 });
    expect(await page.locator('.login-status').textContent()).toBe(`Logged in as ${persona.name} (${persona.nationalId.slice(0, -4)}****)`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tells a LOGIN persona "You already have an account"', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'login');
    const context = await browser.newContext();
    const page = await context.newPage();
    await startPrivateIdentification(page, stack.webUrl, { axe: false });
    await identifyOnPhone(browser, stack.sandboxUrl, persona);
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBe('You already have an account');
    expect(await page.locator('main').textContent()).toContain('It looks like you already have an account. Try to login instead.');
    await expectAccessible(page, 'login error');
    await context.close();
  });

  it('works without JavaScript: meta refresh polls, forms post, the creation page refreshes itself', async () => {
    const persona = await personaFor(stack.sandboxUrl, 'onboardingIntent');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await startPrivateIdentification(page, stack.webUrl, { axe: false });
    // The JS-free page polls by refreshing itself.
    expect(await page.locator('noscript').innerHTML()).toContain('http-equiv="refresh"');
    expect(await page.locator('[data-island="bankidQr"] svg').count()).toBe(1);
    await identifyOnPhone(browser, stack.sandboxUrl, persona);
    // The page refreshes itself every second and lands on milestone one.
    await page.waitForURL(/\/onboarding\/customer-information\//, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Start' }).click();
    // Unticking ISK keeps the locked DEP account.
    // The card's label is the tap target.
    await page.locator('label[for="account-ISK_SE"]').click();
    expect(await page.getByRole('checkbox', { name: /Investment Savings Account/ }).isChecked()).toBe(false);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Continue' }).click()]);
    await walkToMilestoneThree(page);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Almost there! Just need to sign with your eID.');
    await page.getByRole('button', { name: 'Sign with Bank ID' }).click();
    await page.getByRole('button', { name: 'Sign' }).click();
    await page.waitForURL(/\/onboarding\/customer-creation\//);
    await expect.poll(() => page.locator('main').textContent(), { timeout: 20_000 }).toContain('Agreements signed');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.sandboxUrl}/sandbox/overview`);
    expect(await page.locator('.login-status').getAttribute('data-logged-in')).toBe('true');
    await context.close();
  });

  // Persona kyc: straight to the KYC questionnaire (no account picker), then signing with the accounts
  // "Check your answers" lists. The questionnaire's posts are those of a browser without JavaScript, sent over HTTP
  // (tests/e2e/kyc.test.ts walks them in one); the browser carries on at check your answers.
  it('signs without JavaScript as persona kyc: the questionnaire, check your answers, signing, created', async () => {
    const agent = request.agent(stack.webUrl);
    const path = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'kyc');
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(agentCookies(agent, stack.webUrl));
    const page = await context.newPage();
    await page.goto(`${stack.webUrl}${path}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Almost there! Just need to sign with your eID.');
    expect(await page.locator('#summary-accounts').textContent()).toContain('Investment Savings Account');
    await page.getByRole('button', { name: 'Sign with Bank ID' }).click();
    await page.waitForURL(`${stack.sandboxUrl}/sandbox/signing/**`);
    await page.getByRole('button', { name: 'Sign' }).click();
    await page.waitForURL(/\/onboarding\/customer-creation\//);
    await expect.poll(() => page.locator('main').textContent(), { timeout: 20_000 }).toContain('Agreements signed');
    await context.close();
  });
});
