// Every customer-creation outcome's screen and both feedback pages (identification-routing-creation §2 "Customer
// creation screens", §4 screen choice and the continue button, §8 texts), rendered as the server renders them (the
// route's page options inside the page shell) in all six locales: title, text, buttons with their targets, links (FAQ,
// external form, status page), the support banner and the progress bar's step. Every text is the locale's own string
// (none falls back to English); the English one is the specification's.
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlMessageFormat } from 'intl-messageformat';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { loadConfig } from '../../server/config.ts';
import type { AppDeps } from '../../server/deps.ts';
import { newJourney, type Journey } from '../../server/journey.ts';
import { Layout } from '../../views/Layout.tsx';
import { continueTarget, creationPageOptions, creationView } from '../../server/stages/customerCreation/creationPage.tsx';
import { feedbackPageOptions } from '../../server/stages/results/resultPages.tsx';
import { creationOutcomes, outcomeTraits, type CreationOutcome } from '../../shared/creationOutcome.ts';
import { supportedLocales, type Locale } from '../../shared/i18n.ts';
import { routes } from '../../shared/routes.ts';
import type { PageOptions } from '../../server/pages.ts';
import { decode } from '../support/serverHttp.ts';
import { accessOpening } from '../../shared/bankingDays.ts';
import { formatTime } from '../../shared/localeFormats.ts';
import { shownOutcome } from '../../bench/soakJourney.ts';

const catalogues = loadCatalogues();
const URLS = {
  FAQ_URL: 'https://bank.example/faq',
  HOME_URL: 'https://bank.example/',
  APP_URL: 'https://app.bank.example/open',
  MANUAL_SUPPORT_URL: 'https://forms.bank.example/manual',
};
const config = loadConfig(URLS);
const deps = { config, i18n: createI18n(catalogues), content: { backgroundUrl: () => undefined } } as unknown as AppDeps;

const PROSPECT = 'p/1';
/** A market per locale (English on the Swedish site, Swedish also on the Finnish one): the support banner shows its number. */
const markets: Record<Locale, Journey['country']> = { en: 'SE', 'sv-SE': 'SE', 'sv-FI': 'FI', 'nb-NO': 'NO', 'da-DK': 'DK', 'fi-FI': 'FI' };
const countryOf = (locale: Locale) => markets[locale];

function requestIn(locale: Locale, webview = false): Request {
  const journey: Journey = { ...newJourney(countryOf(locale)), locale, webview, jwt: 'identified', prospectId: PROSPECT, creationRun: 1 };
  return { session: { journey }, headers: {}, query: {} } as unknown as Request;
}

/** The locale's own message: a key the locale's catalogue lacks fails here, rather than reading as English. */
function own(locale: Locale, key: string, values?: Record<string, string>): string {
  const source = catalogues[locale][key];
  if (source === undefined) throw new Error(`${locale} has no ${key}`);
  return String(new IntlMessageFormat(source, locale).format(values));
}

interface Shown {
  title: string;
  /** The paragraph right after the title. */
  text: string;
  /** Buttons in page order: a link's href, or a form post's action. */
  buttons: Array<{ label: string; target: string; post: boolean }>;
  /** Plain links (not buttons) in page order. */
  links: Array<{ label: string; url: string }>;
  banners: string[];
  spinner: boolean;
  progress: { step: number; statuses: string[]; said: string[] };
}

/** What the person sees in the page's main content and the progress bar (an island's data-props left out). */
function shownOn(options: PageOptions, locale: Locale): Shown {
  const t = deps.i18n.translator(locale);
  const shell = { t, supportPhone: '', faqUrl: '', homeUrl: '', closeUrl: null };
  const html = renderToStaticMarkup(
    <Layout shell={shell} progress={options.progress} progressFailed={options.progressFailed}>
      {options.body}
    </Layout>,
  ).replace(/ data-props="[^"]*"/g, '');
  const main = /<main id="main" class="content">([\s\S]*)<\/main>/.exec(html)![1]!;
  const buttons = [
    ...main.matchAll(
      /<a class="btn[^"]*" href="([^"]*)">([^<]*)<\/a>|<form [^>]*action="([^"]*)"[^>]*>(?:(?!<\/form>)[\s\S])*?<button[^>]*>([^<]*)<\/button>/g,
    ),
  ].map((m) =>
    m[1] !== undefined ? { label: decode(m[2]!), target: decode(m[1]), post: false } : { label: decode(m[4]!), target: decode(m[3]!), post: true },
  );
  const items = [
    ...html.matchAll(
      /<li class="progress__step progress__step--(\w+)"( aria-current="step")?>[\s\S]*?<span class="visually-hidden"> \(([^)]*)\)<\/span><\/li>/g,
    ),
  ];
  return {
    title: decode(/<h1[^>]*>([^<]*)<\/h1>/.exec(main)?.[1] ?? ''),
    text: decode(/<h1[^>]*>[^<]*<\/h1>\s*<p[^>]*>([^<]*)<\/p>/.exec(main)?.[1] ?? ''),
    buttons,
    links: [...main.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => ({ url: decode(m[1]!), label: decode(m[2]!) })),
    banners: [...main.matchAll(/<div class="banner[^"]*"[^>]*>([\s\S]*?)<\/div>|<p class="banner[^"]*"[^>]*>([\s\S]*?)<\/p>/g)].map((m) =>
      decode(
        (m[1] ?? m[2]!)
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      ),
    ),
    spinner: main.includes('class="spinner'),
    progress: {
      step: items.findIndex((m) => m[2] !== undefined) + 1 || (items.every((m) => m[1] === 'done') ? 4 : 0),
      statuses: items.map((m) => m[1]!),
      said: items.map((m) => decode(m[3]!)),
    },
  };
}

const continueUrl = routes.customerCreationContinue(PROSPECT);
const retryUrl = `${routes.customerCreationRetry(PROSPECT)}?run=1`;

interface Expected {
  title: string;
  text: string;
  /** English as the specification words it (identification-routing-creation §8). */
  english: [title: string, text: string];
  buttons: Array<{ label: string; target: string; post?: boolean }>;
  /** Links besides the FAQ, which every outcome has. */
  links: Array<{ label: string; url: string }>;
  step: 3 | 4;
  spinner?: boolean;
  maintenanceBanner?: boolean;
}

// Continue is a post (it hands the login over to the bank's site: server/stages/customerCreation/loginHandoff.ts).
const CONTINUE = { label: 'creation.button.continue', target: continueUrl, post: true };
const RETRY = { label: 'creation.button.tryAgain', target: retryUrl, post: true };
const EXTERNAL_FORM = { label: 'creation.error.externalForm', url: URLS.MANUAL_SUPPORT_URL };
const ERROR_TEXT: Expected['english'] = [
  'Something went wrong',
  'Please try again at a later time. If the problem persists, please contact customer support or proceed with the application via the external form.',
];

const outcomes: Record<CreationOutcome, Expected> = {
  queued: {
    title: 'creation.polling.title',
    text: 'creation.polling.text',
    english: ['Please wait...', 'Your account is being created, do not close the browser.'],
    buttons: [],
    links: [],
    step: 3,
    spinner: true,
  },
  done: {
    title: 'creation.done.title',
    text: 'creation.done.text',
    english: ['Agreements signed', 'The agreement is final only after documents for identification are received and the customer is approved.'],
    buttons: [CONTINUE, { label: 'creation.button.startUsingApp', target: URLS.APP_URL }],
    links: [],
    step: 4,
  },
  customerExists: {
    title: 'creation.alreadyAccount.title',
    text: 'creation.customerExists.text',
    english: ['You already have an account', 'Congratulations, you are already a customer. Previous login credentials still apply.'],
    buttons: [{ label: 'creation.button.login', target: continueUrl, post: true }],
    links: [],
    step: 4,
  },
  accountLimit: {
    title: 'creation.accountLimit.title',
    text: 'creation.accountLimit.text',
    english: ['One or more account could not be created', 'The maximum number of accounts of the requested type has been reached.'],
    buttons: [CONTINUE],
    links: [],
    step: 3,
  },
  creationPaused: {
    title: 'creation.creationPaused.title',
    text: 'creation.creationPaused.text',
    english: ['Maintenance status', 'Your information has been saved and your account is being created.'],
    buttons: [CONTINUE],
    links: [{ label: 'caseStatus.link', url: routes.triggerCase(PROSPECT) }],
    step: 4,
    maintenanceBanner: true,
  },
  nightly_downtime: {
    title: 'creation.nightly_downtime.title',
    text: 'creation.nightly_downtime.text',
    english: ['Your account has been created', 'The account has been created, and login is possible from 6:00 AM the following banking day.'],
    buttons: [CONTINUE],
    links: [],
    step: 4,
  },
  unspecifiedApiResponseError: {
    title: 'creation.error.title',
    text: 'creation.error.text',
    english: ERROR_TEXT,
    buttons: [RETRY],
    links: [EXTERNAL_FORM],
    step: 3,
  },
  maxPollingTries: { title: 'creation.error.title', text: 'creation.error.text', english: ERROR_TEXT, buttons: [RETRY], links: [EXTERNAL_FORM], step: 3 },
};

const state = (outcome: CreationOutcome) => ({ outcome, prospectId: PROSPECT, attempt: 3, runId: '1', at: '2026-01-01T00:00:00.000Z' });
const creationScreen = (outcome: CreationOutcome, locale: Locale, webview = false) => {
  const req = requestIn(locale, webview);
  return shownOn(creationPageOptions(creationView(state(outcome), req, deps), PROSPECT, req, deps), locale);
};
const statusesAt = (step: number) => [1, 2, 3].map((n) => (n < step ? 'done' : n === step ? 'current' : 'upcoming'));

describe('customer-creation screens, every outcome in every locale', () => {
  for (const locale of supportedLocales) {
    const phone = config.supportPhones[countryOf(locale)];
    it.each(creationOutcomes)(`${locale}: %s`, (outcome) => {
      const expected = outcomes[outcome];
      const shown = creationScreen(outcome, locale);
      expect(shown.title).toBe(own(locale, expected.title));
      // The opening time written as the nightly-downtime page writes it for the market (resultPages.tsx openingTexts).
      const opening = accessOpening(new Date('2026-11-24T01:30:00Z'), countryOf(locale));
      expect(shown.text).toBe(own(locale, expected.text, { time: formatTime(locale, opening.at, opening.timeZone) }));
      if (locale === 'en') expect([shown.title, shown.text]).toEqual(expected.english);
      expect(shown.buttons).toEqual(expected.buttons.map((b) => ({ label: own(locale, b.label), target: b.target, post: b.post ?? false })));
      // The FAQ link on every outcome, after the screen's own links (the external form, the status page).
      expect(shown.links).toEqual([
        ...expected.links.map((l) => ({ label: own(locale, l.label), url: l.url })),
        { label: own(locale, 'creation.faq'), url: URLS.FAQ_URL },
      ]);
      // The support-number banner on every outcome (the market's number), the maintenance banner on creationPaused.
      expect(shown.banners).toEqual([
        ...(expected.maintenanceBanner ? [`${own(locale, 'creation.creationPaused.title')} ${own(locale, 'creation.creationPaused.banner')}`] : []),
        own(locale, 'creation.support', { phone }),
      ]);
      expect(shown.spinner).toBe(expected.spinner ?? false);
      // Step 4 (every step done) on success, step 3 otherwise.
      expect(shown.progress.step).toBe(expected.step);
      expect(shown.progress.step).toBe(outcomeTraits[outcome].severity === 'success' ? 4 : 3);
      expect(shown.progress.statuses).toEqual(statusesAt(expected.step));
    });

    it(`${locale}: in the app's webview the done screen has Continue and no "Start using the app"`, () => {
      const shown = creationScreen('done', locale, true);
      expect(shown.buttons).toEqual([{ label: own(locale, 'creation.button.continue'), target: continueUrl, post: true }]);
      expect(JSON.stringify(creationView(state('done'), requestIn(locale, true), deps))).not.toContain(URLS.APP_URL);
    });
  }
});

const feedback = {
  cancel: { english: ['Process canceled', 'You aborted the signature process.'], step: 3, statuses: ['done', 'done', 'current'] },
  error: {
    english: ['Something went wrong', 'Please try again. If the error is not resolved, please check the FAQ or call us at +46 8 000 000 00.'],
    step: 2,
    statuses: ['done', 'failed', 'upcoming'],
  },
} as const;

describe('the outcome shown, for machines', () => {
  // `npm run soak` reads a person's outcome off the page (bench/soakJourney.ts): after the screen lost its React props
  // once, it read none, and every journey of a 10-minute soak timed out waiting for one.
  it.each(creationOutcomes)('%s: the page marks it, and the soak reads it', (outcome) => {
    const req = requestIn('en');
    const { body } = creationPageOptions(creationView(state(outcome), req, deps), PROSPECT, req, deps);
    expect(shownOutcome(renderToStaticMarkup(<>{body}</>))).toBe(outcome);
  });
});

describe('the feedback pages in every locale', () => {
  for (const locale of supportedLocales) {
    const phone = config.supportPhones[countryOf(locale)];
    it.each(['cancel', 'error'] as const)(`${locale}: %s`, (variant) => {
      const req = requestIn(locale);
      const shown = shownOn(feedbackPageOptions(variant, req, deps), locale);
      expect(shown.title).toBe(own(locale, `feedback.${variant}.title`));
      expect(shown.text).toBe(own(locale, `feedback.${variant}.text`, { phone }));
      if (locale === 'en') expect([shown.title, shown.text]).toEqual(feedback[variant].english);
      // Go back to the public site's home (the spec's "/"), Try again to Onboarding.
      expect(shown.buttons).toEqual([
        { label: own(locale, 'feedback.goBack'), target: URLS.HOME_URL, post: false },
        { label: own(locale, 'feedback.tryAgain'), target: routes.start, post: false },
      ]);
      expect(shown.progress.step).toBe(feedback[variant].step);
      expect(shown.progress.statuses).toEqual(feedback[variant].statuses);
      // The failed step says so in words, not by its colour alone.
      expect(shown.progress.said).toEqual(feedback[variant].statuses.map((status) => own(locale, 'shell.progress.stepStatus', { status })));
      if (variant === 'error') expect(shown.progress.said[1]).toBe(own(locale, 'shell.progress.stepStatus', { status: 'failed' }));
    });
  }
});

describe('the texts are each locale’s own', () => {
  const keys = [
    ...new Set([
      ...Object.values(outcomes).flatMap((e) => [e.title, e.text, ...e.buttons.map((b) => b.label), ...e.links.map((l) => l.label)]),
      'creation.faq',
      'creation.support',
      'creation.creationPaused.banner',
      'feedback.cancel.title',
      'feedback.cancel.text',
      'feedback.error.title',
      'feedback.error.text',
      'feedback.goBack',
      'feedback.tryAgain',
      'shell.progress.stepStatus',
    ]),
  ];
  it.each(supportedLocales.filter((l) => l !== 'en'))('%s translates every key of these screens (no English fallback)', (locale) => {
    for (const key of keys) {
      expect(catalogues[locale][key], `${locale} ${key}`).toBeDefined();
      expect(catalogues[locale][key], `${locale} ${key}`).not.toBe(catalogues.en[key]);
    }
    expect(own(locale, 'shell.progress.stepStatus', { status: 'failed' })).not.toBe(own(locale, 'shell.progress.stepStatus', { status: 'other' }));
  });
});

// identification-routing-creation §4: the continue button goes to the market's success URL or overview for outcomes
// that allow log-in (clientUrl: tests/unit/continueTarget.test.ts), otherwise to /; nightly downtime to its page; in
// the app's webview to the app's routes.
describe('where Continue leads', () => {
  const overviews = {
    SE: 'https://se.bank.example/overview',
    NO: 'https://no.bank.example/oversikt',
    DK: 'https://dk.bank.example/overblik',
    FI: 'https://fi.bank.example/yleiskatsaus',
  };
  const home = 'https://www.bank.example/';
  const targets = { successUrls: overviews, overviewUrls: overviews, getStartedUrls: overviews, homeUrl: home, bankSiteOrigin: 'https://www.bank.example' };
  const journey = (webview: boolean, country: Journey['country'] = 'NO'): Journey => ({ ...newJourney(country), webview });
  it.each(creationOutcomes.filter((o) => o !== 'queued' && o !== 'nightly_downtime'))('%s', (outcome) => {
    const canLogIn = outcomeTraits[outcome].canLogIn;
    expect(continueTarget(outcome, journey(false), targets).url).toBe(canLogIn ? overviews.NO : home);
    expect(continueTarget(outcome, journey(true), targets).url).toBe(canLogIn ? routes.loginInApp : routes.closeSignupInApp);
  });
  it('nightly_downtime: the downtime page after signup', () => {
    expect(continueTarget('nightly_downtime', journey(false), targets).url).toBe(routes.nightlyDowntimeStatus({ justCompletedSignup: true, webview: false }));
  });
  it('outcomes that allow log-in: done, customerExists, accountLimit only (identification-routing-creation §4)', () => {
    expect(creationOutcomes.filter((o) => outcomeTraits[o].canLogIn)).toEqual(['done', 'customerExists', 'accountLimit']);
  });
});
