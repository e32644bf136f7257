// The legacy single form's views (customer-information.md §2.3 "Legacy single form", §5, §8): the form with
// its cards, errors and sensitive answers' dialogs, and the review (check your answers, WCAG 2.2 SC 3.3.4).

import { localeOf, supportPhoneOf } from '../../../pages.ts';
import { defaultAccounts } from '../../../../shared/accountPicker.ts';
import { aliasErrorKey, defaultNameKey } from '../../../../shared/accountAlias.ts';
import { type Questionnaire } from '../../../../shared/contracts/kyc.ts';
import {
  legacyControlOf,
  type FormBanner,
  type LegacyFieldMessage,
  type LegacyFieldProblem,
  type LegacyFormAnswers,
} from '../../../../shared/legacyProspect.ts';
import { answerText, questionTextKey } from '../../../../shared/legacyQuestionnaire.ts';
import { sensitiveAnswerRules } from '../../../../shared/sensitiveAnswers.ts';
import { taxLiabilities } from '../../../../shared/taxInformation.ts';
import { countryName } from '../../../../shared/countries.ts';
import { LegacyFormStep, type ChoiceField, type LegacyBanner, type LegacyFormViewProps } from '../../../../views/pages/LegacyFormStep.tsx';
import { type DialogProps } from '../../../../views/components/Dialog.tsx';
import { complianceDialogProps } from '../../../../views/components/ComplianceDialog.tsx';
import type { SummaryLine } from '../../../../views/components/ErrorSummary.tsx';
import { forMarket, phoneExamples } from '../../../../shared/markets.ts';
import { dialogFields, questionnaireOf, rulesQuestions, type Ctx, type DialogField } from './legacyFormState.ts';

// --- texts -------------------------------------------------------------------------------------------

export type Fmt = (n: number) => string;

export function answerLabel(ctx: Ctx, questionTag: string, answerTag: string, fmt: Fmt): string {
  const text = answerText(questionTag, answerTag);
  if (text.kind === 'message') return ctx.t(text.key);
  if (text.kind === 'unknown') return answerTag;
  const { from, to, currency } = text.band;
  const unit = currency ?? '';
  return to === null
    ? ctx.t('legacy.kyc.band.over', { from: fmt(from), unit }).trim()
    : ctx.t('legacy.kyc.band.range', { from: fmt(from), to: fmt(to), unit }).trim();
}

const fieldMessageKeys: Record<Exclude<LegacyFieldMessage, 'NOT_LONG_ENOUGH' | 'NOT_SHORT_ENOUGH' | 'CHARACTER_INVALID' | 'ONLY_SPACES'>, string> = {
  mustChooseOne: 'accountPicker.mustChooseOne',
  notOffered: 'legacy.error.notOffered',
  dskQuestionRequired: 'accountPicker.dsk.questionRequired',
  dskLocked: 'accountPicker.dsk.existingWarning',
  confirmExclusive: 'legacy.error.confirmExclusive',
  mandatoryAccountMissing: 'legacy.error.mandatoryAccountMissing',
  phone: 'contactInformation.error.phone',
  phoneMissingPlus: 'contactInformation.error.phoneMissingPlus',
  email: 'contactInformation.error.email',
  required: 'legacy.error.required',
  additionalInformationNeeded: 'taxInformation.liability.required',
  chooseAnAlternative: 'legacy.error.chooseAnAlternative',
  sensitiveAnswer: 'legacy.error.sensitiveAnswer',
};

function fieldMessage(ctx: Ctx, problem: LegacyFieldProblem): string {
  const m = problem.message;
  if (m === 'NOT_LONG_ENOUGH' || m === 'NOT_SHORT_ENOUGH' || m === 'CHARACTER_INVALID' || m === 'ONLY_SPACES') return ctx.t(aliasErrorKey(m));
  if (m === 'required') return ctx.t(`legacy.error.required.${problem.field}`);
  return ctx.t(fieldMessageKeys[m]);
}

/** customer-information §8: the banner of a form-level outcome, with the support and manual-signing links. */
function bannerOf(ctx: Ctx, banner: FormBanner): LegacyBanner {
  const { t, deps } = ctx;
  const supportPhone = supportPhoneOf(ctx.req, deps);
  const links = [
    { label: t('legacy.banner.support', { phone: supportPhone }), href: `tel:${supportPhone.replace(/[^+\d]/g, '')}` },
    { label: t('legacy.banner.manualSigning'), href: deps.config.MANUAL_SUPPORT_URL },
  ];
  return { title: t(`legacy.banner.${banner}.title`), text: t(`legacy.banner.${banner}.text`), links: banner === 'inputsAreInvalid' ? [] : links };
}

export function dialogProps(ctx: Ctx, d: DialogField, mode: 'screen' | 'modal'): DialogProps {
  const { t, action, fields, deps, journey } = ctx;
  const rule = sensitiveAnswerRules[d.question];
  const id = `legacy-${d.question}-${mode}`;
  const post = (intent: string) => ({ action, fields: { ...fields(d.screen), intent } });
  // FATCA's texts name the market (country) and may inflect it by its code (countryCode; Finnish: "vain Suomessa").
  const values: Record<string, string> =
    rule.dialog === 'FATCA' ? { country: countryName(journey.country, localeOf(ctx.req, deps)), countryCode: journey.country } : { country: journey.country };
  const base =
    rule.dialog === 'INVESTMENT_RISK'
      ? complianceDialogProps(t, 'INVESTMENT_RISK', { id, values, primary: post('confirm'), secondary: post('cancel') })
      : complianceDialogProps(t, rule.dialog, {
          id,
          values,
          primary: post('confirm'),
          secondary: post('cancel'),
          manualFormBase: deps.config.MANUAL_SUPPORT_URL,
        });
  // On the legacy form the way on with such an answer is the manual form (the dialog's link); cancel only keeps the
  // answer. The steps' citizenship and residency dialogs speak of the next steps, which the legacy form has not:
  // their own texts here, and residency's primary action answers the question instead of "Continue".
  return {
    ...base,
    ...(rule.dialog === 'CITIZENSHIP' ? { text: [t('legacy.dialog.citizenship.text')] } : {}),
    ...(rule.dialog === 'RESIDENCY'
      ? {
          text: [t('legacy.dialog.residency.text')],
          primary: { ...base.primary, label: t('legacy.residency.inOffice', { country: journey.country }) },
        }
      : {}),
    secondary: { ...post('cancel'), label: t('complianceDialog.cancel') },
    ...(mode === 'modal' ? { closes: ['primary', 'secondary'] as const } : {}),
  } as DialogProps;
}

// --- the form's view ---------------------------------------------------------------------------------

/** The citizenship, residency and tax-liability choices: as the form offers them, and as the review names the answer. */
export function answerChoices(ctx: Ctx) {
  const { t, journey } = ctx;
  const market = journey.country;
  const home = countryName(market, localeOf(ctx.req, ctx.deps));
  const opt = (value: string, label: string) => ({ value, label });
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

export interface FormOutcome {
  problems?: readonly LegacyFieldProblem[];
  /** Field errors from saving (customer-information §8), by field. */
  saveErrors?: Record<string, string>;
  banner?: FormBanner;
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
function accountRows(ctx: Ctx, answers: LegacyFormAnswers, errors: Errors) {
  const { t, journey } = ctx;
  const market = journey.country;
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
function kycFields(ctx: Ctx, answers: LegacyFormAnswers, questions: Questionnaire['questions'], errors: Errors): ChoiceField[] {
  const { t, deps } = ctx;
  const locale = localeOf(ctx.req, deps);
  const fmt: Fmt = (n) => new Intl.NumberFormat(locale).format(n);
  const choice = (field: string, legend: string, choices: ChoiceField['choices'], chosen: readonly string[], control?: ChoiceField['control'], hint?: string) =>
    choiceField(errors, field, legend, choices, chosen, control, hint);
  const choices = answerChoices(ctx);
  const kycFields: ChoiceField[] = (['citizenship', 'residency', 'taxLiability'] as const).map((field) => {
    const answer = answers[field];
    return choice(field, t(`legacy.${field}.legend`), choices[field], answer ? [answer] : []);
  });
  for (const q of questions) {
    const control = legacyControlOf(rulesQuestions([q])[0]!);
    // customer-information §5: a question of another type is not rendered (unknownTags logs unknown tags; the type is logged here).
    if (control === null) {
      deps.logger.warn({ questionId: q.question_id, answerType: q.answer_type }, 'legacy form: question of an unknown answer type left out');
      continue;
    }
    const key = questionTextKey(q.question_tag);
    kycFields.push(
      choice(
        `kyc-${q.question_id}`,
        key ? t(key) : q.question_tag,
        q.answers.map((a) => opt(String(a.answer_id), answerLabel(ctx, q.question_tag, a.answer_tag, fmt))),
        (answers.kyc[q.question_id] ?? []).map(String),
        control,
        control === 'checkboxes' ? t('legacy.kyc.chooseSeveral') : undefined,
      ),
    );
  }
  return kycFields;
}

/** The person's name and contact fields. */
function textFields(ctx: Ctx, answers: LegacyFormAnswers, errors: Errors): LegacyFormViewProps['text'] {
  const { t, journey } = ctx;
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
      hint: t('legacy.phoneNumber.hint', { example: forMarket(phoneExamples, journey.country) }),
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

export async function formView(ctx: Ctx, answers: LegacyFormAnswers, outcome: FormOutcome = {}, known?: Questionnaire['questions']) {
  const { t, journey, deps } = ctx;
  const questions = known ?? (await questionnaireOf(ctx));
  const errors: Errors = { ...outcome.saveErrors };
  for (const p of outcome.problems ?? []) errors[p.field] ??= fieldMessage(ctx, p);
  const rows = accountRows(ctx, answers, errors);
  const kyc = kycFields(ctx, answers, questions, errors);
  const dskQuestion = answers.campaign
    ? choiceField(
        errors,
        'dskExisting',
        t('accountPicker.dsk.question'),
        [opt('yes', t('accountPicker.dsk.yes')), opt('no', t('accountPicker.dsk.no'))],
        answers.dskExisting ? [answers.dskExisting] : [],
      )
    : undefined;
  const summary = errorSummary(errors, rows, kyc);

  return (
    <LegacyFormStep
      action={`${ctx.action}?shouldUseLegacyFlow=true`}
      fields={ctx.fields('form')}
      texts={{
        title: t('legacy.title'),
        intro: t('legacy.intro'),
        accounts: t('accountPicker.title'),
        accountsLegend: t('legacy.accounts.legend'),
        aliasesTitle: t('accountAlias.title'),
        aliasesHint: t('legacy.alias.hint'),
        person: t('legacy.person.title'),
        contact: t('contactInformation.title'),
        kyc: t('legacy.kyc.title'),
        kycIntro: t('legacy.kyc.intro'),
        risk: t('legacy.risk.title'),
        sign: t('legacy.sign'),
        errorSummary: t('form.error.summary'),
        chooseOption: t('kyc.select.placeholder'),
      }}
      {...(outcome.banner ? { banner: bannerOf(ctx, outcome.banner) } : {})}
      errors={summary}
      accounts={{ rows, ...(errors.accounts ? { error: errors.accounts } : {}), ...(dskQuestion ? { dskQuestion } : {}) }}
      nationalId={{
        label: t('legacy.nationalId.label'),
        value: journey.natregno ?? '',
        hint: t('legacy.nationalId.hint'),
        minorLink: { label: t('legacy.nationalId.minorLink'), href: deps.config.MINOR_FORM_URL },
        ...(errors.nationalId ? { error: errors.nationalId } : {}),
      }}
      text={textFields(ctx, answers, errors)}
      kyc={kyc}
      risk={choiceField(
        errors,
        'investmentRisk',
        t('legacy.risk.legend'),
        [opt('yes', t('legacy.risk.yes')), opt('no', t('legacy.risk.no'))],
        answers.investmentRisk ? [answers.investmentRisk] : [],
      )}
      dialogs={dialogFields
        .filter((d) => d.field !== 'kyc-84' || questions.some((q) => q.question_id === 84))
        .map((d) => {
          const rule = sensitiveAnswerRules[d.question];
          return {
            props: dialogProps(ctx, d, 'modal'),
            watcher: { name: d.field, sensitive: rule.sensitive.map(String), resetTo: String(rule.resetTo), dialogId: `legacy-${d.question}-modal` },
          };
        })}
    />
  );
}
