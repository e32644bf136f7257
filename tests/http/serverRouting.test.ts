// HTTP tests of the web server: routing after identification, per sandbox persona.
// The stack and helpers: tests/support/serverHttp.ts.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { useServerStack, stack, h1, identifyAndRoute } from '../support/serverHttp.ts';

useServerStack();

describe('routing after identification, per sandbox persona', () => {
  // Spec identification-routing-creation.md §4 "Routing after identification" and §2 error screens.
  const table: Array<{ scenario: string; location: RegExp; title: string; check?: (html: string) => void }> = [
    { scenario: 'onboarding', location: /^\/onboarding\/customer-information\/[0-9a-f-]{36}$/, title: "Let's start your savings journey!" },
    { scenario: 'onboardingIntent', location: /^\/onboarding\/customer-information\/[0-9a-f-]{36}$/, title: "Let's start your savings journey!" },
    {
      scenario: 'login',
      location: /^\/onboarding$/,
      title: 'You already have an account',
      // The close X is hidden on the login error; Continue leads to log-in.
      check: (html) => {
        expect(html).not.toContain('site-header__close');
        // LOGIN_URL's default path, on the bank's site (BANK_SITE_URL: the sandbox here).
        expect(html).toContain(`href="${stack.sandboxUrl}/login-next"`);
      },
    },
    { scenario: 'nightlyDowntimeRouting', location: /^\/onboarding\/nightly-downtime-status$/, title: 'See you tomorrow!' },
    {
      scenario: 'minor',
      location: /^\/onboarding$/,
      title: 'Information for you as a minor',
      // Continue posts customerType=minor to the customer-type form.
      check: (html) => {
        const forms = [...html.matchAll(/<form[^>]*action="\/onboarding\/customer-type"[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!);
        const minor = /<(button|input)\b(?=[^>]*\bname="customerType")(?=[^>]*\bvalue="minor")[^>]*>/;
        expect(forms.some((f) => minor.test(f))).toBe(true);
      },
    },
    {
      scenario: 'manualSupport',
      location: /^\/onboarding$/,
      title: 'You need to provide additional information',
      check: (html) => expect(html).toContain('href="https://forms.example.com/additional-information"'),
    },
    { scenario: 'openCase', location: /^\/onboarding\/case-status$/, title: 'Your application has been received' },
    {
      scenario: 'blocked',
      location: /^\/onboarding$/,
      title: "Your application can't be approved at this moment",
      check: (html) => expect(html).not.toMatch(/<main[\s\S]*class="btn"[\s\S]*<\/main>/),
    },
    { scenario: 'legacyFlow', location: /^\/onboarding\/customer-information\/[0-9a-f-]{36}\?shouldUseLegacyFlow=true$/, title: '' },
  ];

  it.each(table)('$scenario → $location', async ({ scenario, location, title, check }) => {
    const agent = request.agent(stack.webUrl);
    const target = await identifyAndRoute(agent, scenario);
    expect(target).toMatch(location);
    if (scenario === 'legacyFlow') return; // its landing page is covered below
    const page = await agent.get(target).expect(200);
    expect(h1(page.text)).toBe(title);
    check?.(page.text);
    // Routing again does not create a second prospect or change the decision.
    const again = await agent.get('/onboarding/routing').expect(303);
    if (target.startsWith('/onboarding/customer-information/')) expect(again.headers.location).toBe(target);
  });

  // Each identification starts the person's part of the journey afresh: no earlier person's prospect.
  it('a second identification in the same browser is routed for the new person', async () => {
    const agent = request.agent(stack.webUrl);
    const first = await identifyAndRoute(agent, 'onboarding');
    expect(first).toMatch(/^\/onboarding\/customer-information\//);
    // Start over in the same browser (customer type choice) and identify as someone else.
    const second = await identifyAndRoute(agent, 'minor');
    expect(second).toBe('/onboarding');
    expect(h1((await agent.get('/onboarding').expect(200)).text)).toBe('Information for you as a minor');
  });

  // customer-information §2.1: routed with SHOULD_NOT_UPDATE_STATUS, the legacy single form (tests/http/legacyForm.test.ts).
  it('legacyFlow lands on the legacy single form', async () => {
    const agent = request.agent(stack.webUrl);
    const target = await identifyAndRoute(agent, 'legacyFlow');
    const page = await agent.get(target);
    expect(page.status).toBe(200);
    expect(h1(page.text)).toBe('Open your accounts');
    expect(page.text).toContain('data-step="EXISTING_STEP" data-screen="form"');
  });
});
