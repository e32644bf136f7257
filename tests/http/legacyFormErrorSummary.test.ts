// The legacy single form over HTTP in each of the six locales: the names come from the eID, every line of an empty
// submit's error summary names its question and links to it, and the Nu HTML Checker finds nothing on the form, its
// errors (the locked account box on both), a sensitive answer's dialog and check your answers.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { legacyFormBody, postLegacy } from '../support/legacyForm.ts';
import { screenOf } from '../support/customerInformation.ts';
import { nuCheck } from '../support/htmlCheckers.ts';
import { PRIVATE_QUESTIONS } from '../../sandbox/kyc.ts';
import { supportedLocales as locales, type Locale } from '../../shared/i18n.ts';
import en from '../../locales/en.json' with { type: 'json' };
import svSE from '../../locales/sv-SE.json' with { type: 'json' };
import svFI from '../../locales/sv-FI.json' with { type: 'json' };
import nbNO from '../../locales/nb-NO.json' with { type: 'json' };
import daDK from '../../locales/da-DK.json' with { type: 'json' };
import fiFI from '../../locales/fi-FI.json' with { type: 'json' };

const texts: Record<Locale, Record<string, string>> = { en, 'sv-SE': svSE, 'sv-FI': svFI, 'nb-NO': nbNO, 'da-DK': daDK, 'fi-FI': fiFI };

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

/** React's escaping of text undone, for the few entities it writes. */
const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The error summary's lines: each link's target and text. */
function summaryOf(html: string): Array<[string, string]> {
  const summary = /<div class="error-summary"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  return [...summary.matchAll(/<a href="#([^"]+)">([^<]*)<\/a>/g)].map((m) => [m[1]!, unescape(m[2]!)]);
}

const inputValue = (html: string, id: string) => unescape(new RegExp(`<input id="${id}"[^>]*? value="([^"]*)"`).exec(html)?.[1] ?? '');

/** The message each question's line must carry: the question named (GOV.UK "Select …"), per locale. */
function expectedLine(t: Record<string, string>, id: string): string {
  const field = id.replace(/^legacy-/, '');
  const kyc = /^kyc-(\d+)$/.exec(field);
  if (kyc) return t[`legacy.error.unanswered.${PRIVATE_QUESTIONS.find((q) => q.id === Number(kyc[1]))!.tag}`]!;
  if (field === 'firstName' || field === 'lastName') return t[`legacy.error.required.${field}`]!;
  if (field === 'phoneNumber') return t['contactInformation.error.phone']!;
  if (field === 'email') return t['contactInformation.error.email']!;
  return t[`legacy.error.unanswered.${field}`]!;
}

describe('the legacy form in six locales', () => {
  it('prefills the eID names; an empty submit lists every question by name, linked; no Nu error on any screen', async () => {
    const documents: Array<{ screen: string; html: string }> = [];
    for (const locale of locales) {
      const t = texts[locale];
      const agent = request.agent(stack.webUrl);
      agent.jar.setCookie(`locale=${locale}`, new URL(stack.webUrl).hostname, '/');
      const { page: entry, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'legacyFlow');
      const page = entry.split('?')[0]!;
      const form = (await agent.get(entry).expect(200)).text;
      expect(form).toContain(`lang="${locale}"`);
      const [givenName, ...surname] = persona.name.split(' ');
      expect(inputValue(form, 'legacy-firstName'), locale).toBe(givenName);
      expect(inputValue(form, 'legacy-lastName'), locale).toBe(surname.join(' '));
      documents.push({ screen: `${locale} form`, html: form });

      // Nothing typed and nothing chosen: only what the form posts by itself (its hidden fields, the locked account).
      const refused = (await postLegacy(agent, page, 'step=EXISTING_STEP&screen=form&accounts=DEP_SE').expect(400)).text;
      documents.push({ screen: `${locale} errors`, html: refused });
      const lines = summaryOf(refused);
      const ids = lines.map(([id]) => id);
      expect(ids, locale).toEqual(
        expect.arrayContaining([
          'legacy-firstName',
          'legacy-lastName',
          'legacy-citizenship',
          'legacy-investmentRisk',
          ...PRIVATE_QUESTIONS.map((q) => `legacy-kyc-${q.id}`),
        ]),
      );
      for (const [id, message] of lines) {
        expect(message, `${locale} ${id}`).toBe(expectedLine(t, id));
        // Each line links to a field of the form, whose own message is the same.
        expect(refused, `${locale} ${id}`).toContain(`id="${id}"`);
        expect(unescape(new RegExp(`<p id="${id}-error"[^>]*>([^<]*)</p>`).exec(refused)?.[1] ?? ''), `${locale} ${id}`).toBe(message);
      }
      // No two lines alike: none is a bare "Choose an alternative".
      expect(new Set(lines.map(([, m]) => m)).size, locale).toBe(lines.length);

      // The form's other screens for the Nu checker: a sensitive answer's dialog, then check your answers.
      await postLegacy(agent, page, legacyFormBody(persona, { taxLiability: 'usa' })).expect(303);
      const dialog = (await agent.get(page).expect(200)).text;
      expect(screenOf(dialog), locale).toEqual(['EXISTING_STEP', 'crsDialog']);
      documents.push({ screen: `${locale} dialog`, html: dialog });
      await postLegacy(agent, page, 'step=EXISTING_STEP&screen=crsDialog&intent=confirm').expect(303);
      await postLegacy(agent, page, legacyFormBody(persona)).expect(303);
      const review = (await agent.get(page).expect(200)).text;
      expect(screenOf(review), locale).toEqual(['EXISTING_STEP', 'review']);
      documents.push({ screen: `${locale} review`, html: review });
    }
    expect(await nuCheck(documents)).toEqual([]);
  }, 120_000);
});
