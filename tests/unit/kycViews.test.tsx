// The KYC step's PEP dialog (views/pages/KycStepView.tsx; customer-information §4.7, §9): its help lists as long
// as the market's (Finland's longer public list; family members and close associates as Directive (EU) 2015/849
// art. 3(10)–(11) defines them, 3 and 2 items everywhere), in every locale, its primary action posting the pep screen (the answer
// back to no) and its other way out the manual form with exit=PEP.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { supportedLocales } from '../../shared/i18n.ts';
import { pepDialog } from '../../views/pages/KycStepView.tsx';
import { Dialog } from '../../views/components/Dialog.tsx';

const i18n = createI18n(loadCatalogues());
const options = (market: CountryCode) => ({
  action: '/onboarding/customer-information/p-1/step',
  fields: { step: 'KYC_STEP', screen: 'pep' },
  market,
  manualFormBase: 'https://forms.example.com/additional-information',
});

describe('PEP dialog', () => {
  it.each<[CountryCode, number[]]>([
    ['FI', [10, 3, 2]],
    ['SE', [8, 3, 2]],
    ['NO', [8, 3, 2]],
    ['DK', [8, 3, 2]],
  ])('%s: help lists of %o items, each a text of its own in every locale', (market, counts) => {
    for (const locale of supportedLocales) {
      const t = i18n.translator(locale);
      const details = pepDialog(t, options(market)).details!;
      expect(details.sections.map((s) => s.items.length)).toEqual(counts);
      const texts = [details.summary, details.note!, ...details.sections.flatMap((s) => [s.title, ...s.items])];
      // A missing text would show its key.
      for (const text of texts) expect(text).not.toMatch(/^complianceDialog\./);
      expect(new Set(texts).size).toBe(texts.length);
    }
  });

  it('as its own screen: the primary action posts the pep screen, the other way out is the manual form with exit=PEP', () => {
    const html = renderToStaticMarkup(<Dialog {...pepDialog(i18n.translator('en'), options('SE'))} />);
    expect(html).toContain('<input type="hidden" name="screen" value="pep"/>');
    expect(html).toContain('I am not a politically exposed person</button>');
    expect(html).toContain('href="https://forms.example.com/additional-information/identified?exit=PEP"');
    expect(html).toContain('<summary>Who counts as a politically exposed person?</summary>');
  });
});
