// The PEP dialog's help text (customer-information §4.7, §9 "Politically-exposed lists"): who counts as a politically
// exposed person, as lists whose length depends on the market: public functions (10 items in Finland, 8 elsewhere), and
// family members (3) and close associates (2), the same everywhere as the EU anti-money-laundering directive defines them.
// Pure. The sources of each item and the locale keys: docs/decisions.md "The PEP dialog's help lists".
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
