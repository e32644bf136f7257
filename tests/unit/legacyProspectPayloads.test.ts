// What the legacy single form sends (shared/legacyProspect.ts; customer-information §3): the submission, the national
// id, the regulation payload and the prospect update payload, table-driven, each payload checked against its contract.
import { describe, expect, it } from 'vitest';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { prospectUpdateRequest, regulationRequest } from '../../shared/contracts/legacyContract.ts';
import {
  legacySubmission,
  nationalIdForPayload,
  prospectUpdatePayload,
  regulationPayload,
  type LegacyFormAnswers,
  type LegacySubmission,
  type ProspectUpdateContext,
  type RegulationContext,
} from '../../shared/legacyProspect.ts';
import { form, PEP, PEP_NO } from '../support/legacyFormAnswers.ts';

describe('legacySubmission (customer-information §3 "Legacy submission")', () => {
  it.each<[string, Partial<LegacyFormAnswers>, LegacySubmission]>([
    [
      'ticked accounts by code, trimmed aliases, one kyc pair per answer id, home-only tax sends no',
      { aliases: { ISK_SE: '  Buffer ', DEP_SE: '' } },
      {
        prospect: { accountTypes: { ISK: true, DEP: true }, accountAliases: { ISK: 'Buffer' } },
        regulation: {
          kyc: [
            { question_id: 83, answer_id: 201 },
            { question_id: 84, answer_id: PEP_NO },
            { question_id: 87, answer_id: 211 },
            { question_id: 87, answer_id: 213 },
          ],
          crs: { taxableOutsideJurisdiction: 'no', citizen: null },
        },
      },
    ],
    [
      'usa sends yes; an alias of an unticked account and a blank alias are left out',
      { accounts: ['DEP_SE'], aliases: { ISK_SE: 'Buffer', DEP_SE: '   ' }, taxLiability: 'usa', kyc: {} },
      { prospect: { accountTypes: { DEP: true }, accountAliases: {} }, regulation: { kyc: [], crs: { taxableOutsideJurisdiction: 'yes', citizen: null } } },
    ],
    [
      'other sends yes',
      { accounts: ['ASK_NO'], taxLiability: 'other', kyc: { 83: [] } },
      { prospect: { accountTypes: { ASK: true }, accountAliases: {} }, regulation: { kyc: [], crs: { taxableOutsideJurisdiction: 'yes', citizen: null } } },
    ],
    [
      'a missing answer sends yes (false only for home only)',
      { accounts: [], taxLiability: undefined, kyc: {} },
      { prospect: { accountTypes: {}, accountAliases: {} }, regulation: { kyc: [], crs: { taxableOutsideJurisdiction: 'yes', citizen: null } } },
    ],
  ])('%s', (_name, over, expected) => {
    expect(legacySubmission(form(over))).toEqual(expected);
  });
});

describe('nationalIdForPayload (customer-information §3 "Prospect update payload")', () => {
  it.each<[CountryCode, string, string]>([
    ['SE', '19900101-1239', '199001011239'],
    ['SE', ' 19900101 1239 ', '199001011239'],
    ['NO', '010190 12345', '01019012345'],
    ['DK', '010190-1234', '0101901234'],
    ['FI', '131052-308T', '131052-308T'],
    ['FI', ' 131052A308t ', '131052A308t'],
  ])('%s %j → %j', (market, id, expected) => {
    expect(nationalIdForPayload(market, id)).toBe(expected);
  });
});

const submission = (over: Partial<LegacyFormAnswers> = {}) => legacySubmission(form(over));
const regulationCtx = (over: Partial<RegulationContext> = {}): RegulationContext => ({
  market: 'SE',
  nationalId: '19900101-1239',
  addressCountry: 'SE',
  regulationId: null,
  ...over,
});

describe('regulationPayload (customer-information §3 "Regulation payload")', () => {
  it('a Swedish form', () => {
    const payload = regulationPayload(submission(), regulationCtx());
    expect(payload).toEqual({
      regulation_id: null,
      national_id_number_country_code: 'SE',
      national_id_number: '199001011239',
      address_country: 'SE',
      jurisdiction: 'SE',
      customer_type: 'individual',
      kyc: { answers: submission().regulation.kyc },
      tax_info: { account_type_codes: ['ISK', 'DEP'], taxable_in_jurisdiction: true, taxable_outside_jurisdiction: false },
    });
    expect(regulationRequest.parse(payload)).toEqual(payload);
  });

  it.each<[string, Partial<LegacyFormAnswers>, Partial<RegulationContext>, Partial<ReturnType<typeof regulationPayload>>]>([
    [
      'usa: taxable outside',
      { taxLiability: 'usa' },
      {},
      { tax_info: { account_type_codes: ['ISK', 'DEP'], taxable_in_jurisdiction: true, taxable_outside_jurisdiction: true } },
    ],
    [
      'other: taxable outside',
      { taxLiability: 'other' },
      {},
      { tax_info: { account_type_codes: ['ISK', 'DEP'], taxable_in_jurisdiction: true, taxable_outside_jurisdiction: true } },
    ],
    [
      'no accounts: codes null',
      { accounts: [] },
      {},
      { tax_info: { account_type_codes: null, taxable_in_jurisdiction: true, taxable_outside_jurisdiction: false } },
    ],
    [
      'Finland: id kept, jurisdiction and id country the market, address country as given',
      { accounts: ['DEP_FI', 'ESA_FI'] },
      { market: 'FI', nationalId: '131052-308T', addressCountry: 'ES', regulationId: 'reg-1' },
      {
        regulation_id: 'reg-1',
        national_id_number: '131052-308T',
        national_id_number_country_code: 'FI',
        jurisdiction: 'FI',
        address_country: 'ES',
        tax_info: { account_type_codes: ['DEP', 'ESA'], taxable_in_jurisdiction: true, taxable_outside_jurisdiction: false },
      },
    ],
    ['kyc answers from the submission', { kyc: { [PEP]: [PEP_NO] } }, {}, { kyc: { answers: [{ question_id: PEP, answer_id: PEP_NO }] } }],
  ])('%s', (_name, over, ctx, expected) => {
    const payload = regulationPayload(submission(over), regulationCtx(ctx));
    expect(payload).toMatchObject(expected);
    expect(regulationRequest.parse(payload)).toEqual(payload);
  });
});

const prospectCtx = (over: Partial<ProspectUpdateContext> = {}): ProspectUpdateContext => ({
  market: 'SE',
  nationalId: '19900101-1239',
  phoneNumber: '+46701234567',
  email: 'anna@example.com',
  firstName: 'Anna',
  lastName: 'Berg',
  citizen: 'SE',
  regulationId: 'reg-1',
  ...over,
});

describe('prospectUpdatePayload (customer-information §3 "Prospect update payload")', () => {
  it.each<[string, Partial<LegacyFormAnswers>, Partial<ProspectUpdateContext>, ReturnType<typeof prospectUpdatePayload>]>([
    [
      'a Swedish form with an alias',
      { aliases: { ISK_SE: 'Buffer' } },
      {},
      {
        national_id_number: '199001011239',
        national_id_number_country_code: 'SE',
        country: 'SE',
        phone_number: '+46701234567',
        email: 'anna@example.com',
        citizen: 'SE',
        regulation_id: 'reg-1',
        account_templates: ['ISK_SE', 'DEP_SE'],
        first_name: 'Anna',
        last_name: 'Berg',
        account_aliases: [{ account_type: 'ISK', alias: 'Buffer' }],
      },
    ],
    [
      'every string trimmed',
      { aliases: { DEP_SE: '  Main  ' } },
      {
        nationalId: ' 199001011239 ',
        phoneNumber: ' +46701234567 ',
        email: ' anna@example.com ',
        firstName: ' Anna ',
        lastName: ' Berg ',
        citizen: ' SE ',
        regulationId: ' reg-1 ',
      },
      {
        national_id_number: '199001011239',
        national_id_number_country_code: 'SE',
        country: 'SE',
        phone_number: '+46701234567',
        email: 'anna@example.com',
        citizen: 'SE',
        regulation_id: 'reg-1',
        account_templates: ['ISK_SE', 'DEP_SE'],
        first_name: 'Anna',
        last_name: 'Berg',
        account_aliases: [{ account_type: 'DEP', alias: 'Main' }],
      },
    ],
    [
      'empty values dropped: blank strings, null regulation id, no accounts, no aliases',
      { accounts: [], aliases: {} },
      { phoneNumber: '  ', email: '', citizen: '', regulationId: null },
      { national_id_number: '199001011239', national_id_number_country_code: 'SE', country: 'SE', first_name: 'Anna', last_name: 'Berg' },
    ],
    [
      'Finland: the id kept as entered, templates with the FI suffix',
      { accounts: ['DEP_FI', 'ESA_FI'], aliases: { ESA_FI: 'Osakesäästö' } },
      { market: 'FI', nationalId: '131052-308T', phoneNumber: '+358401234567', citizen: 'FI' },
      {
        national_id_number: '131052-308T',
        national_id_number_country_code: 'FI',
        country: 'FI',
        phone_number: '+358401234567',
        email: 'anna@example.com',
        citizen: 'FI',
        regulation_id: 'reg-1',
        account_templates: ['DEP_FI', 'ESA_FI'],
        first_name: 'Anna',
        last_name: 'Berg',
        account_aliases: [{ account_type: 'ESA', alias: 'Osakesäästö' }],
      },
    ],
    [
      'Norway: the id reduced to digits; only ticked accounts carry aliases',
      { accounts: ['ASK_NO', 'EPK_NO'], aliases: { ASK_NO: 'Aksjer', DEP_NO: 'Depot' } },
      { market: 'NO', nationalId: '010190 12345', phoneNumber: '+4741234567', citizen: 'NO' },
      {
        national_id_number: '01019012345',
        national_id_number_country_code: 'NO',
        country: 'NO',
        phone_number: '+4741234567',
        email: 'anna@example.com',
        citizen: 'NO',
        regulation_id: 'reg-1',
        account_templates: ['ASK_NO', 'EPK_NO'],
        first_name: 'Anna',
        last_name: 'Berg',
        account_aliases: [{ account_type: 'ASK', alias: 'Aksjer' }],
      },
    ],
  ])('%s', (_name, over, ctx, expected) => {
    const payload = prospectUpdatePayload(submission(over), prospectCtx(ctx));
    expect(payload).toEqual(expected);
    // Exact keys: nothing empty is sent.
    expect(Object.keys(payload).sort()).toEqual(Object.keys(expected).sort());
    expect(prospectUpdateRequest.parse(payload)).toEqual(payload);
  });
});
