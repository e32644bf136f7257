// The legacy form's presenter (server/stages/customerInformation/steps/legacyFormPresenter.ts), table-driven:
// from the answers, the questionnaire and the translations to the form's fields, their errors and the
// error summary. The translator answers the key (and its values), so each row reads which text is used.
import { describe, expect, it } from 'vitest';
import { legacyFormFields, type Presenting } from '../../server/stages/customerInformation/steps/legacyFormPresenter.ts';
import type { LegacyFieldProblem, LegacyFormAnswers } from '../../shared/legacyProspect.ts';
import type { Questionnaire } from '../../shared/contracts/kycContract.ts';

const t: Presenting['t'] = (key, values) => (values ? `${key} ${JSON.stringify(values)}` : key);
const se: Presenting = { t, market: 'SE', locale: 'sv-SE' };
const dk: Presenting = { t, market: 'DK', locale: 'da-DK' };

const answers = (over: Partial<LegacyFormAnswers> = {}): LegacyFormAnswers => ({
  accounts: [],
  confirmed: [],
  campaign: false,
  aliases: {},
  phoneNumber: '',
  email: '',
  firstName: '',
  lastName: '',
  kyc: {},
  ...over,
});

/** A question with answers numbered from `firstAnswer`. */
const question = (id: number, tag: string, type: string, answerTags: string[], firstAnswer = 1) => ({
  question_id: id,
  question_tag: tag,
  answer_type: type,
  answers: answerTags.map((answerTag, n) => ({ answer_id: firstAnswer + n, answer_tag: answerTag })),
});
const questions: Questionnaire['questions'] = [
  question(83, 'occupation', 'SINGLE_CHOICE', ['student', 'employed']),
  question(90, 'purpose', 'MULTIPLE_CHOICE', ['savings'], 5),
  question(99, 'freeText', 'FREE_TEXT', []),
];

const required = (field: string): LegacyFieldProblem => ({ field, message: 'required' }) as LegacyFieldProblem;

describe('legacyFormFields', () => {
  it.each<[string, Presenting, LegacyFormAnswers, Parameters<typeof legacyFormFields>[3], (f: ReturnType<typeof legacyFormFields>) => unknown, unknown]>([
    ['no errors: an empty summary', se, answers(), {}, (f) => f.summary, []],
    [
      'the rules’ problems: each field’s own text, the summary in form order linking to the field',
      se,
      answers(),
      { problems: [required('lastName'), required('firstName'), required('investmentRisk')] },
      (f) => f.summary,
      [
        ['legacy-firstName', 'legacy.error.required.firstName'],
        ['legacy-lastName', 'legacy.error.required.lastName'],
        ['legacy-investmentRisk', 'legacy.error.required.investmentRisk'],
      ],
    ],
    [
      'a save’s field error comes before the rules’ problem of the same field',
      se,
      answers(),
      { saveErrors: { email: 'saved' }, problems: [{ field: 'email', message: 'email' } as LegacyFieldProblem] },
      (f) => f.text.find((x) => x.name === 'email')?.error,
      'saved',
    ],
    [
      'the questionnaire’s questions after the three choices; a type the form does not render left out',
      se,
      answers(),
      {},
      (f) => f.kyc.map((k) => [k.name, k.control]),
      [
        ['citizenship', 'radios'],
        ['residency', 'radios'],
        ['taxLiability', 'radios'],
        ['kyc-83', 'radios'],
        ['kyc-90', 'checkboxes'],
      ],
    ],
    ['the questions left out, for the log', se, answers(), {}, (f) => f.leftOut, [{ questionId: 99, answerType: 'FREE_TEXT' }]],
    ['a question’s chosen answers as the form’s values', se, answers({ kyc: { 90: [5] } }), {}, (f) => f.kyc.find((k) => k.name === 'kyc-90')?.chosen, ['5']],
    ['several answers: the hint says so', se, answers(), {}, (f) => f.kyc.find((k) => k.name === 'kyc-90')?.hint, 'legacy.kyc.chooseSeveral'],
    ['no campaign: no DSK question', dk, answers(), {}, (f) => 'dskQuestion' in f.accounts, false],
    ['the Danish campaign: the DSK question', dk, answers({ campaign: true, dskExisting: 'no' }), {}, (f) => f.accounts.dskQuestion?.chosen, ['no']],
    [
      'the phone hint names the market’s own example',
      se,
      answers(),
      {},
      (f) => f.text.find((x) => x.name === 'phoneNumber')?.hint?.startsWith('legacy.phoneNumber.hint'),
      true,
    ],
    ['a mandatory account is always ticked', dk, answers(), {}, (f) => f.accounts.rows.filter((r) => r.mandatory).every((r) => r.ticked), true],
    [
      'the accounts error on the accounts',
      se,
      answers(),
      { problems: [{ field: 'accounts', message: 'mustChooseOne' } as LegacyFieldProblem] },
      (f) => f.accounts.error,
      'legacy.error.chooseAccount',
    ],
    [
      'an unanswered question: its message names it (a known tag its own text, another its legend)',
      se,
      answers(),
      {
        problems: [
          { field: 'citizenship', message: 'additionalInformationNeeded' },
          { field: 'kyc-83', message: 'chooseAnAlternative' },
          { field: 'kyc-90', message: 'chooseAnAlternative' },
          { field: 'investmentRisk', message: 'chooseAnAlternative' },
        ] as LegacyFieldProblem[],
      },
      (f) => f.summary,
      [
        ['legacy-citizenship', 'legacy.error.unanswered.citizenship'],
        ['legacy-kyc-83', 'legacy.error.unanswered.occupation'],
        ['legacy-kyc-90', 'legacy.error.unanswered.question {"question":"purpose"}'],
        ['legacy-investmentRisk', 'legacy.error.unanswered.investmentRisk'],
      ],
    ],
  ])('%s', (_name, presenting, given, outcome, read, expected) => {
    expect(read(legacyFormFields(presenting, given, questions, outcome))).toEqual(expected);
  });
});
