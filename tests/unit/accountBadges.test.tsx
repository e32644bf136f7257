// The short badges of the further account codes (customer-information §3), and the business card list showing them.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { accountBadge } from '../../shared/accountBadges.ts';
import { accountTypeList } from '../../shared/accountTypeLists.ts';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { AccountTypeListPage } from '../../views/pages/CustomerTypePageView.tsx';

describe('accountBadge', () => {
  it.each(['KF', 'IPS', 'PP', 'SPK', 'IKZ'])('%s is its own badge, with or without a country suffix', (code) => {
    expect(accountBadge(code)).toBe(code);
    expect(accountBadge(`${code}_SE`)).toBe(code);
    expect(accountBadge(`${code}_NO`)).toBe(code);
  });
  it('the business savings account card is the SPK', () => expect(accountBadge('SAVINGS')).toBe('SPK'));
  it.each(['DEP', 'ISK_SE', 'ASK_NO', 'EPK_NO', 'ESA_FI', 'DSK_DK', 'OCCUPATIONAL_PENSION', 'KFX', 'kf', '', 'KF_DE'])('%j has none', (code) => {
    expect(accountBadge(code)).toBeNull();
  });
});

describe('the business cards show the badges', () => {
  it('Sweden: endowment insurance KF and the savings account SPK, nothing on the depot', () => {
    const t = createI18n(loadCatalogues()).translator('sv-SE');
    const cards = accountTypeList('corporate', 'SE').map((c) => ({ ...c, href: `https://forms.example.com/${c.type}` }));
    const html = renderToStaticMarkup(<AccountTypeListPage t={t} applicant="corporate" cards={cards} accountTypesUrl="/a" depositGuaranteeUrl="/d" />);
    const badges = [...html.matchAll(/<span class="badge">([^<]+)<\/span>/g)].map((m) => m[1]);
    expect(badges).toEqual(['KF', 'SPK']);
    expect(html).toMatch(/Kapitalförsäkring <span class="badge">KF<\/span>/i);
  });
});
