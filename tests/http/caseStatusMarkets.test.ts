// The application status page in every market over HTTP (identification-routing-creation §2 "Application status page",
// §4 "Status page", §5): the open-case persona of SE, NO, DK and FI, identified with the market's eID on its own host,
// sees the page in each of the market's languages and in English, answers every open task as a browser without
// JavaScript posts it (refused first, what was typed kept) and sees In progress with the tasks sent. Every screen's
// HTML goes to the Nu checker; the browser walks (tests/e2e/caseStatus.test.ts) keep what needs a browser.
import { describe, expect, it } from 'vitest';
import { identifyInMarketOverHttp, type MarketAgent } from '../support/journey.ts';
import { samplePdf, samplePng, sampleJpeg } from '../support/files.ts';
import { expectOpenCaseAnswered, postTask, taskOf, stack, useCaseStatusStack } from '../support/caseStatus.ts';
import { HtmlChecks } from '../support/htmlCheckers.ts';
import { decode, h1 } from '../support/serverHttp.ts';
import { loadCatalogues } from '../../server/catalogues.ts';
import type { Locale } from '../../shared/i18n.ts';

useCaseStatusStack();

const catalogues = loadCatalogues();
const markets = { SE: ['sv-SE'], NO: ['nb-NO'], DK: ['da-DK'], FI: ['fi-FI', 'sv-FI'] } as const satisfies Record<string, readonly Locale[]>;

/** Step two's badge (Pending or In progress) in the page's language. */
const stepTwo = (page: string) => /data-step-two[^>]*>[\s\S]*?<span class="badge">([^<]*)<\/span>/.exec(page)?.[1];
const forms = (page: string) => page.match(/name="taskId"/g)?.length ?? 0;

describe('the application status page in every market, over HTTP', () => {
  for (const [country, locales] of Object.entries(markets)) {
    it(`${country}: in ${locales.join(' and ')} and English, Pending; every task answered without JavaScript; In progress (Nu checker)`, async () => {
      const checks = new HtmlChecks();
      const collected = (screen: string, html: string) => {
        checks.collect(`${country} ${screen}`, html);
        return decode(html);
      };
      // The market's own languages, then English for the walk: each chosen on entry (the lang query), identified anew.
      let walk: MarketAgent | undefined;
      for (const locale of [...locales, 'en' as const]) {
        walk = await identifyInMarketOverHttp(stack, country, 'openCase', `lang=${locale}`);
        expect(walk.routed).toBe('/onboarding/case-status');
        const page = collected(`pending in ${locale}`, (await walk.get(walk.routed).expect(200)).text);
        const t = catalogues[locale];
        expect(page).toContain(`<html lang="${locale}"`);
        expect(h1(page)).toBe(t['caseStatus.title']);
        expect(stepTwo(page)).toBe(t['caseStatus.pending']);
        expect(forms(page)).toBe(3);
      }
      const { persona, agent, host, get } = walk!;
      const view = async (path: string, screen: string) => collected(screen, (await get(path).expect(200)).text);

      // The residency form: refused without an address, what was typed kept; then the address and a proof per kind.
      const residency = await taskOf(stack.sandboxUrl, persona, 'RESIDENCY');
      const refused = (await postTask(agent, { ...residency, address: '', zipCode: '4050-262', city: 'Porto' }, [], host).expect(422)).text;
      expect(collected('with errors', refused)).toContain('Enter your address');
      expect(refused).toContain('value="Porto"');
      const files = [
        { field: 'file_housingContract', bytes: samplePdf(), name: 'lease.pdf' },
        { field: 'file_bankStatement', bytes: samplePng(), name: 'statement.png' },
      ];
      const sent = '/onboarding/case-status?sent=1#case-sent';
      await postTask(agent, { ...residency, address: 'Rua das Flores 12', zipCode: '4050-262', city: 'Porto' }, files, host)
        .expect(303)
        .expect('location', sent);
      const afterResidency = await view('/onboarding/case-status?sent=1', 'residency sent');
      expect(afterResidency).toContain('Thank you. We have received what you sent and will continue reviewing your application.');
      expect(forms(afterResidency)).toBe(2);

      // Tax liability: two files at once and a comment; tax residence: one file.
      const liability = await taskOf(stack.sandboxUrl, persona, 'TAX_LIABILITY');
      await postTask(
        agent,
        { ...liability, comment: 'My tax certificate, both pages' },
        [
          { field: 'files', bytes: samplePdf(), name: 'page-1.pdf' },
          { field: 'files', bytes: sampleJpeg(), name: 'page-2.jpg' },
        ],
        host,
      )
        .expect(303)
        .expect('location', sent);
      const residence = await taskOf(stack.sandboxUrl, persona, 'TAX_RESIDENCE');
      await postTask(agent, residence, [{ field: 'files', bytes: samplePdf(), name: 'residence.pdf' }], host)
        .expect(303)
        .expect('location', sent);

      const done = await view('/onboarding/case-status?sent=1', 'sent');
      expect(stepTwo(done)).toBe('In progress');
      expect(forms(done)).toBe(0);
      const sentTitles = [...done.matchAll(/<li[^>]*><strong>([^<]*)<\/strong>/g)].map((m) => m[1]);
      expect(sentTitles).toEqual(['Your address abroad', 'Tax liability', 'Tax residence']);

      await expectOpenCaseAnswered(stack.sandboxUrl, persona.nationalId);
      expect(await checks.errors()).toEqual({ nu: [], codeSniffer: [] });
    });
  }
});
