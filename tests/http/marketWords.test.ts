// What a person sees differs by market: each market's own support number, the FAQ items that apply
// there (EPK only in Norway), and the precontractual documents titled as the content service serves them in the
// page's language, never with an internal ATYID id. The 'accounts' persona of each market lands on the account
// picker; SE identifies with BankID, NO, DK and FI at the OIDC broker.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { accountPickerOverHttp, postStep } from '../support/journey.ts';
import { atMilestoneThreeOverHttp } from '../support/customerInformation.ts';
import { loadConfig } from '../../server/config.ts';
import { loadCatalogues } from '../../server/catalogues.ts';
import { defaultAccounts, accountCode } from '../../shared/accountPicker.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import type { Locale } from '../../shared/i18n.ts';

const catalogues = loadCatalogues();
/** One support number per market, as an operator configures them (SUPPORT_PHONE_<market>). */
const supportPhones: Record<CountryCode, string> = { SE: '+46 8 120 000 01', NO: '+47 21 00 00 02', DK: '+45 33 00 00 03', FI: '+358 9 4000 0004' };

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack(Object.fromEntries(Object.entries(supportPhones).map(([c, phone]) => [`SUPPORT_PHONE_${c}`, phone])));
});
afterAll(async () => stack?.stop());

/** The 'accounts' persona of the market, identified in `lang`; answers a GET of the customer-information page. */
const accountPickerIn = (country: CountryCode, lang: string) => accountPickerOverHttp(stack, country, `lang=${lang}`);

const unescape = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** The FAQ panel's questions, as shown. */
const faqQuestions = (html: string) => [...html.matchAll(/<summary>([^<]*)<\/summary>/g)].map((m) => unescape(m[1]!));
/** The Read more drawers' document links (target=_blank), as shown. */
const documentTitles = (html: string) =>
  [...html.matchAll(/<a href="[^"]*" target="_blank" rel="noopener noreferrer">([^<]*)<\/a>/g)].map((m) => unescape(m[1]!));

const walks: [CountryCode, string, Locale][] = [
  ['SE', 'sv', 'sv-SE'],
  ['SE', 'en', 'en'],
  ['NO', 'nb', 'nb-NO'],
  ['DK', 'da', 'da-DK'],
  ['FI', 'fi', 'fi-FI'],
  ['FI', 'sv', 'sv-FI'],
];

describe.each(walks)('%s in %s', (country, lang, locale) => {
  let html: string;
  beforeAll(async () => {
    html = await accountPickerIn(country, lang);
    expect(html).toContain(`<html lang="${locale}"`);
  });
  const messages = catalogues[locale];

  it("shows the market's own support number, no other market's", () => {
    expect(html).toContain(supportPhones[country]);
    for (const other of (['SE', 'NO', 'DK', 'FI'] as const).filter((c) => c !== country)) expect(html).not.toContain(supportPhones[other]);
  });

  it('offers the EPK pension FAQ only in Norway', () => {
    const questions = faqQuestions(html);
    expect(questions).toContain(messages['faq.DEP.question']);
    expect(questions.includes(messages['faq.EPK.question']!)).toBe(country === 'NO');
  });

  it("titles the precontractual documents in the page's language, without internal ids", () => {
    // The drawer's content may be in the page more than once (sheet and in place); each title counts once.
    const titles = [...new Set(documentTitles(html))];
    const offered = defaultAccounts(country).map((a) => accountCode(a.accountTypeWithCountry));
    // Two documents per account card, each naming the account as this language does.
    expect(titles).toHaveLength(offered.length * 2);
    for (const title of titles) expect(title).not.toMatch(/ATYID/);
    for (const code of offered) {
      const name = messages[`account.${code}`]!;
      expect(
        titles.filter((t) => t.endsWith(name)),
        `${code}: ${titles.join(' | ')}`,
      ).toHaveLength(2);
    }
  });
});

// identification-routing-creation §8: "… or proceed with the application via the external form" links to that form.
describe('the creation error screen', () => {
  it('links "the external form" to the manual application form (MANUAL_SUPPORT_URL)', async () => {
    const agent = request.agent(stack.webUrl);
    await agent.get('/onboarding?lang=en');
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'creationFailed');
    const toSigning = await postStep(agent, page, 'step=MILESTONE_THREE_STEP&screen=milestone').expect(303);
    const signed = await request(stack.sandboxUrl)
      .post(`${new URL(toSigning.headers.location as string).pathname}/sign`)
      .expect(303);
    const creation = new URL(signed.headers.location as string).pathname;
    const en = catalogues.en;
    // Without JavaScript the page refreshes itself until the outcome is in; so does this test.
    const html = await vi.waitFor(
      async () => {
        const text = unescape((await agent.get(creation).expect(200)).text);
        if (!text.includes(en['creation.error.title']!)) throw new Error('no outcome yet');
        return text;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(html).toContain(en['creation.error.text']);
    expect(html).toContain(`<a href="${loadConfig({}).MANUAL_SUPPORT_URL}">${en['creation.error.externalForm']}</a>`);
  });
});
