// The PEP dialog's help lists per market (shared/pepHelp.ts, customer-information §4.7, §9) and their texts in every locale.
import { describe, expect, it } from 'vitest';
import { loadCatalogues } from '../../server/i18n.ts';
import type { CountryCode } from '../../shared/contracts/brokerage.ts';
import { supportedLocales } from '../../shared/i18n.ts';
import { pepHelpItems, pepHelpKeys, type PepHelpItems } from '../../shared/pepHelp.ts';

const catalogues = loadCatalogues();
const markets: CountryCode[] = ['SE', 'NO', 'DK', 'FI'];

describe('pepHelpItems (customer-information §9: Finland has longer lists)', () => {
  it.each<[CountryCode, PepHelpItems]>([
    ['FI', { public: 10, family: 3, coworkers: 2 }],
    ['SE', { public: 8, family: 2, coworkers: 1 }],
    ['NO', { public: 8, family: 2, coworkers: 1 }],
    ['DK', { public: 8, family: 2, coworkers: 1 }],
  ])('%s → %o', (market, counts) => {
    expect(pepHelpItems(market)).toEqual(counts);
  });

  it('hands out a copy, so a caller cannot change another market', () => {
    pepHelpItems('SE').public = 1;
    expect(pepHelpItems('SE').public).toBe(8);
  });
});

describe('pepHelpKeys', () => {
  it('lists the titles, the numbered items and the cessation text in display order', () => {
    expect(pepHelpKeys('SE')).toEqual([
      'complianceDialog.PEP.help.title',
      'complianceDialog.PEP.help.public.title',
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `complianceDialog.PEP.help.public.${n}`),
      'complianceDialog.PEP.help.family.title',
      'complianceDialog.PEP.help.family.1',
      'complianceDialog.PEP.help.family.2',
      'complianceDialog.PEP.help.coworkers.title',
      'complianceDialog.PEP.help.coworkers.1',
      'complianceDialog.PEP.help.cessation',
    ]);
  });

  it('gives Finland every key of the other markets plus its own', () => {
    const fi = pepHelpKeys('FI');
    expect(fi).toEqual(expect.arrayContaining(pepHelpKeys('DK')));
    expect(fi.filter((k) => !pepHelpKeys('DK').includes(k))).toEqual([
      'complianceDialog.PEP.help.public.9',
      'complianceDialog.PEP.help.public.10',
      'complianceDialog.PEP.help.family.3',
      'complianceDialog.PEP.help.coworkers.2',
    ]);
  });

  it('uses every complianceDialog.PEP.help key of en.json', () => {
    const used = new Set(markets.flatMap(pepHelpKeys));
    expect(Object.keys(catalogues.en).filter((k) => k.startsWith('complianceDialog.PEP.help.') && !used.has(k))).toEqual([]);
  });
});

describe.each(supportedLocales)('locales/%s.json', (locale) => {
  it.each(markets)('has a non-empty text for every PEP help key of %s', (market) => {
    const catalogue = catalogues[locale];
    expect(pepHelpKeys(market).filter((k) => !catalogue[k]?.trim())).toEqual([]);
  });
});
