// The PEP dialog's help text (customer-information §4.7 "Sensitive-answer dialogs", §9 "PEP cessation …
// Politically-exposed lists"): who counts as a politically exposed person, as lists whose length depends on the market.
//
// Public functions: §9 gives 10 items for Finland and 8 for the other markets; items 1–8 are a complete list on
// their own.
//
// Family members and close associates: the same in every market, because the definitions come from the EU
// anti-money-laundering directive, Directive (EU) 2015/849 art. 3(10) "family members" and art. 3(11) "persons known
// to be close associates", which applies in Sweden, Denmark and Finland, and in Norway through the EEA Agreement
// (hvitvaskingsloven, LOV-2018-06-01-23, § 2 bokstav g "nært familiemedlem" and h "kjent medarbeider").
// One item per point of the directive, in its order:
//   family.1 = art. 3(10)(a) the spouse or a person considered equivalent to a spouse,
//   family.2 = art. 3(10)(b) the children and their spouses or persons considered equivalent,
//   family.3 = art. 3(10)(c) the parents;
//   coworkers.1 = art. 3(11)(a) joint beneficial ownership of a legal entity or arrangement, or other close business
//                 relations, with a PEP (hvitvaskingsloven § 2 h nos. 1 and 2 in one item),
//   coworkers.2 = art. 3(11)(b) sole beneficial ownership of a legal entity or arrangement set up for a PEP's
//                 de facto benefit (§ 2 h no. 3).
// That is 3 and 2 items, which are also §9's counts for Finland. The texts use each language version's wording of
// art. 3(10)–(11) (en: English; sv-SE, sv-FI: Swedish, sv-FI with Finland's term "verklig förmånstagare" of lag
// 444/2017 for "verklig huvudman"; da-DK: Danish; fi-FI: Finnish) and, for nb-NO, the wording of hvitvaskingsloven § 2 g–h.
//
// Keys (locales/*.json), all under complianceDialog.PEP.help.:
//   title, public.title, public.1 … public.N, family.title, family.1 … family.3, coworkers.title,
//   coworkers.1 … coworkers.2, cessation (18 months after leaving the function, §9). Pure.
import type { CountryCode } from './contracts/brokerageContract.ts';

export interface PepHelpItems {
  public: number;
  family: number;
  coworkers: number;
}

/** Directive (EU) 2015/849 art. 3(10) points (a)–(c) and art. 3(11) points (a)–(b): the same in every market. */
const familyMembers = 3;
const closeAssociates = 2;

/** How many items of each PEP help list the market shows (customer-information §9). */
export function pepHelpItems(market: CountryCode): PepHelpItems {
  return { public: market === 'FI' ? 10 : 8, family: familyMembers, coworkers: closeAssociates };
}

const prefix = 'complianceDialog.PEP.help';

/** Every message key the market's PEP help uses, in display order. */
export function pepHelpKeys(market: CountryCode): string[] {
  const counts = pepHelpItems(market);
  const items = (list: keyof PepHelpItems) => Array.from({ length: counts[list] }, (_, i) => `${prefix}.${list}.${i + 1}`);
  return [
    `${prefix}.title`,
    `${prefix}.public.title`,
    ...items('public'),
    `${prefix}.family.title`,
    ...items('family'),
    `${prefix}.coworkers.title`,
    ...items('coworkers'),
    `${prefix}.cessation`,
  ];
}
