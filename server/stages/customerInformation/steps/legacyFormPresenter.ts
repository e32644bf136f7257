// The legacy single form's presenter (customer-information.md §2.3 "Legacy single form", §5, §8): from the
// answers, the questionnaire and the translations to the form's fields as views/pages/LegacyFormStepView.tsx
// shows them — accounts, choices, text fields, each with its error, and the error summary in form order.
// Pure: legacyFormView.tsx adds what needs the request (the action, the dialogs, the banner's links) and logs
// the questions left out.
import type { Locale, Translate } from '../../../../shared/i18n.ts';
import { defaultAccounts } from '../../../../shared/accountPicker.ts';
import { aliasErrorKey, defaultNameKey } from '../../../../shared/accountAlias.ts';
import type { CountryCode } from '../../../../shared/contracts/brokerageContract.ts';
import type { Questionnaire } from '../../../../shared/contracts/kycContract.ts';
import { legacyControlOf, type LegacyFieldMessage, type LegacyFieldProblem, type LegacyFormAnswers } from '../../../../shared/legacyProspect.ts';
import { answerText, questionTextKey } from '../../../../shared/legacyQuestionnaire.ts';
import { taxLiabilities } from '../../../../shared/taxInformation.ts';
import { countryName } from '../../../../shared/countries.ts';
import { forMarket, phoneExamples } from '../../../../shared/markets.ts';
import type { ChoiceField, LegacyFormViewProps } from '../../../../views/pages/LegacyFormStepView.tsx';
import type { SummaryLine } from '../../../../views/components/ErrorSummary.tsx';
import { rulesQuestions } from './legacyFormState.ts';
import { formatAmount, formatRange } from '../../../../shared/localeFormats.ts';

/** What the texts depend on: the page's language and the person's market. */
export interface Presenting {
  t: Translate;
  market: CountryCode;
  locale: Locale;
}

/** An answer of the questionnaire as the person reads it: its text, or its band of numbers or amounts as the locale writes them. */
export function answerLabel({ t, locale }: Presenting, questionTag: string, answerTag: string): string {
  const text = answerText(questionTag, answerTag);
  if (text.kind === 'message') return t(text.key);
  if (text.kind === 'unknown') return answerTag;
  const { from, to, currency } = text.band;
  return to === null ? t('legacy.kyc.band.over', { amount: formatAmount(locale, from, currency) }) : formatRange(locale, from, to, currency);
}

type Unanswered = 'additionalInformationNeeded' | 'chooseAnAlternative';
type AliasMessage = 'NOT_LONG_ENOUGH' | 'NOT_SHORT_ENOUGH' | 'CHARACTER_INVALID' | 'ONLY_SPACES';

const fieldMessageKeys: Record<Exclude<LegacyFieldMessage, AliasMessage | Unanswered>, string> = {
  mustChooseOne: 'legacy.error.chooseAccount',
  notOffered: 'legacy.error.notOffered',
  dskQuestionRequired: 'accountPicker.dsk.questionRequired',
  dskLocked: 'accountPicker.dsk.existingWarning',
  confirmExclusive: 'legacy.error.confirmExclusive',
  mandatoryAccountMissing: 'legacy.error.mandatoryAccountMissing',
  phone: 'contactInformation.error.phone',
  phoneMissingPlus: 'contactInformation.error.phoneMissingPlus',
  email: 'contactInformation.error.email',
  required: 'legacy.error.required',
  sensitiveAnswer: 'legacy.error.sensitiveAnswer',
};

/**
 * A rule's problem as its field's message. An unanswered question's message names the question (the error summary
 * lists it away from its legend): its own text for the form's and the known questionnaire questions, else the legend.
 */
export function fieldMessage(t: Translate, problem: LegacyFieldProblem, questions: Questionnaire['questions'] = []): string {
  const m = problem.message;
  if (m === 'NOT_LONG_ENOUGH' || m === 'NOT_SHORT_ENOUGH' || m === 'CHARACTER_INVALID' || m === 'ONLY_SPACES') return t(aliasErrorKey(m));
  if (m === 'required') return t(`legacy.error.required.${problem.field}`);
  if (m === 'additionalInformationNeeded' || m === 'chooseAnAlternative') {
    const id = /^kyc-(\d+)$/.exec(problem.field)?.[1];
    if (id === undefined) return t(`legacy.error.unanswered.${problem.field}`);
    const tag = questions.find((q) => q.question_id === Number(id))?.question_tag ?? '';
    return questionTextKey(tag) ? t(`legacy.error.unanswered.${tag}`) : t('legacy.error.unanswered.question', { question: tag });
  }
  return t(fieldMessageKeys[m]);
}

/** The citizenship, residency and tax-liability choices: as the form offers them, and as the review names the answer. */
export function answerChoices({ t, market, locale }: Presenting) {
  const home = countryName(market, locale);
  return {
    citizenship: [
      opt('inOfficeCitizenship', t('citizenship.onlyHome', { country: market })),
      opt('multipleCitizenship', t('legacy.citizenship.multiple', { country: market })),
      opt('otherCitizenships', t('legacy.citizenship.other', { country: market })),
    ],
    residency: [opt('inOffice', t('legacy.residency.inOffice', { country: market })), opt('other', t('legacy.residency.other', { country: market }))],
    taxLiability: taxLiabilities.map((l) => opt(l, t(`taxInformation.liability.${l}`, { country: home, countryCode: market }))),
  };
}

/** A form field's error, by field name (a rule's problem or a save error). */
type Errors = Record<string, string>;

const idOf = (field: string) => `legacy-${field}`;
const opt = (value: string, label: string) => ({ value, label });

/** A choice question of the form, with its error if any. */
function choiceField(
  errors: Errors,
  field: string,
  legend: string,
  choices: ChoiceField['choices'],
  chosen: readonly string[],
  control: ChoiceField['control'] = 'radios',
  hint?: string,
): ChoiceField {
  return {
    id: idOf(field),
    name: field,
    legend,
    control,
    choices,
    chosen,
    ...(hint ? { hint } : {}),
    ...(errors[field] ? { error: errors[field] } : {}),
  };
}

/** The accounts the market offers, each with its tick, its exclusive confirmation and its name. */
function accountRows({ t, market }: Presenting, answers: LegacyFormAnswers, errors: Errors) {
  return defaultAccounts(market).map((entry) => {
    const account = entry.accountTypeWithCountry;
    const label = t(defaultNameKey(account));
    const exclusiveKey = account === 'DSK_DK' ? 'accountPicker.dsk.dialog' : account === 'ESA_FI' ? 'accountPicker.esa.dialog' : null;
    return {
      account,
      label,
      mandatory: entry.mandatory,
      ticked: entry.mandatory || answers.accounts.includes(account),
      ...(exclusiveKey
        ? { confirm: { label: t(`${exclusiveKey}.checkbox`), text: t(`${exclusiveKey}.text`), ticked: answers.confirmed.includes(account) } }
        : {}),
      alias: {
        id: idOf(`alias-${account}`),
        name: `alias-${account}`,
        label: t('legacy.alias.label', { account: label }),
        value: answers.aliases[account] ?? '',
        ...(errors[`alias-${account}`] ? { error: errors[`alias-${account}`] } : {}),
      },
    };
  });
}

/** The citizenship, residency and tax-liability questions, then the questionnaire's (customer-information §5: only the types it renders). */
function kycFields(p: Presenting, answers: LegacyFormAnswers, questions: Questionnaire['questions'], errors: Errors) {
  const { t } = p;
  const leftOut: { questionId: number; answerType: string }[] = [];
  const choice = (field: string, legend: string, choices: ChoiceField['choices'], chosen: readonly string[], control?: ChoiceField['control'], hint?: string) =>
    choiceField(errors, field, legend, choices, chosen, control, hint);
  const choices = answerChoices(p);
  const kycFields: ChoiceField[] = (['citizenship', 'residency', 'taxLiability'] as const).map((field) => {
    const answer = answers[field];
    return choice(field, t(`legacy.${field}.legend`), choices[field], answer ? [answer] : []);
  });
  for (const q of questions) {
    const control = legacyControlOf(rulesQuestions([q])[0]!);
    // customer-information §5: a question of another type is not rendered (unknownTags logs unknown tags; the type is logged here).
    if (control === null) {
      leftOut.push({ questionId: q.question_id, answerType: q.answer_type });
      continue;
    }
    const key = questionTextKey(q.question_tag);
    kycFields.push(
      choice(
        `kyc-${q.question_id}`,
        key ? t(key) : q.question_tag,
        q.answers.map((a) => opt(String(a.answer_id), answerLabel(p, q.question_tag, a.answer_tag))),
        (answers.kyc[q.question_id] ?? []).map(String),
        control,
        control === 'checkboxes' ? t('legacy.kyc.chooseSeveral') : undefined,
      ),
    );
  }
  return { fields: kycFields, leftOut };
}

/** The person's name and contact fields. */
function textFields({ t, market }: Presenting, answers: LegacyFormAnswers, errors: Errors): LegacyFormViewProps['text'] {
  return [
    {
      id: idOf('firstName'),
      name: 'firstName',
      label: t('legacy.firstName'),
      value: answers.firstName,
      type: 'text',
      autoComplete: 'given-name',
      section: 'person',
    },
    {
      id: idOf('lastName'),
      name: 'lastName',
      label: t('legacy.lastName'),
      value: answers.lastName,
      type: 'text',
      autoComplete: 'family-name',
      hint: t('legacy.lastName.hint'),
      section: 'person',
    },
    {
      id: idOf('phoneNumber'),
      name: 'phoneNumber',
      label: t('contactInformation.phone.label'),
      value: answers.phoneNumber,
      type: 'tel',
      autoComplete: 'tel',
      hint: t('legacy.phoneNumber.hint', { example: forMarket(phoneExamples, market) }),
      section: 'contact',
    },
    {
      id: idOf('email'),
      name: 'email',
      label: t('contactInformation.email.label'),
      value: answers.email,
      type: 'email',
      autoComplete: 'email',
      section: 'contact',
    },
  ].map((f) => (errors[f.name] ? { ...f, error: errors[f.name]! } : f)) as LegacyFormViewProps['text'];
}

/** The error summary, in form order: every field message links to its field; save errors without a field are the banner's. */
function errorSummary(errors: Errors, accounts: readonly { account: string }[], kyc: readonly ChoiceField[]): SummaryLine[] {
  const order = [
    'accounts',
    'dskExisting',
    ...accounts.map((r) => `alias-${r.account}`),
    'nationalId',
    'firstName',
    'lastName',
    'phoneNumber',
    'email',
    ...kyc.map((f) => f.name),
    'investmentRisk',
  ];
  return order.filter((f) => errors[f]).map((f) => [idOf(f), errors[f]!] as const);
}

/** The form's fields with their errors (a save's field errors first, then the rules' problems), and the questions left out (customer-information §5: a type it does not render). */
export function legacyFormFields(
  p: Presenting,
  answers: LegacyFormAnswers,
  questions: Questionnaire['questions'],
  outcome: { problems?: readonly LegacyFieldProblem[]; saveErrors?: Record<string, string> } = {},
) {
  const { t } = p;
  const errors: Errors = { ...outcome.saveErrors };
  for (const problem of outcome.problems ?? []) errors[problem.field] ??= fieldMessage(t, problem, questions);
  const rows = accountRows(p, answers, errors);
  const kyc = kycFields(p, answers, questions, errors);
  const dskQuestion = answers.campaign
    ? choiceField(
        errors,
        'dskExisting',
        t('accountPicker.dsk.question'),
        [opt('yes', t('accountPicker.dsk.yes')), opt('no', t('accountPicker.dsk.no'))],
        answers.dskExisting ? [answers.dskExisting] : [],
      )
    : undefined;
  const risk = choiceField(
    errors,
    'investmentRisk',
    t('legacy.risk.legend'),
    [opt('yes', t('legacy.risk.yes')), opt('no', t('legacy.risk.no'))],
    answers.investmentRisk ? [answers.investmentRisk] : [],
  );
  return {
    errors,
    accounts: { rows, ...(errors.accounts ? { error: errors.accounts } : {}), ...(dskQuestion ? { dskQuestion } : {}) },
    text: textFields(p, answers, errors),
    kyc: kyc.fields,
    risk,
    summary: errorSummary(errors, rows, kyc.fields),
    leftOut: kyc.leftOut,
  };
}
