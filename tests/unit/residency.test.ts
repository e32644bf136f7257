// Residency rules (customer-information.md §2.3 "Residency", §3 residency data, §5 "Residency", §7).
import { describe, expect, it } from 'vitest';
import {
  addressCountryOptions,
  checkAddress,
  checkAnswers,
  documentsComplete,
  refusedPartsOf,
  residencyCase,
  residencySubmission,
  type ResidencyAddress,
  type ResidencyAnswers,
  type ResidencyQuestion,
} from '../../shared/residency.ts';
import { countryOptions } from '../../shared/countries.ts';
import { createCaseRequest, residencyStepRequest } from '../../shared/contracts/brokerageContract.ts';

const address: ResidencyAddress = { addressCountry: 'NO', address: 'Storgata 1', zipCode: '0155', city: 'Oslo' };
const answers: Record<ResidencyQuestion, string> = {
  applicationPurpose: 'Saving',
  reasonForLivingAbroad: 'Work',
  durationAbroad: 'Three years',
};

describe('checkAddress (customer-information §5: country, address, zip code and city required)', () => {
  it.each<[string, Partial<ResidencyAddress>, ReturnType<typeof checkAddress>]>([
    ['a full foreign address', {}, {}],
    ['surrounding spaces are fine', { address: '  Storgata 1 ', city: ' Oslo' }, {}],
    ['no country', { addressCountry: '' }, { addressCountry: 'required' }],
    ['the home country', { addressCountry: 'SE' }, { addressCountry: 'homeCountry' }],
    ['not a country code', { addressCountry: 'XX' }, { addressCountry: 'unknownCountry' }],
    ['a lower-case code is not one', { addressCountry: 'no' }, { addressCountry: 'unknownCountry' }],
    ['only spaces in the address', { address: '   ' }, { address: 'required' }],
    ['no zip code', { zipCode: '' }, { zipCode: 'required' }],
    ['no city', { city: '\t' }, { city: 'required' }],
    ['a 200-character address', { address: 'a'.repeat(200) }, {}],
    ['a 201-character address', { address: 'a'.repeat(201) }, { address: 'tooLong' }],
    ['a 21-character zip code', { zipCode: '1'.repeat(21) }, { zipCode: 'tooLong' }],
    ['a 101-character city', { city: 'c'.repeat(101) }, { city: 'tooLong' }],
    [
      'everything empty',
      { addressCountry: '', address: '', zipCode: '', city: '' },
      { addressCountry: 'required', address: 'required', zipCode: 'required', city: 'required' },
    ],
  ])('%s', (_name, change, expected) => {
    expect(checkAddress({ ...address, ...change }, 'SE')).toEqual(expected);
  });

  it('refuses the market of the person, whichever it is', () => {
    expect(checkAddress(address, 'NO')).toEqual({ addressCountry: 'homeCountry' });
    expect(checkAddress({ ...address, addressCountry: 'SE' }, 'NO')).toEqual({});
  });
});

describe('checkAnswers (customer-information §5: all three answers non-empty)', () => {
  it.each<[string, Partial<Record<ResidencyQuestion, string>>, ReturnType<typeof checkAnswers>]>([
    ['three answers', {}, {}],
    ['an empty purpose', { applicationPurpose: '' }, { applicationPurpose: 'required' }],
    ['only spaces and line breaks', { reasonForLivingAbroad: ' \n ' }, { reasonForLivingAbroad: 'required' }],
    ['2000 characters', { durationAbroad: 'x'.repeat(2000) }, {}],
    ['2000 characters and spaces around', { durationAbroad: `  ${'x'.repeat(2000)}  ` }, {}],
    ['2001 characters', { durationAbroad: 'x'.repeat(2001) }, { durationAbroad: 'tooLong' }],
    [
      'all empty',
      { applicationPurpose: '', reasonForLivingAbroad: '', durationAbroad: '' },
      { applicationPurpose: 'required', reasonForLivingAbroad: 'required', durationAbroad: 'required' },
    ],
  ])('%s', (_name, change, expected) => {
    expect(checkAnswers({ ...answers, ...change })).toEqual(expected);
  });
});

describe('addressCountryOptions (customer-information §2.3: the home country is excluded)', () => {
  it.each(['SE', 'NO', 'DK', 'FI'] as const)('without %s', (home) => {
    const all = countryOptions('en');
    const options = addressCountryOptions(all, home);
    expect(options.map((o) => o.value)).not.toContain(home);
    expect(options).toHaveLength(all.length - 1);
  });
});

describe('documentsComplete (customer-information §5: at least one attachment to continue)', () => {
  it.each<[ResidencyAnswers, boolean]>([
    [{}, false],
    [{ files: [] }, false],
    [{ files: [{ attachmentId: 'a1', name: 'bill.pdf' }] }, true],
  ])('%j → %s', (given, expected) => {
    expect(documentsComplete(given)).toBe(expected);
  });
});

const saved: ResidencyAnswers = { ...address, address: ' Storgata 1 ', answers: { ...answers, durationAbroad: ' Three years\n' } };

describe('residencyCase (customer-information §7 POST create case)', () => {
  it('sends the trimmed address and answers as taskData, type RESIDENCY, no attachments, no taskId the first time', () => {
    const body = residencyCase('p-1', saved, 'SE');
    expect(body).toEqual({
      prospectId: 'p-1',
      type: 'RESIDENCY',
      taskData: { ...address, ...answers },
      attachments: [],
    });
    expect(createCaseRequest.safeParse(body).success).toBe(true);
  });

  it('reuses the case taskId when going through again', () => {
    expect(residencyCase('p-1', { ...saved, nnxTaskId: 'task-9' }, 'SE')).toMatchObject({ taskId: 'task-9' });
  });

  it.each<[string, ResidencyAnswers]>([
    ['no answers yet', { ...saved, answers: undefined }],
    ['an empty answer', { ...saved, answers: { ...answers, reasonForLivingAbroad: ' ' } }],
    ['no city', { ...saved, city: undefined }],
    ['a home address', { ...saved, addressCountry: 'SE' }],
  ])('is not built with %s', (_name, given) => {
    expect(residencyCase('p-1', given, 'SE')).toBeNull();
  });
});

describe('residencySubmission (customer-information §3 residency data, §7 POST submit residency step)', () => {
  const ready: ResidencyAnswers = {
    ...saved,
    nnxTaskId: 'task-9',
    files: [
      { attachmentId: 'a1', name: 'bill.pdf' },
      { attachmentId: 'a2', name: 'lease.png' },
    ],
  };

  it('sends the address, the three questions with answers in order, the attachments and the case task id', () => {
    const body = residencySubmission(ready, 'SE');
    expect(body).toEqual({
      ...address,
      questionsAndAnswers: [
        { question: 'applicationPurpose', answer: 'Saving' },
        { question: 'reasonForLivingAbroad', answer: 'Work' },
        { question: 'durationAbroad', answer: 'Three years' },
      ],
      attachments: [{ attachmentId: 'a1' }, { attachmentId: 'a2' }],
      nnxTaskId: 'task-9',
    });
    expect(residencyStepRequest.safeParse(body).success).toBe(true);
  });

  it.each<[string, ResidencyAnswers]>([
    ['no document', { ...ready, files: [] }],
    ['no case', { ...ready, nnxTaskId: undefined }],
    ['an answer missing', { ...ready, answers: { applicationPurpose: 'Saving', reasonForLivingAbroad: 'Work' } }],
    ['no country', { ...ready, addressCountry: '' }],
  ])('is not built with %s', (_name, given) => {
    expect(residencySubmission(given, 'SE')).toBeNull();
  });
});

describe('refusedPartsOf (a refused submit names fields)', () => {
  it.each<[string[], ReturnType<typeof refusedPartsOf>]>([
    [[], []],
    [['addressCountry'], ['addressCountry']],
    [['questionsAndAnswers.1.answer', 'questionsAndAnswers.2.answer'], ['questionsAndAnswers']],
    [
      ['attachments.0.attachmentId', 'city'],
      ['city', 'attachments'],
    ],
    [['nnxTaskId', 'somethingElse'], []],
  ])('%j → %j', (fields, expected) => {
    expect(refusedPartsOf(fields)).toEqual(expected);
  });
});
