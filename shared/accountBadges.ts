// Short badges of the brokerage's further account codes (customer-information §3: "Further account codes map to short
// badges (for example KF, IPS, PP, SPK, IKZ)"): an account the journey does not open is named by its badge beside its
// title where it is listed (the business and minor cards). Pure; the six accounts the journey opens have no badge.

/** Badge per further account code, and per card type of shared/accountTypeLists.ts that is one of them. */
const badges: Readonly<Record<string, string>> = {
  KF: 'KF',
  IPS: 'IPS',
  PP: 'PP',
  SPK: 'SPK',
  IKZ: 'IKZ',
  // The business savings account card is the brokerage's SPK (sparkonto / sparekonto).
  SAVINGS: 'SPK',
};

/** The short badge of an account code, with or without its country suffix (KF_SE → KF); null for any other code. */
export function accountBadge(code: string): string | null {
  const bare = /^([A-Z]+(?:_[A-Z]+)*?)(?:_(?:SE|NO|DK|FI))?$/.exec(code)?.[1];
  return (bare && badges[bare]) ?? null;
}
