// The legacy form's account error (customer-information §4.2, §5 "Account picker") is reachable: the summary's
// link lands on a box that can take focus, and the fieldset is described by the error. In Denmark
// the first box is the mandatory depot (DEP_DK), disabled, so the link once led nowhere, and the error text stood
// in the fieldset without being tied to it.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { LegacyFormStep, type LegacyAccountRow, type LegacyFormViewProps } from '../../views/pages/LegacyFormStepView.tsx';

const row = (account: string, mandatory: boolean): LegacyAccountRow => ({
  account,
  label: account,
  mandatory,
  ticked: mandatory,
  alias: { id: `legacy-alias-${account}`, name: `alias_${account}`, label: `Name of ${account}`, value: '' },
});

const props = (rows: LegacyAccountRow[], error?: string): LegacyFormViewProps => ({
  action: '/x',
  fields: { step: 'EXISTING_STEP', screen: 'form' },
  texts: Object.fromEntries(
    [
      'title',
      'intro',
      'accounts',
      'accountsLegend',
      'aliasesTitle',
      'aliasesHint',
      'person',
      'contact',
      'kyc',
      'kycIntro',
      'risk',
      'sign',
      'errorSummary',
      'chooseOption',
    ].map((k) => [k, k]),
  ) as LegacyFormViewProps['texts'],
  errors: error ? [['legacy-accounts', error]] : [],
  accounts: { rows, ...(error ? { error } : {}) },
  nationalId: { label: 'National id', value: '', hint: '', minorLink: { label: 'Minor', href: '/m' } },
  text: [],
  kyc: [],
  risk: { id: 'legacy-investmentRisk', name: 'investmentRisk', legend: 'Risk', control: 'radios', choices: [{ value: 'yes', label: 'Yes' }], chosen: [] },
  dialogs: [],
});

/** The element the summary's link to #id lands on, as its opening tag. */
const target = (html: string, id: string) => new RegExp(`<(input|fieldset|select)\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0] ?? '';

describe('the legacy form’s account error', () => {
  it.each([
    ['DK: the mandatory depot first', [row('DEP_DK', true), row('DSK_DK', false)], 'DSK_DK'],
    ['SE: the mandatory depot second', [row('ISK_SE', false), row('DEP_SE', true)], 'ISK_SE'],
    ['NO: nothing locked', [row('ASK_NO', false), row('DEP_NO', false)], 'ASK_NO'],
  ])('%s: the summary links to the first box that can take focus', (_, rows, first) => {
    const html = renderToStaticMarkup(<LegacyFormStep {...props(rows, 'Choose an account')} />);
    expect(html).toContain('<a href="#legacy-accounts">Choose an account</a>');
    const box = target(html, 'legacy-accounts');
    expect(box).toMatch(new RegExp(`value="${first}"`));
    expect(box).not.toMatch(/\bdisabled\b/);
  });

  it('the fieldset is described by the error, and only while there is one', () => {
    const rows = [row('DEP_DK', true), row('DSK_DK', false)];
    const withError = renderToStaticMarkup(<LegacyFormStep {...props(rows, 'Choose an account')} />);
    expect(withError).toMatch(/<fieldset[^>]*aria-describedby="legacy-accounts-error"[^>]*><legend>accountsLegend<\/legend><p id="legacy-accounts-error"/);
    const without = renderToStaticMarkup(<LegacyFormStep {...props(rows)} />);
    expect(without).not.toContain('legacy-accounts-error');
  });
});
