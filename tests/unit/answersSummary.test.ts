// "Check your answers" before signing (WCAG 2.2 SC 3.3.4): which sections milestone three
// shows, their rows, which get a Change (shared/answersSummarySections.ts), and the KYC answers' texts as shown.
import { describe, expect, it } from 'vitest';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import type { AnswerSessionPage } from '../../shared/contracts/kycContract.ts';
import type { Translate } from '../../shared/i18n.ts';
import { summarySections, translateSummary, withGivenTexts, type KycGivenText, type SummaryAnswers } from '../../shared/answersSummarySections.ts';

const allSteps: StepId[] = [
  'MILESTONE_ONE_STEP',
  'ACCOUNT_PICKER_STEP',
  'ACCOUNT_ALIAS_STEP',
  'MILESTONE_TWO_STEP',
  'CONTACT_INFORMATION_STEP',
  'CITIZENSHIP_STEP',
  'RESIDENCY_STEP',
  'TAX_INFO_STEP',
  'KYC_STEP',
  'MILESTONE_THREE_STEP',
];

/** Messages as `key` or `key{values}`, countries as `name(XX)`: what was asked for, readable. */
const t: Translate = (key, values) => (values ? `${key}${JSON.stringify(values)}` : key);
const countryName = (code: string) => `name(${code})`;

const kyc: KycGivenText[] = [
  { questionId: 83, question: 'What is your occupation?', answers: ['Employed'] },
  { questionId: 86, question: 'Where does the money come from?', answers: ['Salary or pension', 'Inheritance or gift'] },
];

const seAnswers: SummaryAnswers = {
  accounts: ['DEP_SE', 'ISK_SE'],
  accountAlias: { DEP_SE: '  Buffer ', ISK_SE: '' },
  contactInformation: { prefix: '46', phone: '+46 70 123 45 67', email: ' test@example.com ' },
  citizenship: { choice: 'inOfficeCitizenship', countries: [], tasks: {}, attachments: {} },
  taxInformation: { liability: 'inOffice', countries: ['SE'] },
  kyc: { givenTexts: kyc },
};

function shown(steps: readonly StepId[], answers: SummaryAnswers, market: 'SE' | 'NO' | 'DK' | 'FI' = 'SE') {
  return translateSummary(summarySections({ steps, current: steps.indexOf('MILESTONE_THREE_STEP'), market, answers }), t, countryName);
}

describe('summarySections: which sections, in which order, which can be changed', () => {
  it.each([
    {
      why: 'every step answered (SE, lives at home): the list order; KYC without a Change',
      steps: allSteps,
      answers: seAnswers,
      expected: [
        ['accounts', 'ACCOUNT_PICKER_STEP'],
        ['accountNames', 'ACCOUNT_ALIAS_STEP'],
        ['contact', 'CONTACT_INFORMATION_STEP'],
        ['citizenship', 'CITIZENSHIP_STEP'],
        ['tax', 'TAX_INFO_STEP'],
        ['kyc', undefined],
      ],
    },
    {
      why: 'routing chose the accounts (no picker step): shown first, without a Change',
      steps: ['CONTACT_INFORMATION_STEP', 'MILESTONE_THREE_STEP'] as StepId[],
      answers: { accounts: ['DEP_SE'], contactInformation: seAnswers.contactInformation } as SummaryAnswers,
      expected: [
        ['accounts', undefined],
        ['contact', 'CONTACT_INFORMATION_STEP'],
      ],
    },
    {
      why: 'only sections with answers',
      steps: allSteps,
      answers: { accounts: [], kyc: { givenTexts: [] }, citizenship: { countries: [], tasks: {}, attachments: {} }, taxInformation: {} } as SummaryAnswers,
      expected: [],
    },
    {
      why: 'a step after milestone three is not changeable from it',
      steps: ['MILESTONE_THREE_STEP', 'CONTACT_INFORMATION_STEP'] as StepId[],
      answers: { accounts: [], contactInformation: seAnswers.contactInformation } as SummaryAnswers,
      expected: [['contact', undefined]],
    },
  ])('$why', ({ steps, answers, expected }) => {
    expect(shown(steps, answers).map((s) => [s.id, s.changeStep])).toEqual(expected);
  });
});

describe('summarySections: the rows of each section', () => {
  it.each([
    {
      section: 'accounts',
      answers: seAnswers,
      rows: [{ label: 'summary.accounts.label', value: ['account.DEP', 'account.ISK'] }],
    },
    {
      section: 'accountNames',
      // A blank or invalid name is sent as the default name, so that is what shows.
      answers: { ...seAnswers, accounts: ['DEP_SE', 'ISK_SE', 'EPK_NO'], accountAlias: { DEP_SE: '  Buffer ', ISK_SE: '', EPK_NO: 'x' } } as SummaryAnswers,
      rows: [
        { label: 'account.DEP', value: 'Buffer' },
        { label: 'account.ISK', value: 'account.ISK' },
        { label: 'account.EPK', value: 'account.EPK' },
      ],
    },
    {
      section: 'contact',
      // The phone as submitted (E.164), shown in the market's national format; the e-mail trimmed.
      answers: seAnswers,
      rows: [
        { label: 'contactInformation.phone.label', value: '070-123 45 67' },
        { label: 'contactInformation.email.label', value: 'test@example.com' },
      ],
    },
    {
      section: 'contact',
      // The number the contact step stored (E.164) wins over the typed text; another country's number shows internationally.
      answers: {
        accounts: [],
        contactInformation: { prefix: '46', phone: '+358401234567', email: 'a@example.fi', mobilePhoneNumber: '+358401234567' },
      } as SummaryAnswers,
      rows: [
        { label: 'contactInformation.phone.label', value: '+358 40 1234567' },
        { label: 'contactInformation.email.label', value: 'a@example.fi' },
      ],
    },
    {
      section: 'contact',
      // A phone that does not parse shows as typed; an empty e-mail row is left out.
      answers: { accounts: [], contactInformation: { prefix: '46', phone: ' 12 ', email: '' } } as SummaryAnswers,
      rows: [{ label: 'contactInformation.phone.label', value: '12' }],
    },
    {
      section: 'citizenship',
      answers: seAnswers,
      rows: [{ label: 'citizenship.title', value: 'citizenship.onlyHome{"country":"SE"}' }],
    },
    {
      section: 'citizenship',
      // Another citizenship: the countries, and the proof per country other than home.
      answers: {
        accounts: [],
        citizenship: {
          choice: 'otherCitizenships',
          countries: ['SE', 'DE'],
          tasks: { DE: 't-1' },
          attachments: { DE: [{ attachmentId: 'a-1', name: 'passport.pdf' }] },
        },
      } as SummaryAnswers,
      rows: [
        { label: 'citizenship.title', value: 'citizenship.other' },
        { label: 'citizenship.countries.title', value: ['name(SE)', 'name(DE)'] },
        { label: 'citizenship.proof.upload{"country":"name(DE)"}', value: ['passport.pdf'] },
      ],
    },
    {
      section: 'residency',
      answers: {
        accounts: [],
        residency: {
          addressCountry: 'DE',
          address: 'Invalidenstraße 1',
          zipCode: '10115',
          city: 'Berlin',
          answers: { applicationPurpose: 'Saving', reasonForLivingAbroad: 'Work', durationAbroad: '' },
          files: [
            { attachmentId: 'a', name: 'bill.png' },
            { attachmentId: 'b', name: 'lease.pdf' },
          ],
        },
      } as SummaryAnswers,
      rows: [
        { label: 'residency.address.country', value: 'name(DE)' },
        { label: 'residency.address.address', value: 'Invalidenstraße 1' },
        { label: 'residency.address.zipCode', value: '10115' },
        { label: 'residency.address.city', value: 'Berlin' },
        { label: 'residency.question.applicationPurpose', value: 'Saving' },
        { label: 'residency.question.reasonForLivingAbroad', value: 'Work' },
        { label: 'residency.documents.title', value: ['bill.png', 'lease.pdf'] },
      ],
    },
    {
      section: 'tax',
      answers: seAnswers,
      rows: [{ label: 'taxInformation.liability.title', value: 'taxInformation.liability.inOffice{"country":"name(SE)","countryCode":"SE"}' }],
    },
    {
      section: 'tax',
      // Other countries: the countries, a number and start date per foreign one, the tax residence and its proof.
      answers: {
        accounts: [],
        taxInformation: {
          liability: 'other',
          countries: ['SE', 'NO', 'DE'],
          numbers: { NO: { tin: ' 01129955131 ', startDate: '2020-01-01' }, DE: { tin: '', startDate: '' } },
          taxResidenceCountryCode: 'NO',
          residenceProof: { countryCode: 'NO', files: [{ attachmentId: 'p', name: 'certificate.pdf' }] },
        },
      } as SummaryAnswers,
      rows: [
        { label: 'taxInformation.liability.title', value: 'taxInformation.liability.other{"country":"name(SE)","countryCode":"SE"}' },
        { label: 'taxInformation.countries.title', value: ['name(SE)', 'name(NO)', 'name(DE)'] },
        { label: 'summary.tax.number{"country":"name(NO)"}', value: ['01129955131', 'summary.tax.since{"date":"2020-01-01"}'] },
        { label: 'taxInformation.numbers.taxResidence', value: 'name(NO)' },
        { label: 'taxInformation.proof.upload{"country":"name(NO)"}', value: ['certificate.pdf'] },
      ],
    },
    {
      section: 'kyc',
      // The texts as the person saw them, in the order answered.
      answers: seAnswers,
      rows: [
        { label: 'What is your occupation?', value: ['Employed'] },
        { label: 'Where does the money come from?', value: ['Salary or pension', 'Inheritance or gift'] },
      ],
    },
  ])('$section', ({ section, answers, rows }) => {
    const found = shown(allSteps, answers).find((s) => s.id === section);
    expect(found?.title).toBe(`summary.section.${section}`);
    expect(found?.rows).toEqual(rows);
  });
});

describe('withGivenTexts: the KYC answers as shown, in the order answered', () => {
  const page = (questions: { id: number; text: string; options: [number, string][] }[]): AnswerSessionPage => ({
    title: '',
    hasNextPage: true,
    questions: questions.map((q) => ({ id: q.id, text: q.text, type: 'SINGLE_CHOICE', options: q.options.map(([id, text]) => ({ id, text })) })),
  });
  const occupation = page([
    {
      id: 83,
      text: 'Occupation?',
      options: [
        [200, 'Employed'],
        [201, 'Self-employed'],
      ],
    },
  ]);
  const income = page([
    {
      id: 87,
      text: 'Income?',
      options: [
        [214, 'Low'],
        [215, 'High'],
      ],
    },
  ]);
  const funds = page([
    {
      id: 86,
      text: 'Funds?',
      options: [
        [209, 'Salary'],
        [212, 'Gift'],
        [213, 'Property'],
      ],
    },
  ]);

  it.each([
    {
      why: 'the first page',
      steps: [{ page: occupation, answers: [{ questionId: 83, answerIds: [201] }] }],
      expected: [{ questionId: 83, question: 'Occupation?', answers: ['Self-employed'] }],
    },
    {
      why: 'later pages follow, whatever their ids (87 after 83, 86 after 87)',
      steps: [
        { page: occupation, answers: [{ questionId: 83, answerIds: [200] }] },
        { page: income, answers: [{ questionId: 87, answerIds: [215] }] },
        { page: funds, answers: [{ questionId: 86, answerIds: [213, 209] }] },
      ],
      expected: [
        { questionId: 83, question: 'Occupation?', answers: ['Employed'] },
        { questionId: 87, question: 'Income?', answers: ['High'] },
        { questionId: 86, question: 'Funds?', answers: ['Property', 'Salary'] },
      ],
    },
    {
      why: 'answered again after Back: the new answer, in its first place',
      steps: [
        { page: occupation, answers: [{ questionId: 83, answerIds: [200] }] },
        { page: income, answers: [{ questionId: 87, answerIds: [214] }] },
        { page: occupation, answers: [{ questionId: 83, answerIds: [201] }] },
      ],
      expected: [
        { questionId: 83, question: 'Occupation?', answers: ['Self-employed'] },
        { questionId: 87, question: 'Income?', answers: ['Low'] },
      ],
    },
    {
      why: 'an answer for a question not on the page, or an unknown option, adds nothing',
      steps: [
        {
          page: occupation,
          answers: [
            { questionId: 99, answerIds: [1] },
            { questionId: 83, answerIds: [999, 200] },
          ],
        },
      ],
      expected: [{ questionId: 83, question: 'Occupation?', answers: ['Employed'] }],
    },
  ])('$why', ({ steps, expected }) => {
    let given: KycGivenText[] | undefined;
    for (const step of steps) given = withGivenTexts(given, step.page, step.answers);
    expect(given).toEqual(expected);
  });
});
