// The contact information step (customer-information.md §2.3, §5 "Contact", §8) in real Chromium, with
// JavaScript (checks on blur, the suggestion filled in place, submit blocked while invalid) and without
// (server checks, the suggestion as a button, the upstream's 400 marking a field). Personas go straight
// to the step (sandbox scenarios contactInformation and contactEmailRejected). The form is an island that hydrates the
// server's markup (views/components/ContactInformationForm.tsx) and takes what was typed before it hydrated.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browser, identifyAs, PHONE, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectAccessible } from '../support/journey.ts';
import { expectIslandsHydrated, reloadWithScriptHeld } from '../support/clientBuild.ts';

useE2eStack();

const DESKTOP = { width: 1280, height: 800 };

async function openContactStep(page: Page, scenario: string): Promise<void> {
  await identifyAs(page, scenario);
  await expect.poll(() => page.locator('h1').textContent()).toBe('Contact information');
}

const phone = (page: Page) => page.getByLabel('Mobile phone number');
const email = (page: Page) => page.getByLabel('Email');
const main = (page: Page) => page.locator('main').textContent();

describe('contact information step', () => {
  it.each([
    ['360x740', PHONE],
    ['desktop', DESKTOP],
  ])('with JavaScript (%s): registered address, checks on blur, the suggestion fills the field, submit blocked while invalid', async (_size, viewport) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await openContactStep(page, 'contactInformation');

    // The registered address from the population register, with where to correct it.
    const card = page.getByRole('region', { name: 'Registered address' });
    expect(await card.textContent()).toContain('Drottninggatan 12');
    expect(await card.textContent()).toContain('111 51');
    expect(await card.textContent()).toContain('Stockholm');
    expect(await card.getByRole('link', { name: 'Correct your address at Skatteverket' }).getAttribute('href')).toMatch(/^https:\/\/www\.skatteverket\.se\//);
    // The active market preselects its prefix.
    expect(await page.getByLabel('Country code').inputValue()).toBe('46');
    await expectAccessible(page, 'contact information');

    // On blur: a wrong number, then a full international number without its plus.
    await phone(page).fill('123');
    await email(page).focus();
    await expect.poll(() => main(page)).toContain('You need to enter a valid phone number');
    await phone(page).fill('46701234567');
    await email(page).focus();
    await expect.poll(() => main(page)).toContain('Please include a plus sign');
    expect(await phone(page).getAttribute('aria-invalid')).toBe('true');

    await email(page).fill('test@');
    await phone(page).focus();
    await expect.poll(() => main(page)).toContain('You need to enter a valid email');
    await expectAccessible(page, 'contact information, errors on blur');
    // The e-mail error clears as soon as the user types.
    await email(page).pressSequentially('x');
    await expect.poll(() => main(page)).not.toContain('You need to enter a valid email');

    // The suggestion appears once the value has a dot; clicking it replaces the value, in place.
    await email(page).fill('test@gmial');
    expect(await main(page)).not.toContain('Did you mean');
    await email(page).fill('test@gmial.com');
    await expect.poll(() => main(page)).toContain('Did you mean test@gmail.com?');
    await expectAccessible(page, 'contact information, suggestion');
    const url = page.url();
    await page.getByRole('button', { name: 'test@gmail.com' }).click();
    expect(await email(page).inputValue()).toBe('test@gmail.com');
    expect(await main(page)).not.toContain('Did you mean');
    expect(page.url()).toBe(url);

    // Submit is blocked while the phone is invalid; the field gets the focus.
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('contact-phone');
    expect(await main(page)).toContain('Please include a plus sign');
    expect(await page.locator('h1').textContent()).toBe('Contact information');

    await phone(page).fill('070 123 45 67');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Continue', exact: true }).click()]);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Almost there! Just need to sign with your eID.');

    // Back shows the answers again (kept in the session): the phone as stored once accepted (E.164), formatted for the person.
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Back' }).click()]);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Contact information');
    expect(await phone(page).inputValue()).toBe('070-123 45 67');
    expect(await email(page).inputValue()).toBe('test@gmail.com');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('hydrated: only its islands, marked when hydrated, what was typed before it hydrated counts', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await openContactStep(page, 'contactInformation');
    await expectIslandsHydrated(page, ['contactInformation', 'dialog']);

    // The page again, its script held back until the person has typed.
    const release = await reloadWithScriptHeld(page, 'contactInformation');
    await phone(page).fill('46701234567');
    await email(page).fill('test@gmial.com');
    expect(await page.evaluate(() => performance.getEntriesByName('island:contactInformation').length)).toBe(0);
    release();
    await expect.poll(() => page.evaluate(() => performance.getEntriesByName('island:contactInformation').length)).toBe(1);
    // The typed values are kept and judged: the suggestion for the typed e-mail, the typed number refused on Continue.
    await expect.poll(() => main(page)).toContain('Did you mean test@gmail.com?');
    expect(await phone(page).inputValue()).toBe('46701234567');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => main(page)).toContain('Please include a plus sign');
    expect(await page.getByRole('alert').getByRole('link', { name: 'Please include a plus sign' }).count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('contact-phone');
    await expectAccessible(page, 'contact information, typed before it hydrated');

    // A post under way disables Continue; a return to the page from the back/forward cache enables it again (the post
    // is held here, as a page left for the next one is kept in that cache).
    await phone(page).fill('070 123 45 67');
    await page.locator('form.contact-form').evaluate((f) => f.addEventListener('submit', (e) => e.preventDefault()));
    const proceed = page.getByRole('button', { name: 'Continue', exact: true });
    await proceed.click();
    await expect.poll(() => proceed.isDisabled()).toBe(true);
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
    await expect.poll(() => proceed.isDisabled()).toBe(false);
    expect(await proceed.getAttribute('aria-busy')).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('without JavaScript: no address card, server checks with input kept, the suggestion as a button, the upstream 400 marks the e-mail', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const page = await context.newPage();
    await openContactStep(page, 'contactEmailRejected');
    const stepUrl = page.url();

    // No registered address for this persona: no card.
    expect(await page.getByRole('region', { name: 'Registered address' }).count()).toBe(0);
    expect(await main(page)).not.toContain('population register');

    await phone(page).fill('46701234567');
    await email(page).fill('test@gmial');
    const invalid = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Continue', exact: true }).click(),
    ]);
    expect(invalid[0].status()).toBe(400);
    await page.waitForLoadState();
    expect(await main(page)).toContain('Please include a plus sign');
    expect(await main(page)).toContain('You need to enter a valid email');
    expect(await phone(page).inputValue()).toBe('46701234567');
    expect(await email(page).inputValue()).toBe('test@gmial');

    // Odd posts never fail the page: an unknown prefix falls back, an over-long field counts as empty.
    const odd = await context.request.post(`${stepUrl}/step`, {
      headers: { 'sec-fetch-site': 'same-origin' },
      form: { step: 'CONTACT_INFORMATION_STEP', screen: 'contact', phonePrefix: '99', phone: '070 123 45 67', email: 'x'.repeat(400) },
      maxRedirects: 0,
    });
    expect(odd.status()).toBe(400);
    const oddHtml = await odd.text();
    expect(oddHtml).toContain('<p id="contact-email-error" class="field__error">You need to enter a valid email</p>');
    expect(oddHtml).not.toContain('id="contact-phone-error"');
    expect(oddHtml).toContain('value="070 123 45 67"');

    // A valid address close to a common one: shown once, as a button that posts it.
    await phone(page).fill('+46 70 123 45 67');
    await email(page).fill('test@gmial.com');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Continue', exact: true }).click()]);
    expect(await main(page)).toContain('Did you mean test@gmail.com?');
    expect(await main(page)).not.toContain('You need to enter');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'test@gmail.com' }).click()]);
    expect(await email(page).inputValue()).toBe('test@gmail.com');
    expect(await phone(page).inputValue()).toBe('+46 70 123 45 67');

    // The brokerage refuses the e-mail (400 naming the field): the field is marked, the input kept.
    const refused = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Continue', exact: true }).click(),
    ]);
    expect(refused[0].status()).toBe(400);
    await page.waitForLoadState();
    expect(await main(page)).toContain('We could not accept this email address. Check it and try again.');
    expect(await email(page).getAttribute('aria-invalid')).toBe('true');
    expect(await phone(page).getAttribute('aria-invalid')).toBeNull();
    expect(await email(page).inputValue()).toBe('test@gmail.com');
    expect(await page.locator('h1').textContent()).toBe('Contact information');

    // axe needs JavaScript: the same server-rendered states, posted the same way (form.submit() skips the
    // island's own checks) in a JS-enabled browser with this session.
    const withJs = await browser.newContext({ viewport: PHONE });
    await withJs.addCookies(await context.cookies());
    const jsPage = await withJs.newPage();
    const states: [string, string, string, string][] = [
      ['server errors', '46701234567', 'test@gmial', 'Please include a plus sign'],
      ['server suggestion', '+46 70 123 45 67', 'test@hotmial.se', 'Did you mean test@hotmail.se?'],
      ['upstream refusal', '+46 70 123 45 67', 'test@example.com', 'We could not accept this email address.'],
    ];
    for (const [name, phoneValue, emailValue, shown] of states) {
      await jsPage.goto(stepUrl);
      await phone(jsPage).fill(phoneValue);
      await email(jsPage).fill(emailValue);
      // A suggestion the island showed counts as seen: post as a JS-free browser would on first submit.
      await jsPage.locator('input[name="suggestionShownFor"]').evaluate((el: HTMLInputElement) => (el.value = ''));
      await Promise.all([jsPage.waitForEvent('load'), jsPage.locator('form.contact-form').evaluate((f: HTMLFormElement) => f.submit())]);
      expect(await main(jsPage)).toContain(shown);
      await expectAccessible(jsPage, `contact information, ${name}`);
    }
    await withJs.close();
    await context.close();
  });
});
