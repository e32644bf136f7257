// What saving a legacy prospect answers (shared/legacyProspect.ts; customer-information §4.9, §8), table-driven: the
// regulation's outcome, the prospect update's refusals as errors, and the banner they show.
import { describe, expect, it } from 'vitest';
import type { ProspectFieldError } from '../../shared/contracts/legacyContract.ts';
import { prospectUpdateErrors, regulationOutcome, saveBanner, type SaveError } from '../../shared/legacyProspect.ts';

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
