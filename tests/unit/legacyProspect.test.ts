// The legacy single form and saving a prospect (shared/legacyProspect.ts; customer-information §3, §4.2,
// customer-information §4.9, §4.10, §5, §8), table-driven: one block of rows per rule, with its edge cases.
import { describe, expect, it } from 'vitest';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { prospectUpdateRequest, regulationRequest, type ProspectFieldError } from '../../shared/contracts/legacyContract.ts';
import {
  legacyFormProblems,
  legacySubmission,
  nationalIdForPayload,
  prospectUpdateErrors,
  prospectUpdatePayload,
  regulationOutcome,
  regulationPayload,
  saveBanner,
  type LegacyFieldProblem,
  type LegacyFormAnswers,
  type LegacyFormContext,
  type LegacySubmission,
  type ProspectUpdateContext,
  type RegulationContext,
  type SaveError,
} from '../../shared/legacyProspect.ts';

const PEP = 84;
const PEP_YES = 224;
const PEP_NO = 223;

const questions: LegacyFormContext['questions'] = [
  { id: 83, type: 'SINGLE_CHOICE', options: [{ id: 201 }, { id: 202 }, { id: 203 }] },
  { id: 87, type: 'MULTIPLE_CHOICE', options: [{ id: 211 }, { id: 212 }, { id: 213 }] },
  { id: PEP, type: 'SINGLE_CHOICE', options: [{ id: PEP_NO }, { id: PEP_YES }] },
  { id: 99, type: 'FREE_TEXT', options: [] },
];

/** A valid Swedish form: no problems. */
function form(over: Partial<LegacyFormAnswers> = {}): LegacyFormAnswers {
  return {
    accounts: ['ISK_SE', 'DEP_SE'],
    confirmed: [],
    campaign: false,
    aliases: {},
    phoneNumber: '+46701234567',
    email: 'anna@example.com',
    firstName: 'Anna',
    lastName: 'Berg',
    citizenship: 'inOfficeCitizenship',
    residency: 'inOffice',
    taxLiability: 'inOffice',
    kyc: { 83: [201], 87: [211, 213], [PEP]: [PEP_NO] },
    investmentRisk: 'yes',
    ...over,
  };
}

const problems = (over: Partial<LegacyFormAnswers>, market: CountryCode = 'SE') => legacyFormProblems(form(over), { market, questions });

describe('legacyFormProblems: a valid form', () => {
  it.each<[string, CountryCode, Partial<LegacyFormAnswers>, LegacyFormContext['questions']]>([
    ['SE defaults', 'SE', {}, questions],
    ['NO with ASK', 'NO', { accounts: ['ASK_NO'], phoneNumber: '+4741234567' }, questions],
    ['NO with DEP and EPK', 'NO', { accounts: ['DEP_NO', 'EPK_NO'], phoneNumber: '+4741234567' }, questions],
    ['DK without the campaign', 'DK', { accounts: ['DEP_DK'], phoneNumber: '+4520123456' }, questions],
    ['FI with a confirmed ESA', 'FI', { accounts: ['DEP_FI', 'ESA_FI'], confirmed: ['ESA_FI'], phoneNumber: '+358401234567' }, questions],
    ['only questions of an unknown type: no answers needed', 'SE', { kyc: {} }, [{ id: 99, type: 'FREE_TEXT', options: [] }]],
    ['no questions at all', 'SE', { kyc: {} }, []],
  ])('%s', (_name, market, over, qs) => {
    expect(legacyFormProblems(form(over), { market, questions: qs })).toEqual([]);
  });
});

describe('legacyFormProblems: account picker (customer-information §4.2, §5 "Account picker")', () => {
  it.each<[string, CountryCode, Partial<LegacyFormAnswers>, LegacyFieldProblem['message'] | null]>([
    ['SE without the mandatory DEP', 'SE', { accounts: ['ISK_SE'] }, 'mandatoryAccountMissing'],
    ['SE with nothing ticked (DEP is mandatory)', 'SE', { accounts: [] }, 'mandatoryAccountMissing'],
    ['SE with only DEP', 'SE', { accounts: ['DEP_SE'] }, null],
    ['SE with a Norwegian account', 'SE', { accounts: ['DEP_SE', 'ASK_NO'] }, 'notOffered'],
    ['NO with nothing ticked', 'NO', { accounts: [], phoneNumber: '+4741234567' }, 'mustChooseOne'],
    ['NO with only EPK (cleared without DEP or ASK)', 'NO', { accounts: ['EPK_NO'], phoneNumber: '+4741234567' }, 'mustChooseOne'],
    ['FI with ESA not confirmed', 'FI', { accounts: ['DEP_FI', 'ESA_FI'], phoneNumber: '+358401234567' }, 'confirmExclusive'],
    ['DK campaign, DSK, question unanswered', 'DK', { accounts: ['DEP_DK', 'DSK_DK'], campaign: true, phoneNumber: '+4520123456' }, 'dskQuestionRequired'],
    [
      'DK campaign, DSK, existing account: yes',
      'DK',
      { accounts: ['DEP_DK', 'DSK_DK'], campaign: true, dskExisting: 'yes', confirmed: ['DSK_DK'], phoneNumber: '+4520123456' },
      'dskLocked',
    ],
    [
      'DK campaign, DSK, no, not confirmed',
      'DK',
      { accounts: ['DEP_DK', 'DSK_DK'], campaign: true, dskExisting: 'no', phoneNumber: '+4520123456' },
      'confirmExclusive',
    ],
    [
      'DK campaign, DSK, no, confirmed',
      'DK',
      { accounts: ['DEP_DK', 'DSK_DK'], campaign: true, dskExisting: 'no', confirmed: ['DSK_DK'], phoneNumber: '+4520123456' },
      null,
    ],
    ['DK outside the campaign, DSK not confirmed', 'DK', { accounts: ['DEP_DK', 'DSK_DK'], phoneNumber: '+4520123456' }, 'confirmExclusive'],
  ])('%s → %s', (_name, market, over, message) => {
    expect(problems(over, market)).toEqual(message === null ? [] : [{ field: 'accounts', message }]);
  });
});

describe('legacyFormProblems: aliases of ticked accounts (customer-information §5 "Account alias")', () => {
  it.each<[string, LegacyFormAnswers['aliases'], LegacyFieldProblem[]]>([
    ['a valid alias', { ISK_SE: 'Buffer' }, []],
    ['empty: the default name stays', { ISK_SE: '' }, []],
    ['one character', { ISK_SE: 'A' }, [{ field: 'alias-ISK_SE', message: 'NOT_LONG_ENOUGH' }]],
    ['one character between spaces', { ISK_SE: ' A ' }, [{ field: 'alias-ISK_SE', message: 'NOT_LONG_ENOUGH' }]],
    ['31 characters', { DEP_SE: 'a'.repeat(31) }, [{ field: 'alias-DEP_SE', message: 'NOT_SHORT_ENOUGH' }]],
    ['30 characters', { DEP_SE: 'a'.repeat(30) }, []],
    ['only spaces', { ISK_SE: '   ' }, [{ field: 'alias-ISK_SE', message: 'ONLY_SPACES' }]],
    ['a character not allowed', { ISK_SE: '<b>' }, [{ field: 'alias-ISK_SE', message: 'CHARACTER_INVALID' }]],
    ['an alias of an account not ticked is ignored', { ESA_FI: 'x' }, []],
    [
      'in the order the accounts are ticked',
      { DEP_SE: 'x', ISK_SE: 'y' },
      [
        { field: 'alias-ISK_SE', message: 'NOT_LONG_ENOUGH' },
        { field: 'alias-DEP_SE', message: 'NOT_LONG_ENOUGH' },
      ],
    ],
  ])('%s', (_name, aliases, expected) => {
    expect(problems({ aliases })).toEqual(expected);
  });
});

describe('legacyFormProblems: phone and e-mail (customer-information §5 "Contact")', () => {
  it.each<[string, CountryCode, Partial<LegacyFormAnswers>, LegacyFieldProblem[]]>([
    ['an international number', 'SE', { phoneNumber: '+46 70 123 45 67' }, []],
    ['a national number in the market', 'SE', { phoneNumber: '070-123 45 67' }, []],
    ['a national number in NO', 'NO', { accounts: ['ASK_NO'], phoneNumber: '412 34 567' }, []],
    ['another country with its plus', 'SE', { phoneNumber: '+4741234567' }, []],
    ['a missing plus', 'SE', { phoneNumber: '46701234567' }, [{ field: 'phoneNumber', message: 'phoneMissingPlus' }]],
    ['letters', 'SE', { phoneNumber: '070-ABC' }, [{ field: 'phoneNumber', message: 'phone' }]],
    ['an empty phone', 'SE', { phoneNumber: '' }, [{ field: 'phoneNumber', message: 'phone' }]],
    ['an e-mail without a domain dot', 'SE', { email: 'anna@example' }, [{ field: 'email', message: 'email' }]],
    ['an empty e-mail', 'SE', { email: '  ' }, [{ field: 'email', message: 'email' }]],
    ['an e-mail with spaces around', 'SE', { email: ' anna@example.com ' }, []],
    [
      'both wrong: phone first',
      'SE',
      { phoneNumber: 'x', email: 'y' },
      [
        { field: 'phoneNumber', message: 'phone' },
        { field: 'email', message: 'email' },
      ],
    ],
  ])('%s', (_name, market, over, expected) => {
    expect(problems(over, market)).toEqual(expected);
  });
});

describe('legacyFormProblems: names (customer-information §5 "Names")', () => {
  it.each<[string, Partial<LegacyFormAnswers>, LegacyFieldProblem[]]>([
    ['empty first name', { firstName: '' }, [{ field: 'firstName', message: 'required' }]],
    ['blank last name', { lastName: '   ' }, [{ field: 'lastName', message: 'required' }]],
    [
      'both empty',
      { firstName: '', lastName: '' },
      [
        { field: 'firstName', message: 'required' },
        { field: 'lastName', message: 'required' },
      ],
    ],
    ['a double name is allowed here', { lastName: 'Berg Olsen' }, []],
  ])('%s', (_name, over, expected) => {
    expect(problems(over)).toEqual(expected);
  });
});

describe('legacyFormProblems: citizenship, residency, tax liability (customer-information §5 "KYC", §4.10)', () => {
  it.each<[string, Partial<LegacyFormAnswers>, LegacyFieldProblem['message'] | null]>([
    ['citizenship missing', { citizenship: undefined }, 'additionalInformationNeeded'],
    ['citizenship other', { citizenship: 'otherCitizenships' }, 'sensitiveAnswer'],
    ['citizenship multiple', { citizenship: 'multipleCitizenship' }, 'sensitiveAnswer'],
    ['citizenship in-country', { citizenship: 'inOfficeCitizenship' }, null],
    ['residency missing', { residency: undefined }, 'additionalInformationNeeded'],
    ['residency other', { residency: 'other' }, 'sensitiveAnswer'],
    ['residency in-country', { residency: 'inOffice' }, null],
    ['tax liability missing', { taxLiability: undefined }, 'additionalInformationNeeded'],
    ['tax liability usa', { taxLiability: 'usa' }, 'sensitiveAnswer'],
    ['tax liability other', { taxLiability: 'other' }, 'sensitiveAnswer'],
    ['tax liability home only', { taxLiability: 'inOffice' }, null],
  ])('%s → %s', (_name, over, message) => {
    const field = Object.keys(over)[0]!;
    expect(problems(over)).toEqual(message === null ? [] : [{ field, message }]);
  });
});

describe('legacyFormProblems: KYC questions (customer-information §5 "KYC", §4.10 PEP)', () => {
  it.each<[string, LegacyFormAnswers['kyc'], LegacyFieldProblem[]]>([
    ['a question without an entry', { 87: [211], [PEP]: [PEP_NO] }, [{ field: 'kyc-83', message: 'chooseAnAlternative' }]],
    ['a question with no answer ids', { 83: [], 87: [211], [PEP]: [PEP_NO] }, [{ field: 'kyc-83', message: 'chooseAnAlternative' }]],
    ['an answer of another question', { 83: [211], 87: [211], [PEP]: [PEP_NO] }, [{ field: 'kyc-83', message: 'chooseAnAlternative' }]],
    ['two answers to a single choice', { 83: [201, 202], 87: [211], [PEP]: [PEP_NO] }, [{ field: 'kyc-83', message: 'chooseAnAlternative' }]],
    ['several answers to a multiple choice', { 83: [201], 87: [211, 212, 213], [PEP]: [PEP_NO] }, []],
    ['the same answer twice', { 83: [201], 87: [211, 211], [PEP]: [PEP_NO] }, [{ field: 'kyc-87', message: 'chooseAnAlternative' }]],
    ['PEP yes', { 83: [201], 87: [211], [PEP]: [PEP_YES] }, [{ field: 'kyc-84', message: 'sensitiveAnswer' }]],
    ['PEP unanswered', { 83: [201], 87: [211] }, [{ field: 'kyc-84', message: 'chooseAnAlternative' }]],
    ['a question of an unknown type needs no answer', { 83: [201], 87: [211], [PEP]: [PEP_NO] }, []],
    [
      'nothing answered: in question order, the unknown type skipped',
      {},
      [
        { field: 'kyc-83', message: 'chooseAnAlternative' },
        { field: 'kyc-87', message: 'chooseAnAlternative' },
        { field: 'kyc-84', message: 'chooseAnAlternative' },
      ],
    ],
  ])('%s', (_name, kyc, expected) => {
    expect(problems({ kyc })).toEqual(expected);
  });
});

describe('legacyFormProblems: investment risk (customer-information §5 "KYC", §4.10)', () => {
  it.each<[string, LegacyFormAnswers['investmentRisk'], LegacyFieldProblem[]]>([
    ['missing', undefined, [{ field: 'investmentRisk', message: 'chooseAnAlternative' }]],
    ['no', 'no', [{ field: 'investmentRisk', message: 'sensitiveAnswer' }]],
    ['yes', 'yes', []],
  ])('%s', (_name, investmentRisk, expected) => {
    expect(problems({ investmentRisk })).toEqual(expected);
  });
});

describe('legacyFormProblems: form order (customer-information §2.3 "Legacy single form")', () => {
  it('every section wrong at once lists the fields top to bottom', () => {
    const all = problems({
      accounts: ['ISK_SE'],
      aliases: { ISK_SE: 'x' },
      phoneNumber: '',
      email: '',
      firstName: '',
      lastName: '',
      citizenship: undefined,
      residency: 'other',
      taxLiability: 'usa',
      kyc: { [PEP]: [PEP_YES] },
      investmentRisk: undefined,
    });
    expect(all.map((p) => p.field)).toEqual([
      'accounts',
      'alias-ISK_SE',
      'phoneNumber',
      'email',
      'firstName',
      'lastName',
      'citizenship',
      'residency',
      'taxLiability',
      'kyc-83',
      'kyc-87',
      'kyc-84',
      'investmentRisk',
    ]);
  });
});

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

describe('regulationOutcome (customer-information §4.9), first match wins', () => {
  it.each<[string, Parameters<typeof regulationOutcome>[0], ReturnType<typeof regulationOutcome>]>([
    ['1: compliant with an id', { status: 'compliant', regulation_id: 'reg-1' }, { kind: 'success', regulationId: 'reg-1' }],
    ['2: another status with an id', { status: 'non_compliant', regulation_id: 'reg-1' }, { kind: 'nonCompliant' }],
    ['2: no status with an id', { status: null, regulation_id: 'reg-1' }, { kind: 'nonCompliant' }],
    ['2: status missing with an id', { regulation_id: 'reg-1' }, { kind: 'nonCompliant' }],
    ['2: Compliant in another case is another status', { status: 'Compliant', regulation_id: 'reg-1' }, { kind: 'nonCompliant' }],
    ['3: compliant without an id', { status: 'compliant' }, { kind: 'unspecifiedApiResponseError' }],
    ['3: compliant with a null id', { status: 'compliant', regulation_id: null }, { kind: 'unspecifiedApiResponseError' }],
    ['3: compliant with an empty id', { status: 'compliant', regulation_id: '  ' }, { kind: 'unspecifiedApiResponseError' }],
    ['3: another status without an id', { status: 'non_compliant', regulation_id: null }, { kind: 'unspecifiedApiResponseError' }],
    ['3: nothing at all', {}, { kind: 'unspecifiedApiResponseError' }],
  ])('%s', (_name, data, expected) => {
    expect(regulationOutcome(data)).toEqual(expected);
  });
});

describe('prospectUpdateErrors (customer-information §8), first match wins, deduplicated in order', () => {
  const single = { firstName: 'Anna', lastName: 'Berg' };
  const err = (code: string, field?: string | null): ProspectFieldError => (field === undefined ? { code } : { code, field });
  it.each<[string, ProspectFieldError[], { firstName: string; lastName: string }, SaveError[]]>([
    ['1: code Age', [err('Age')], single, ['notOldEnough']],
    ['1 over 2: code Age on phone_number', [err('Age', 'phone_number')], single, ['notOldEnough']],
    ['2: field phone_number', [err('invalid', 'phone_number')], single, ['mobileNumber']],
    ['2 over 4: natregno code on phone_number', [err('natregno', 'phone_number')], { firstName: 'Anna Karin', lastName: 'Berg' }, ['mobileNumber']],
    ['3: field Email', [err('invalid', 'Email')], single, ['email']],
    ['3: field email in lower case', [err('invalid', 'email')], single, ['email']],
    ['4: natregno with a two-word first name', [err('natregno')], { firstName: 'Anna Karin', lastName: 'Berg' }, ['doubleName']],
    ['4: natregno with a two-word last name', [err('natregno', 'national_id_number')], { firstName: 'Anna', lastName: 'Berg Olsen' }, ['doubleName']],
    ['4: natregno with a tab between names', [err('natregno')], { firstName: 'Anna', lastName: 'Berg\tOlsen' }, ['doubleName']],
    ['4: natregno with single names', [err('natregno')], single, ['unspecifiedApiResponseError']],
    ['4: natregno, spaces around a single name', [err('natregno')], { firstName: '  Anna  ', lastName: ' Berg ' }, ['unspecifiedApiResponseError']],
    ['4: natregno, a hyphenated name is one word', [err('natregno')], { firstName: 'Anna-Karin', lastName: 'Berg-Olsen' }, ['unspecifiedApiResponseError']],
    ['5: anything else', [err('Unknown', 'country')], single, ['unspecifiedApiResponseError']],
    ['5: a code without a field', [err('invalid', null)], single, ['unspecifiedApiResponseError']],
    ['a refusal listing no field', [], single, ['unspecifiedApiResponseError']],
    [
      'several, deduplicated in order',
      [err('invalid', 'Email'), err('Age'), err('invalid', 'email'), err('x'), err('y'), err('Age')],
      single,
      ['email', 'notOldEnough', 'unspecifiedApiResponseError'],
    ],
  ])('%s', (_name, fields, names, expected) => {
    expect(prospectUpdateErrors(fields, names)).toEqual(expected);
  });
});

describe('saveBanner (customer-information §8)', () => {
  it.each<[string, SaveError[], ReturnType<typeof saveBanner>]>([
    ['no errors', [], null],
    ['one error', ['nonCompliant'], 'nonCompliant'],
    ['one kind twice', ['email', 'email'], 'email'],
    ['highRisk alone', ['highRisk'], 'highRisk'],
    ['two kinds', ['email', 'mobileNumber'], 'unspecifiedFormError'],
    ['the generic error and another', ['unspecifiedApiResponseError', 'doubleName'], 'unspecifiedFormError'],
  ])('%s', (_name, errors, expected) => {
    expect(saveBanner(errors)).toBe(expected);
  });
});
