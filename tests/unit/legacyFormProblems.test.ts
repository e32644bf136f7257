// The legacy single form's rules (shared/legacyProspect.ts legacyFormProblems; customer-information §2.3, §4.2, §4.10,
// §5), table-driven: one block of rows per rule, with its edge cases, and the order the problems are listed in.
import { describe, expect, it } from 'vitest';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { legacyFormProblems, type LegacyFieldProblem, type LegacyFormAnswers, type LegacyFormContext } from '../../shared/legacyProspect.ts';
import { form, PEP, PEP_NO, PEP_YES } from '../support/legacyFormAnswers.ts';

const questions: LegacyFormContext['questions'] = [
  { id: 83, type: 'SINGLE_CHOICE', options: [{ id: 201 }, { id: 202 }, { id: 203 }] },
  { id: 87, type: 'MULTIPLE_CHOICE', options: [{ id: 211 }, { id: 212 }, { id: 213 }] },
  { id: PEP, type: 'SINGLE_CHOICE', options: [{ id: PEP_NO }, { id: PEP_YES }] },
  { id: 99, type: 'FREE_TEXT', options: [] },
];

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
