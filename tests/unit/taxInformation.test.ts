// Tax information rules (customer-information.md §4.5, §5 "Tax identification numbers"), with the sandbox's
// realistic per-country rules as the server would send them.
import { describe, expect, it } from 'vitest';
import {
  attestsFatca,
  decideCountries,
  decideLiability,
  foreignTaxCountries,
  invalidFieldOf,
  normaliseTin,
  startDateValid,
  taxInfoSubmission,
  taxResidenceCasePlan,
  taxResidenceCountryOf,
  taxResidenceRequired,
  tinError,
  type TinRule,
} from '../../shared/taxInformation.ts';
import { TAX_VALIDATION_RULES, taxInfoProblems } from '../../sandbox/brokerage.ts';
import { manualFormUrl } from '../../shared/complianceDialogTypes.ts';

const rule = (country: string): TinRule | undefined => TAX_VALIDATION_RULES.find((r) => r.countryCode === country);
const check = (country: string, raw: string) => tinError(normaliseTin(country, raw), rule(country));

describe('decideLiability (customer-information §4.5)', () => {
  it.each([
    ['home only, address at home', 'inOffice', 'SE', 'SE', 'submitHomeOnly'],
    ['home only, address abroad', 'inOffice', 'SE', 'ES', 'fatcaDialog'],
    ['USA', 'usa', 'SE', 'SE', 'fatcaDialog'],
    ['USA with a foreign address', 'usa', 'NO', 'DE', 'fatcaDialog'],
    ['other', 'other', 'DK', 'DK', 'chooseCountries'],
    ['other with a foreign address', 'other', 'FI', 'ES', 'chooseCountries'],
  ] as const)('%s', (_name, answer, home, address, expected) => {
    expect(decideLiability(answer, home, address)).toBe(expected);
  });
});

describe('decideCountries (customer-information §4.5, §5 minimum 1)', () => {
  it.each([
    ['nothing chosen', [], 'chooseAtLeastOne'],
    ['only home', ['SE'], 'submitHomeOnly'],
    ['home and Norway', ['SE', 'NO'], 'enterNumbers'],
    ['Germany only', ['DE'], 'enterNumbers'],
    ['the USA among others', ['NO', 'US'], 'fatcaDialog'],
  ] as const)('%s', (_name, chosen, expected) => {
    expect(decideCountries(chosen, 'SE')).toBe(expected);
  });

  it('asks numbers for every chosen country but home, once each', () => {
    expect(foreignTaxCountries(['SE', 'NO', 'NO', 'DE'], 'SE')).toEqual(['NO', 'DE']);
  });
});

describe('normaliseTin (customer-information §5)', () => {
  it.each([
    ['SE', '850709-9805', '8507099805'],
    ['SE', '19850709-9805', '8507099805'],
    ['SE', ' 198507099805 ', '8507099805'],
    ['SE', '85 07 09 98 05', '8507099805'],
    ['NO', '  01018012345 ', '01018012345'],
    ['DK', ' 010180-1234', '010180-1234'],
    ['GB', 'QQ123456C ', 'QQ123456C'],
  ])('%s %j → %j', (country, raw, expected) => {
    expect(normaliseTin(country, raw)).toBe(expected);
  });
});

describe('tinError: every regex rule of the country must match (customer-information §5)', () => {
  it.each([
    ['SE', '850709-9805', null],
    ['SE', '19850709-9805', null],
    ['SE', '85070998', 'YYMMDDXXXX'],
    ['NO', '01018012345', null],
    ['NO', '0101801234', 'DDMMYYXXXXX'],
    ['DK', '010180-1234', null],
    ['DK', '0101801234', null],
    ['DK', '01018-1234', 'DDMMYY-XXXX'],
    ['FI', '131052-308T', null],
    ['FI', '131052A308T', null],
    ['FI', '131052-308G', 'DDMMYYCZZZQ'],
    ['US', '123-45-6789', null],
    // Matches the format rule but not the second rule (no SSN starts with 000, 666 or 9).
    ['US', '000-12-3456', 'XXX-XX-XXXX'],
    ['US', '912-34-5678', 'XXX-XX-XXXX'],
    ['GB', '1234567890', null],
    ['GB', 'AB123456C', null],
    ['GB', 'AB123456', '1234567890'],
    ['DE', '12345678901', null],
    // Eleven digits, but a German number never starts with 0: one of two rules fails.
    ['DE', '01234567890', '12345678901'],
  ] as const)('%s %j', (country, raw, placeholder) => {
    expect(check(country, raw)).toEqual(placeholder === null ? null : { kind: 'format', placeholder });
  });

  it('requires a number, and accepts any number for a country without rules', () => {
    expect(check('NO', '   ')).toEqual({ kind: 'required' });
    expect(check('SE', '-')).toEqual({ kind: 'required' });
    expect(check('ES', 'X1234567L')).toBeNull();
  });
});

describe('startDateValid (customer-information §5): required, a real date, not in the future', () => {
  it.each([
    ['2020-01-31', true],
    ['2024-06-01', true],
    ['2024-06-02', false],
    ['2030-01-01', false],
    ['', false],
    ['2023-02-30', false],
    ['2023-13-01', false],
    ['01/02/2020', false],
    ['1899-12-31', false],
  ])('%j → %s', (value, valid) => {
    expect(startDateValid(value, '2024-06-01')).toBe(valid);
  });
});

describe('taxResidenceRequired (customer-information §5)', () => {
  it.each([
    [true, 'SE', 'ES', true],
    [true, 'SE', 'SE', false],
    [false, 'SE', 'ES', false],
  ] as const)('flag %s, home %s, address %s → %s', (flag, home, address, expected) => {
    expect(taxResidenceRequired(flag, home, address)).toBe(expected);
  });
});

describe('attestsFatca (customer-information §4.7): an attest post from the liability or countries form only counts for a FATCA choice', () => {
  it.each([
    ['USA on the liability form', { screen: 'liability', liability: 'usa' }, 'SE', true],
    ['home only with an address abroad', { screen: 'liability', liability: 'inOffice' }, 'ES', true],
    ['home only with the address at home', { screen: 'liability', liability: 'inOffice' }, 'SE', false],
    ['other countries', { screen: 'liability', liability: 'other' }, 'ES', false],
    ['no liability posted', { screen: 'liability' }, 'ES', false],
    ['the US among the chosen countries', { screen: 'countries', countries: ['NO', 'US'] }, 'SE', true],
    ['countries without the US', { screen: 'countries', countries: ['NO', 'DE'] }, 'SE', false],
    ['no country chosen', { screen: 'countries', countries: [] }, 'SE', false],
    ['the numbers screen', { screen: 'numbers', liability: 'usa', countries: ['US'] }, 'SE', false],
  ] as const)('%s', (_name, post, address, expected) => {
    expect(attestsFatca(post, 'SE', address)).toBe(expected);
  });
});

describe('taxResidenceCountryOf (customer-information §2.3 residenceProof screen)', () => {
  it('is the country chosen on the numbers screen when it was asked', () => {
    expect(taxResidenceCountryOf(true, 'ES', 'SE')).toBe('ES');
  });
  it('is the home country when it was not asked, whatever an earlier answer said', () => {
    expect(taxResidenceCountryOf(false, 'ES', 'SE')).toBe('SE');
    expect(taxResidenceCountryOf(false, undefined, 'NO')).toBe('NO');
  });
});

describe('taxResidenceCasePlan: one TAX_RESIDENCE case, reused when re-entering', () => {
  it('creates a case the first time', () => {
    expect(taxResidenceCasePlan(undefined, 'SE')).toBe('create');
  });
  it('reuses the case for the same country', () => {
    expect(taxResidenceCasePlan({ countryCode: 'SE', taskId: 't-1' }, 'SE')).toBe('reuse');
  });
  it('updates the case when the tax residence country changed', () => {
    expect(taxResidenceCasePlan({ countryCode: 'SE', taskId: 't-1' }, 'ES')).toBe('update');
  });
});

describe('taxInfoSubmission (customer-information §7 v3 body)', () => {
  it('is taxable in home when home is chosen, lists the others with normalised numbers', () => {
    expect(taxInfoSubmission(['SE', 'NO'], 'SE', { NO: { tin: ' 01018012345 ', startDate: '2020-01-01' } })).toEqual({
      taxableInTld: true,
      taxInformationListOutsideOfTld: [{ countryCode: 'NO', taxIdentificationNumber: '01018012345', startDate: '2020-01-01' }],
    });
    expect(taxInfoSubmission(['DE'], 'SE', { DE: { tin: '12345678901', startDate: '2019-05-01' } }).taxableInTld).toBe(false);
  });

  it('reads the server invalid field names back as country and field', () => {
    const list = [{ countryCode: 'NO', taxIdentificationNumber: '01018012345', startDate: '1900-01-01' }];
    expect(invalidFieldOf('taxInformationListOutsideOfTld[0].startDate', list)).toEqual({ countryCode: 'NO', field: 'startDate' });
    expect(invalidFieldOf('taxableInTld', list)).toEqual({ countryCode: null, field: 'other' });
    expect(invalidFieldOf('taxInformationListOutsideOfTld[3].startDate', list)).toEqual({ countryCode: null, field: 'startDate' });
  });
});

describe('sandbox check of a tax submit', () => {
  it('refuses a start date before birth, a wrong number and the home country, naming the fields', () => {
    const body = {
      taxableInTld: true,
      taxInformationListOutsideOfTld: [
        { countryCode: 'NO', taxIdentificationNumber: '01018012345', startDate: '1950-01-01' },
        { countryCode: 'DE', taxIdentificationNumber: '01234567890', startDate: '2020-01-01' },
        { countryCode: 'SE', taxIdentificationNumber: '8507099805', startDate: '2020-01-01' },
      ],
    };
    expect(taxInfoProblems(body, 'SE', '1985-07-09', '2024-06-01')).toEqual([
      'taxInformationListOutsideOfTld[0].startDate',
      'taxInformationListOutsideOfTld[1].taxIdentificationNumber',
      'taxInformationListOutsideOfTld[2].countryCode',
    ]);
    expect(taxInfoProblems({ taxableInTld: true, taxInformationListOutsideOfTld: [] }, 'SE', '1985-07-09', '2024-06-01')).toEqual([]);
  });
});

describe('manualFormUrl (customer-information §2.3 compliance dialogs)', () => {
  it('appends the identified path and the exit parameter', () => {
    expect(manualFormUrl('https://forms.example.com/additional-information', 'FATCA')).toBe(
      'https://forms.example.com/additional-information/identified?exit=FATCA',
    );
    expect(manualFormUrl('https://forms.example.com/', 'RESIDENCY')).toBe('https://forms.example.com/identified?exit=RESIDENCY');
  });
});
