// Account picker rules (customer-information.md §3 table and §4.2). Pure; used by the server to render
// the picker, to validate a posted choice, and by tests.
import type { AccountTypeWithCountry, CountryCode } from './contracts/brokerageContract.ts';

export interface AccountTypeEntry {
  accountTypeWithCountry: AccountTypeWithCountry;
  selected: boolean;
  sortOrder: number;
  mandatory: boolean;
  exclusive: boolean;
  popular: boolean;
}

type Row = Omit<AccountTypeEntry, 'selected'> & { defaultSelected: boolean };

const table: Record<CountryCode, Row[]> = {
  SE: [
    { accountTypeWithCountry: 'ISK_SE', defaultSelected: true, popular: true, mandatory: false, exclusive: false, sortOrder: 1 },
    { accountTypeWithCountry: 'DEP_SE', defaultSelected: true, popular: false, mandatory: true, exclusive: false, sortOrder: 2 },
  ],
  NO: [
    { accountTypeWithCountry: 'ASK_NO', defaultSelected: true, popular: true, mandatory: false, exclusive: false, sortOrder: 1 },
    { accountTypeWithCountry: 'DEP_NO', defaultSelected: false, popular: false, mandatory: false, exclusive: false, sortOrder: 2 },
    // EPK is offered in Norway (customer-information §3) but is not in the defaults table; it follows the DEP-or-ASK rule.
    { accountTypeWithCountry: 'EPK_NO', defaultSelected: false, popular: false, mandatory: false, exclusive: false, sortOrder: 3 },
  ],
  FI: [
    { accountTypeWithCountry: 'ESA_FI', defaultSelected: false, popular: true, mandatory: false, exclusive: true, sortOrder: 1 },
    { accountTypeWithCountry: 'DEP_FI', defaultSelected: true, popular: false, mandatory: true, exclusive: false, sortOrder: 2 },
  ],
  DK: [
    { accountTypeWithCountry: 'DEP_DK', defaultSelected: true, popular: false, mandatory: true, exclusive: false, sortOrder: 1 },
    { accountTypeWithCountry: 'DSK_DK', defaultSelected: false, popular: true, mandatory: false, exclusive: true, sortOrder: 2 },
  ],
};

/** The picker's cards for a country, in sort order, with the default ticks. */
export function defaultAccounts(country: CountryCode): AccountTypeEntry[] {
  return table[country].map(({ defaultSelected, ...row }) => ({ ...row, selected: defaultSelected })).sort((a, b) => a.sortOrder - b.sortOrder);
}

/**
 * The accounts ticked when the picker first shows: the market's defaults, plus the Norwegian pension account when the
 * entry asked for it (identification-routing-creation §2 Onboarding query `epk=true`; our reading of a parameter the
 * spec only lists: a link from an EPK page opens the journey with EPK chosen). EPK only where it is offered and
 * selectable (customer-information §4.2: while DEP or ASK is ticked). In the Danish campaign DSK is ticked too
 * (customer-information §4.2 "DSK default depends on the campaign"; its question and confirmation still decide).
 */
export function initialAccounts(country: CountryCode, entry: { epk?: boolean; campaign?: string } = {}): AccountTypeWithCountry[] {
  const offered = defaultAccounts(country);
  const campaignDsk = isDanishCampaign(country, entry.campaign);
  const ticked = offered.filter((a) => a.selected || (campaignDsk && a.accountTypeWithCountry === 'DSK_DK')).map((a) => a.accountTypeWithCountry);
  const epk = offered.find((a) => accountCode(a.accountTypeWithCountry) === 'EPK');
  if (!entry.epk || !epk || ticked.includes(epk.accountTypeWithCountry) || !epkSelectable(ticked)) return ticked;
  return offered.map((a) => a.accountTypeWithCountry).filter((c) => c === epk.accountTypeWithCountry || ticked.includes(c));
}

/** The account code without its country suffix: DEP_SE → DEP. */
export function accountCode(account: AccountTypeWithCountry): string {
  return account.split('_')[0]!;
}

export type AccountPickerError = 'mustChooseOne' | 'notOffered';

/**
 * Normalises a posted choice: mandatory accounts are always included (their box is locked) and EPK is
 * cleared while neither DEP nor ASK is ticked (customer-information §4.2). Answers the accounts to submit and any error.
 */
export function resolveAccountChoice(
  country: CountryCode,
  posted: readonly string[],
): { accounts: AccountTypeWithCountry[]; error: AccountPickerError | null } {
  const offered = defaultAccounts(country);
  const offeredCodes = new Set<string>(offered.map((a) => a.accountTypeWithCountry));
  if (posted.some((p) => !offeredCodes.has(p))) return { accounts: [], error: 'notOffered' };
  const chosen = new Set<string>(posted);
  for (const a of offered) if (a.mandatory) chosen.add(a.accountTypeWithCountry);
  const has = (code: string) => [...chosen].some((c) => accountCode(c as AccountTypeWithCountry) === code);
  if (!has('DEP') && !has('ASK')) {
    for (const c of [...chosen]) if (accountCode(c as AccountTypeWithCountry) === 'EPK') chosen.delete(c);
  }
  const accounts = offered.map((a) => a.accountTypeWithCountry).filter((c) => chosen.has(c));
  // Norway has no mandatory account, but DEP or ASK must be ticked.
  if (country === 'NO' && !has('DEP') && !has('ASK')) return { accounts, error: 'mustChooseOne' };
  if (accounts.length === 0) return { accounts, error: 'mustChooseOne' };
  return { accounts, error: null };
}

/** customer-information §9 precontractual document (agreement bundle) id of each account. */
export const precontractualDocumentIds: Record<AccountTypeWithCountry, string> = {
  DEP_SE: 'ATYID_108',
  DEP_NO: 'ATYID_108',
  DEP_DK: 'ATYID_108',
  DEP_FI: 'ATYID_108',
  ISK_SE: 'ATYID_125',
  ASK_NO: 'ATYID_135',
  DSK_DK: 'ATYID_142',
  ESA_FI: 'ATYID_139',
  EPK_NO: 'ATYID_119',
};

/** customer-information §4.2: EPK can be ticked only while DEP or ASK is ticked. */
export function epkSelectable(ticked: readonly string[]): boolean {
  return ticked.some((c) => c.startsWith('DEP_') || c.startsWith('ASK_'));
}

export interface PickerInput {
  posted: readonly string[];
  /** Exclusive accounts whose confirmation box was ticked (now or earlier). */
  confirmed: readonly string[];
  /** The Danish ASK campaign is on (journey.campaign 'ask'). */
  campaign: boolean;
  /** Campaign question 'existing equity savings account at another bank'. */
  dskExisting?: 'yes' | 'no';
}

export type PickerDecision =
  | { kind: 'error'; accounts: AccountTypeWithCountry[]; error: AccountPickerError | 'dskQuestionRequired' }
  /** DSK in the campaign answered yes: DSK is unticked and locked, the warning shows. */
  | { kind: 'dskLocked'; accounts: AccountTypeWithCountry[] }
  /** An exclusive account is ticked but not confirmed: show its confirmation dialog. */
  | { kind: 'confirm'; accounts: AccountTypeWithCountry[]; account: AccountTypeWithCountry }
  | { kind: 'submit'; accounts: AccountTypeWithCountry[] };

/** Every customer-information §4.2/§5 picker rule applied to one post, in the order the page asks them. */
export function decidePicker(country: CountryCode, input: PickerInput): PickerDecision {
  const choice = resolveAccountChoice(country, input.posted);
  if (choice.error) return { kind: 'error', accounts: choice.accounts, error: choice.error };
  let accounts = choice.accounts;
  if (country === 'DK' && input.campaign && accounts.includes('DSK_DK')) {
    if (input.dskExisting === undefined) return { kind: 'error', accounts, error: 'dskQuestionRequired' };
    if (input.dskExisting === 'yes') {
      accounts = accounts.filter((a) => a !== 'DSK_DK');
      return { kind: 'dskLocked', accounts };
    }
  }
  const exclusive = defaultAccounts(country)
    .filter((a) => a.exclusive)
    .map((a) => a.accountTypeWithCountry);
  const unconfirmed = accounts.find((a) => exclusive.includes(a) && !input.confirmed.includes(a));
  if (unconfirmed) return { kind: 'confirm', accounts, account: unconfirmed };
  return { kind: 'submit', accounts };
}

/** The Danish campaign (customer-information §4.2) is the entry campaign 'ask' (identification-routing-creation §3 campaign types). */
export function isDanishCampaign(country: CountryCode, campaign: string | undefined): boolean {
  return country === 'DK' && campaign === 'ask';
}
