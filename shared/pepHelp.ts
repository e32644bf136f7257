// The PEP dialog's help text (customer-information §4.7 "Sensitive-answer dialogs", §9 "PEP cessation …
// Politically-exposed lists"): who counts as a politically exposed person, as lists whose length depends on the market.
//
// §9 says Finland has longer lists — 10 public functions, 3 kinds of family member, 2 kinds of close associate —
// than the other markets, which have 8 public functions. The spec is silent on the other markets' family and
// co-worker counts; 2 and 1 are our choice (fewer than Finland's, and the first items of its lists).
//
// Keys (locales/*.json), all under complianceDialog.PEP.help.:
//   title, public.title, public.1 … public.N, family.title, family.1 … family.N, coworkers.title,
//   coworkers.1 … coworkers.N, cessation (18 months after leaving the function, §9).
// Finland: public.1–10, family.1–3, coworkers.1–2; SE, NO, DK: public.1–8, family.1–2, coworkers.1.
// Items 1–8 of the public list are a complete list on their own. Pure.
import type { CountryCode } from './contracts/brokerage.ts';

export interface PepHelpItems {
  public: number;
  family: number;
  coworkers: number;
}

const finland: PepHelpItems = { public: 10, family: 3, coworkers: 2 };
const otherMarkets: PepHelpItems = { public: 8, family: 2, coworkers: 1 };

/** How many items of each PEP help list the market shows (customer-information §9). */
export function pepHelpItems(market: CountryCode): PepHelpItems {
  return market === 'FI' ? { ...finland } : { ...otherMarkets };
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
