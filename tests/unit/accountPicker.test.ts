// Account picker rules per country (customer-information.md §3 table, §4.2, §5, §9).
import { describe, expect, it } from 'vitest';
import {
  decidePicker,
  defaultAccounts,
  epkSelectable,
  initialAccounts,
  isDanishCampaign,
  precontractualDocumentIds,
  resolveAccountChoice,
} from '../../shared/accountPicker.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';

describe('defaults (customer-information §3 table)', () => {
  it.each([
    [
      'SE',
      [
        ['ISK_SE', true, false, false, true],
        ['DEP_SE', true, true, false, false],
      ],
    ],
    [
      'NO',
      [
        ['ASK_NO', true, false, false, true],
        ['DEP_NO', false, false, false, false],
        ['EPK_NO', false, false, false, false],
      ],
    ],
    [
      'FI',
      [
        ['ESA_FI', false, false, true, true],
        ['DEP_FI', true, true, false, false],
      ],
    ],
    [
      'DK',
      [
        ['DEP_DK', true, true, false, false],
        ['DSK_DK', false, false, true, true],
      ],
    ],
  ] as const)('%s: account, selected, mandatory, exclusive, popular in sort order', (country, rows) => {
    expect(defaultAccounts(country).map((a) => [a.accountTypeWithCountry, a.selected, a.mandatory, a.exclusive, a.popular])).toEqual(rows);
  });
});

describe('decidePicker', () => {
  const none = { confirmed: [], campaign: false };
  it.each<[string, CountryCode, Parameters<typeof decidePicker>[1], ReturnType<typeof decidePicker>]>([
    ['SE defaults submit', 'SE', { ...none, posted: ['ISK_SE', 'DEP_SE'] }, { kind: 'submit', accounts: ['ISK_SE', 'DEP_SE'] }],
    ['SE mandatory DEP kept when unposted', 'SE', { ...none, posted: ['ISK_SE'] }, { kind: 'submit', accounts: ['ISK_SE', 'DEP_SE'] }],
    ['SE only DEP', 'SE', { ...none, posted: [] }, { kind: 'submit', accounts: ['DEP_SE'] }],
    ['NO neither DEP nor ASK', 'NO', { ...none, posted: [] }, { kind: 'error', accounts: [], error: 'mustChooseOne' }],
    ['NO EPK alone is cleared and still needs DEP or ASK', 'NO', { ...none, posted: ['EPK_NO'] }, { kind: 'error', accounts: [], error: 'mustChooseOne' }],
    ['NO ASK with EPK', 'NO', { ...none, posted: ['ASK_NO', 'EPK_NO'] }, { kind: 'submit', accounts: ['ASK_NO', 'EPK_NO'] }],
    ['NO DEP with EPK', 'NO', { ...none, posted: ['DEP_NO', 'EPK_NO'] }, { kind: 'submit', accounts: ['DEP_NO', 'EPK_NO'] }],
    ['NO all three', 'NO', { ...none, posted: ['DEP_NO', 'ASK_NO', 'EPK_NO'] }, { kind: 'submit', accounts: ['ASK_NO', 'DEP_NO', 'EPK_NO'] }],
    ['account of another country', 'NO', { ...none, posted: ['ISK_SE'] }, { kind: 'error', accounts: [], error: 'notOffered' }],
    ['FI DEP locked', 'FI', { ...none, posted: [] }, { kind: 'submit', accounts: ['DEP_FI'] }],
    ['FI ESA unconfirmed opens the dialog', 'FI', { ...none, posted: ['ESA_FI'] }, { kind: 'confirm', accounts: ['ESA_FI', 'DEP_FI'], account: 'ESA_FI' }],
    ['FI ESA confirmed', 'FI', { ...none, posted: ['ESA_FI'], confirmed: ['ESA_FI'] }, { kind: 'submit', accounts: ['ESA_FI', 'DEP_FI'] }],
    ['DK DEP locked', 'DK', { ...none, posted: [] }, { kind: 'submit', accounts: ['DEP_DK'] }],
    ['DK DSK outside campaign: dialog', 'DK', { ...none, posted: ['DSK_DK'] }, { kind: 'confirm', accounts: ['DEP_DK', 'DSK_DK'], account: 'DSK_DK' }],
    ['DK DSK outside campaign confirmed', 'DK', { ...none, posted: ['DSK_DK'], confirmed: ['DSK_DK'] }, { kind: 'submit', accounts: ['DEP_DK', 'DSK_DK'] }],
    [
      'DK campaign DSK unanswered',
      'DK',
      { ...none, campaign: true, posted: ['DSK_DK'] },
      { kind: 'error', accounts: ['DEP_DK', 'DSK_DK'], error: 'dskQuestionRequired' },
    ],
    ['DK campaign DSK yes: locked off', 'DK', { ...none, campaign: true, posted: ['DSK_DK'], dskExisting: 'yes' }, { kind: 'dskLocked', accounts: ['DEP_DK'] }],
    [
      'DK campaign DSK no: dialog',
      'DK',
      { ...none, campaign: true, posted: ['DSK_DK'], dskExisting: 'no' },
      { kind: 'confirm', accounts: ['DEP_DK', 'DSK_DK'], account: 'DSK_DK' },
    ],
    [
      'DK campaign DSK no and confirmed',
      'DK',
      { campaign: true, posted: ['DSK_DK'], dskExisting: 'no', confirmed: ['DSK_DK'] },
      { kind: 'submit', accounts: ['DEP_DK', 'DSK_DK'] },
    ],
    ['DK campaign without DSK ignores the question', 'DK', { ...none, campaign: true, posted: [] }, { kind: 'submit', accounts: ['DEP_DK'] }],
  ])('%s', (_name, country, input, expected) => {
    expect(decidePicker(country, input)).toEqual(expected);
  });
});

describe('EPK and the other rules', () => {
  it.each([
    [[], false],
    [['EPK_NO'], false],
    [['DEP_NO'], true],
    [['ASK_NO'], true],
  ] as const)('EPK selectable with %j: %s', (ticked, expected) => expect(epkSelectable(ticked)).toBe(expected));

  it('clears EPK without DEP or ASK', () => expect(resolveAccountChoice('NO', ['EPK_NO']).accounts).toEqual([]));

  // identification-routing-creation §2 Onboarding query epk (our reading): epk=true ticks EPK from the start, in Norway.
  it('the entry’s epk ticks the Norwegian pension account next to the defaults, and changes nothing elsewhere', () => {
    expect(initialAccounts('NO')).toEqual(['ASK_NO']);
    expect(initialAccounts('NO', { epk: false })).toEqual(['ASK_NO']);
    expect(initialAccounts('NO', { epk: true })).toEqual(['ASK_NO', 'EPK_NO']);
    expect(resolveAccountChoice('NO', initialAccounts('NO', { epk: true }))).toEqual({ accounts: ['ASK_NO', 'EPK_NO'], error: null });
    for (const country of ['SE', 'DK', 'FI'] as const) {
      const defaults = defaultAccounts(country)
        .filter((a) => a.selected)
        .map((a) => a.accountTypeWithCountry);
      expect(initialAccounts(country, { epk: true })).toEqual(defaults);
    }
  });

  // customer-information §4.2: the DSK default depends on the campaign (the Danish ASK campaign, and only there).
  it('the Danish campaign ticks DSK next to the depot; elsewhere the campaign changes nothing', () => {
    expect(initialAccounts('DK', { campaign: 'ask' })).toEqual(['DEP_DK', 'DSK_DK']);
    expect(initialAccounts('DK')).toEqual(['DEP_DK']);
    expect(initialAccounts('DK', { campaign: 'levelup' })).toEqual(['DEP_DK']);
    expect(initialAccounts('SE', { campaign: 'ask' })).toEqual(['ISK_SE', 'DEP_SE']);
  });

  it.each([
    ['DK', 'ask', true],
    ['DK', undefined, false],
    ['DK', 'level-up', false],
    ['SE', 'ask', false],
  ] as const)('%s with campaign %s is the Danish campaign: %s', (country, campaign, expected) => expect(isDanishCampaign(country, campaign)).toBe(expected));

  it.each([
    ['DEP_SE', 'ATYID_108'],
    ['DEP_NO', 'ATYID_108'],
    ['DEP_DK', 'ATYID_108'],
    ['DEP_FI', 'ATYID_108'],
    ['ISK_SE', 'ATYID_125'],
    ['ASK_NO', 'ATYID_135'],
    ['DSK_DK', 'ATYID_142'],
    ['ESA_FI', 'ATYID_139'],
    ['EPK_NO', 'ATYID_119'],
  ] as const)('%s documents are %s (customer-information §9)', (account, id) => expect(precontractualDocumentIds[account]).toBe(id));
});
