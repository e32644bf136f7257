// The PEP dialog's help lists per market (shared/pepHelp.ts, customer-information §4.7, §9) and their texts in every
// locale: family members and close associates as Directive (EU) 2015/849 art. 3(10)–(11) defines them (for Norway
// hvitvaskingsloven § 2 g–h), in every market.
import { describe, expect, it } from 'vitest';
import { loadCatalogues } from '../../server/catalogues.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { supportedLocales, type Locale } from '../../shared/i18n.ts';
import { pepHelpItems, pepHelpKeys, type PepHelpItems } from '../../shared/pepHelp.ts';

const catalogues = loadCatalogues();
const markets: CountryCode[] = ['SE', 'NO', 'DK', 'FI'];

describe('pepHelpItems (customer-information §9; Directive (EU) 2015/849 art. 3(10)–(11))', () => {
  it.each<[CountryCode, PepHelpItems]>([
    ['FI', { public: 10, family: 3, coworkers: 2 }],
    ['SE', { public: 8, family: 3, coworkers: 2 }],
    ['NO', { public: 8, family: 3, coworkers: 2 }],
    ['DK', { public: 8, family: 3, coworkers: 2 }],
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
      'complianceDialog.PEP.help.family.3',
      'complianceDialog.PEP.help.coworkers.title',
      'complianceDialog.PEP.help.coworkers.1',
      'complianceDialog.PEP.help.coworkers.2',
      'complianceDialog.PEP.help.cessation',
    ]);
  });

  it('gives Finland every key of the other markets plus its two extra public functions', () => {
    const fi = pepHelpKeys('FI');
    expect(fi).toEqual(expect.arrayContaining(pepHelpKeys('DK')));
    expect(fi.filter((k) => !pepHelpKeys('DK').includes(k))).toEqual(['complianceDialog.PEP.help.public.9', 'complianceDialog.PEP.help.public.10']);
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

// The family and close-associate lists in each locale: the title, then one item per point of the definition, in the
// wording of the directive's language version (English; Swedish for sv-SE and sv-FI, where sv-FI says "verklig
// förmånstagare" as Finland's own law in Swedish does, lag 444/2017; Danish; Finnish) and, for nb-NO, of
// hvitvaskingsloven § 2 g–h.
const definitions: Record<Locale, { family: string[]; coworkers: string[] }> = {
  en: {
    family: [
      'Family members of such a person:',
      'The spouse, or a person considered to be equivalent to a spouse',
      'The children and their spouses, or persons considered to be equivalent to a spouse',
      'The parents',
    ],
    coworkers: [
      'Persons known to be close associates of such a person:',
      'Natural persons who are known to have joint beneficial ownership of legal entities or legal arrangements, or any other close business relations, with a politically exposed person',
      'Natural persons who have sole beneficial ownership of a legal entity or legal arrangement which is known to have been set up for the de facto benefit of a politically exposed person',
    ],
  },
  'sv-SE': {
    family: [
      'Familjemedlemmar till en sådan person:',
      'Make eller en person som likställs med make',
      'Barn och deras makar eller personer som likställs med makar',
      'Föräldrar',
    ],
    coworkers: [
      'Personer som är kända som nära medarbetare till en sådan person:',
      'Fysiska personer som är kända för att gemensamt med en person i politiskt utsatt ställning vara verkliga huvudmän för juridiska enheter eller juridiska konstruktioner eller ha andra nära affärsförbindelser med en person i politiskt utsatt ställning',
      'Fysiska personer som är ensamma verkliga huvudmän för en juridisk enhet eller juridisk konstruktion som är känd för att i praktiken ha upprättats till förmån för en person i politiskt utsatt ställning',
    ],
  },
  'sv-FI': {
    family: [
      'Familjemedlemmar till en sådan person:',
      'Make eller en person som likställs med make',
      'Barn och deras makar eller personer som likställs med makar',
      'Föräldrar',
    ],
    coworkers: [
      'Personer som är kända som nära medarbetare till en sådan person:',
      'Fysiska personer som är kända för att gemensamt med en person i politiskt utsatt ställning vara verkliga förmånstagare i juridiska enheter eller juridiska konstruktioner eller ha andra nära affärsförbindelser med en person i politiskt utsatt ställning',
      'Fysiska personer som är ensamma verkliga förmånstagare i en juridisk enhet eller juridisk konstruktion som är känd för att i praktiken ha upprättats till förmån för en person i politiskt utsatt ställning',
    ],
  },
  'nb-NO': {
    family: [
      'Nære familiemedlemmer til en slik person:',
      'Ektefelle, registrert partner eller samboer',
      'Barn, samt barns ektefelle, registrert partner eller samboer',
      'Foreldre',
    ],
    coworkers: [
      'Kjente medarbeidere til en slik person:',
      'Fysisk person som er kjent for å være reell rettighetshaver i juridisk person, sammenslutning eller utenlandsk juridisk arrangement i fellesskap med politisk eksponert person, eller for å ha nær forretningsforbindelse til politisk eksponert person',
      'Fysisk person som er kjent for å være eneste reelle rettighetshaver i juridisk person, sammenslutning eller utenlandsk juridisk arrangement som i realiteten er etablert for å begunstige politisk eksponert person',
    ],
  },
  'da-DK': {
    family: [
      'Familiemedlemmer til en sådan person:',
      'Ægtefællen eller en person, der betragtes som ligestillet med en ægtefælle',
      'Børnene og deres ægtefæller eller personer, der betragtes som ligestillede med en ægtefælle',
      'Forældrene',
    ],
    coworkers: [
      'Personer, der er kendt som nære samarbejdspartnere til en sådan person:',
      'Fysiske personer, der vides at have fælles reelt ejerskab af juridiske enheder eller juridiske arrangementer eller andre nære forretningsforbindelser med en politisk eksponeret person',
      'Fysiske personer, der alene har det reelle ejerskab af en juridisk enhed eller et juridisk arrangement, som vides at være oprettet til de facto fordel for en politisk eksponeret person',
    ],
  },
  'fi-FI': {
    family: [
      'Tällaisen henkilön perheenjäsenet:',
      'Puoliso tai puolisoon rinnastettava henkilö',
      'Lapset ja heidän puolisonsa tai puolisoon rinnastettavat henkilöt',
      'Vanhemmat',
    ],
    coworkers: [
      'Henkilöt, joiden tiedetään olevan tällaisen henkilön läheisiä yhtiökumppaneita:',
      'Luonnolliset henkilöt, joiden tiedetään olevan yhdessä poliittisesti vaikutusvaltaisen henkilön kanssa oikeushenkilöiden tai oikeudellisten järjestelyjen tosiasiallisia edunsaajia tai joilla tiedetään olevan muita läheisiä liikesuhteita poliittisesti vaikutusvaltaisen henkilön kanssa',
      'Luonnolliset henkilöt, jotka ovat yksin sellaisen oikeushenkilön tai oikeudellisen järjestelyn tosiasiallisia edunsaajia, jonka tiedetään perustetun tosiasiallisesti poliittisesti vaikutusvaltaisen henkilön hyväksi',
    ],
  },
};

describe.each(supportedLocales)('%s: family members and close associates (Directive (EU) 2015/849 art. 3(10)–(11))', (locale) => {
  it.each(markets)('%s shows the title and every point of both definitions, in the definition’s wording', (market) => {
    const keys = pepHelpKeys(market);
    const textsOf = (list: 'family' | 'coworkers') => keys.filter((k) => k.startsWith(`complianceDialog.PEP.help.${list}.`)).map((k) => catalogues[locale][k]);
    expect(textsOf('family')).toEqual(definitions[locale].family);
    expect(textsOf('coworkers')).toEqual(definitions[locale].coworkers);
  });
});
