import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { creationViewSchema, parseCreationView, type CreationView } from '../../shared/creationView.ts';
import { creationOutcomes } from '../../shared/creationOutcome.ts';
import { routes } from '../../shared/routes.ts';
import { creationView } from '../../server/stages/customerCreation/creationPage.tsx';
import type { AppDeps } from '../../server/deps.ts';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { CreationStatusMarkup } from '../../views/components/CreationStatus.tsx';

const pending: CreationView = {
  outcome: 'queued',
  title: 'Creating your account',
  body: 'This takes a moment.',
  tone: 'pending',
  spinner: true,
  action: null,
  redirectTo: null,
};
const retry: CreationView = {
  ...pending,
  outcome: 'maxPollingTries',
  tone: 'error',
  spinner: false,
  action: { kind: 'post', url: '/onboarding/customer-creation/p/retry', label: 'Try again' },
};
const done: CreationView = {
  ...pending,
  outcome: 'done',
  tone: 'success',
  spinner: false,
  action: { kind: 'link', url: '/onboarding/customer-creation/p/continue', label: 'Continue' },
  redirectTo: '/onboarding/customer-creation/p/continue',
};

const valid: [string, unknown, CreationView][] = [
  ['pending, no action', pending, pending],
  ['error with a post action', retry, retry],
  ['success with a link and a redirect', done, done],
  ['action and redirectTo absent read as null', { ...pending, action: undefined, redirectTo: undefined }, pending],
  ['unknown fields are dropped', { ...pending, extra: 1 }, pending],
];

const invalid: [string, string][] = [
  ['not JSON', 'creation'],
  ['JSON null', 'null'],
  ['an array', '[]'],
  ['a string', '"queued"'],
  ['title missing', JSON.stringify({ ...pending, title: undefined })],
  ['body not a string', JSON.stringify({ ...pending, body: 1 })],
  ['unknown tone', JSON.stringify({ ...pending, tone: 'info' })],
  ['unknown outcome', JSON.stringify({ ...pending, outcome: 'somethingElse' })],
  ['spinner a string', JSON.stringify({ ...pending, spinner: 'true' })],
  ['action of unknown kind', JSON.stringify({ ...pending, action: { kind: 'button', url: '/x', label: 'X' } })],
  ['action without url', JSON.stringify({ ...pending, action: { kind: 'link', label: 'X' } })],
  ['action label not a string', JSON.stringify({ ...pending, action: { kind: 'post', url: '/x', label: null } })],
  ['redirectTo a number', JSON.stringify({ ...pending, redirectTo: 3 })],
];

describe('creation view contract (shared/creationView.ts)', () => {
  it.each(valid)('accepts %s', (_name, event, view) => {
    expect(parseCreationView(JSON.stringify(event))).toEqual(view);
  });

  it.each(invalid)('ignores an event with %s', (_name, data) => {
    expect(parseCreationView(data)).toBeNull();
  });

  // The server's builder speaks the contract for every outcome: what it sends is what the island reads back.
  const MANUAL_SUPPORT_URL = 'https://forms.example.com/additional-information';
  const APP_URL = 'https://app.example.com/open';
  const deps = { i18n: { translator: () => (key: string) => key }, config: { MANUAL_SUPPORT_URL, APP_URL } } as unknown as AppDeps;
  const req = { session: { journey: { locale: 'en', prospectId: 'p/1', jwt: 'identified' } }, headers: {} } as unknown as Request;
  it.each(creationOutcomes)("the server's view for %s parses back unchanged", (outcome) => {
    const view = creationView({ outcome, prospectId: 'p/1', attempt: 1, runId: '1', at: '2026-01-01T00:00:00.000Z' }, req, deps);
    expect(creationViewSchema.safeParse(view).success).toBe(true);
    expect(parseCreationView(JSON.stringify(view))).toEqual(view);
    // "Start using the app" on done only (identification-routing-creation §2).
    expect(view.appLink?.url).toBe(outcome === 'done' ? APP_URL : undefined);
    for (const url of [view.action?.url, view.redirectTo].filter(Boolean)) {
      // Try again posts the run it retries (runId 1); nightly downtime moves on to its page.
      expect([
        routes.customerCreationContinue('p/1'),
        `${routes.customerCreationRetry('p/1')}?run=1`,
        routes.nightlyDowntimeStatus({ justCompletedSignup: true, webview: false }),
      ]).toContain(url);
    }
    // Every button posts (Continue hands the login over); done stays until the person chooses (no redirectTo).
    expect(view.action?.kind ?? 'post').toBe('post');
    if (outcome === 'done') expect(view.redirectTo).toBeNull();
  });

  // identification-routing-creation §8: the error screens' "proceed with the application via the external form" links to it.
  it.each(['unspecifiedApiResponseError', 'maxPollingTries'] as const)('the %s screen links to the external form', (outcome) => {
    const view = creationView({ outcome, prospectId: 'p/1', attempt: 1, runId: '1', at: '2026-01-01T00:00:00.000Z' }, req, deps);
    expect(view.formLink).toEqual({ url: MANUAL_SUPPORT_URL, label: 'creation.error.externalForm' });
    const html = renderToString(createElement(CreationStatusMarkup, { view }));
    expect(html).toContain(`<a href="${MANUAL_SUPPORT_URL}">creation.error.externalForm</a>`);
  });

  // The application waits for the bank: OnboardingTriggerCase opens its case and the status page.
  it('the creationPaused screen links to the status page through OnboardingTriggerCase for the prospect', () => {
    const view = creationView({ outcome: 'creationPaused', prospectId: 'p/1', attempt: 1, runId: '1', at: '2026-01-01T00:00:00.000Z' }, req, deps);
    expect(view.formLink).toEqual({ url: routes.triggerCase('p/1'), label: 'caseStatus.link' });
    expect(routes.triggerCase('p/1')).toBe('/onboarding/trigger-case/p%2F1');
  });
});
