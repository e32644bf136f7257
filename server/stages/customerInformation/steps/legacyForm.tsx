// The legacy single form, EXISTING_STEP (customer-information.md §2.1, §2.3 "Legacy single form", §3, §4.9,
// §4.10, §5, §7, §8): every question on one page, one post. Its screens:
//   form     the cards; 'Sign agreements' checks everything (shared/legacyProspect.ts legacyFormProblems) and
//            goes to the first sensitive answer's dialog, else back with the errors, else to review
//   review   check your answers (WCAG 2.2 SC 3.3.4): a Change per section back to the form; 'Sign' saves —
//            regulation, prospect update, signing URL (customer-information §4.9) — and goes to signing
//   *Dialog  a sensitive answer's dialog as a screen (without JavaScript; with it the form opens the same
//            dialog as a modal): confirm puts the answer back to the harmless one, cancel keeps it
// What the person typed is kept in the session on every post, whatever happens next.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { stepOf, type Screen, type StepContext } from '../stepModule.ts';
import { localeOf, publicOriginOf, supportPhoneOf } from '../../../pages.ts';
import { UpstreamError } from '../../../upstream/http.ts';
import type { LegacyFormState } from '../../../journey.ts';
import { legacySaveAttempt } from '../saveAttempts.ts';
import { defaultAccounts, isDanishCampaign } from '../../../../shared/accountPicker.ts';
import { aliasErrorKey, defaultNameKey } from '../../../../shared/accountAlias.ts';
import { answeredPhone, checkContact, defaultPhonePrefix, formatPhone, validatePhone } from '../../../../shared/contactInformation.ts';
import { carryQuery } from '../../../../shared/carriedQuery.ts';
import { accountTypesWithCountry, type AccountTypeWithCountry, type CountryCode } from '../../../../shared/contracts/brokerage.ts';
import { QUESTIONNAIRE_PERSON, type Questionnaire } from '../../../../shared/contracts/kyc.ts';
import {
  legacyControlOf,
  legacyFormProblems,
  legacySubmission,
  prospectUpdateErrors,
  prospectUpdatePayload,
  regulationOutcome,
  regulationPayload,
  saveBanner,
  type FormBanner,
  type LegacyFieldMessage,
  type LegacyFieldProblem,
  type LegacyFormAnswers,
  type LegacyQuestion,
  type SaveError,
} from '../../../../shared/legacyProspect.ts';
import { answerText, orderedQuestions, questionTextKey, unknownTags } from '../../../../shared/legacyQuestionnaire.ts';
import {
  citizenshipAnswers,
  investmentRiskAnswers,
  residencyAnswers,
  sensitiveAnswerRules,
  type SensitiveQuestionAnswers,
} from '../../../../shared/sensitiveAnswers.ts';
import { taxLiabilities } from '../../../../shared/taxInformation.ts';
import { countryName } from '../../../../shared/countries.ts';
import { reopenableSigningUrl, signingReturnUrls } from '../../../../shared/signingReturn.ts';
import { LegacyFormStep, type ChoiceField, type LegacyBanner, type LegacyFormViewProps } from '../../../../views/pages/LegacyFormStep.tsx';
import { LegacyReview } from '../../../../views/pages/LegacyReview.tsx';
import { Dialog, type DialogProps } from '../../../../views/components/Dialog.tsx';
import { complianceDialogProps } from '../../../../views/components/ComplianceDialog.tsx';
import type { SummaryLine } from '../../../../views/components/ErrorSummary.tsx';
import { forMarket, phoneExamples } from '../../../../shared/markets.ts';

type LegacyScreen = 'form' | 'review' | DialogField['screen'];
type Ctx = StepContext<LegacyScreen>;
const { defineStep, screen, goTo, again } = stepOf<LegacyScreen>();

// --- the post ----------------------------------------------------------------------------------------

// Fields as an HTML form posts them: one value or several. Each falls back on its own (.catch), so one odd
// field never drops the others' input; lengths capped so a hostile post cannot bloat the session.
const one = (max: number) => z.string().max(max).catch('');
const many = z
  .union([z.string().max(40), z.array(z.string().max(40)).max(40)])
  .optional()
  .catch(undefined)
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
const choiceOf = <T extends string>(values: readonly T[]) =>
  z
    .enum(values as [T, ...T[]])
    .optional()
    .catch(undefined);
const isAccount = (v: string): v is AccountTypeWithCountry => (accountTypesWithCountry as readonly string[]).includes(v);

const formBody = z
  .object({
    accounts: many,
    confirmed: many,
    dskExisting: choiceOf(['yes', 'no'] as const),
    phoneNumber: one(40),
    email: one(320),
    firstName: one(100),
    lastName: one(100),
    citizenship: choiceOf(citizenshipAnswers),
    residency: choiceOf(residencyAnswers),
    taxLiability: choiceOf(taxLiabilities),
    investmentRisk: choiceOf(investmentRiskAnswers),
  })
  // alias-<ACCOUNT> and kyc-<questionId>: names that carry their key.
  .catchall(z.unknown());

const MAX_QUESTIONS = 100;

function answersFrom(body: z.infer<typeof formBody>, campaign: boolean): LegacyFormAnswers {
  const aliases: LegacyFormAnswers['aliases'] = {};
  const kyc: LegacyFormAnswers['kyc'] = {};
  for (const [name, value] of Object.entries(body)) {
    const alias = /^alias-([A-Z]{3}_[A-Z]{2})$/.exec(name);
    if (alias && isAccount(alias[1]!) && typeof value === 'string') aliases[alias[1]] = value.slice(0, 60);
    const question = /^kyc-(\d{1,6})$/.exec(name);
    // At most as many questions as a questionnaire has (shared/contracts/kyc.ts), so a hostile post cannot bloat the session.
    if (question && Object.keys(kyc).length < MAX_QUESTIONS) {
      const ids = many.parse(value).filter((v) => /^\d{1,9}$/.test(v));
      if (ids.length > 0) kyc[Number(question[1])] = ids.map(Number);
    }
  }
  return {
    accounts: body.accounts.filter(isAccount),
    confirmed: body.confirmed.filter(isAccount),
    campaign,
    ...(body.dskExisting ? { dskExisting: body.dskExisting } : {}),
    aliases,
    phoneNumber: body.phoneNumber,
    email: body.email,
    firstName: body.firstName,
    lastName: body.lastName,
    ...(body.citizenship ? { citizenship: body.citizenship } : {}),
    ...(body.residency ? { residency: body.residency } : {}),
    ...(body.taxLiability ? { taxLiability: body.taxLiability } : {}),
    kyc,
    ...(body.investmentRisk ? { investmentRisk: body.investmentRisk } : {}),
  };
}

// --- state -------------------------------------------------------------------------------------------

function stateOf(ctx: Ctx): LegacyFormState | undefined {
  return ctx.ci.answers?.legacy;
}

/** The form's answers: as last posted, else what the earlier steps (the flow without the KYC flag) and the brokerage already know. */
async function currentAnswers(ctx: Ctx): Promise<LegacyFormAnswers> {
  const kept = stateOf(ctx)?.form;
  if (kept) return kept;
  const { ci, journey } = ctx;
  const picked = ci.answers?.accountPicker;
  const contact = ci.answers?.contactInformation;
  // The contact step's number (E.164) shown as the person reads it, which the form's check reads back as the
  // same number (shared/contactInformation.ts formatPhone); a number that step did not accept, as typed.
  const contactPhone = contact ? answeredPhone(contact) : null;
  let phoneNumber = contactPhone ? formatPhone(contactPhone, journey.country) : (contact?.phone ?? '');
  let email = contact?.email ?? '';
  if (!contact) {
    try {
      const known = await ctx.brokerage.contactRelatedData(ctx.prospectId);
      phoneNumber = known.mobilePhoneNumber ? formatPhone(known.mobilePhoneNumber, journey.country) : '';
      email = known.email ?? '';
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      ctx.deps.logger.warn({ status: err.status }, 'legacy form: contact related data unavailable');
    }
  }
  const liability = ci.answers?.taxInformation?.liability;
  const citizenship = ci.answers?.citizenship?.choice;
  return {
    accounts: picked?.accounts ?? ci.accounts,
    confirmed: picked?.confirmed ?? [],
    campaign: isDanishCampaign(journey.country, journey.campaign),
    ...(picked?.dskExisting ? { dskExisting: picked.dskExisting } : {}),
    aliases: { ...ci.answers?.accountAlias },
    phoneNumber,
    email,
    firstName: '',
    lastName: '',
    ...(citizenship ? { citizenship } : {}),
    ...(liability ? { taxLiability: liability } : {}),
    kyc: {},
  };
}

/** Keeps the answers (and what saving gave). Answers the person changed void a signing order handed out for the old ones. */
function keep(ctx: Ctx, form: LegacyFormAnswers, extra: Partial<LegacyFormState> = {}): LegacyFormState {
  ctx.ci.answers ??= {};
  const { signingUrl, orderKey, handedOutAt, ended, ...before }: Partial<LegacyFormState> = ctx.ci.answers.legacy ?? {};
  const unchanged = signingUrl !== undefined && JSON.stringify(before.form) === JSON.stringify(form);
  const order = { signingUrl, orderKey, handedOutAt, ended };
  const state: LegacyFormState = { ...before, ...(unchanged ? definedOnly(order) : {}), form, ...extra };
  ctx.ci.answers.legacy = state;
  return state;
}

/** The fields of `value` that are set (the session's state has no undefined fields). */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// --- the questionnaire -------------------------------------------------------------------------------

/** customer-information §7: GET questionnaire 8 in the page's language for the person's market (its bands' currency). */
async function questionnaireOf(ctx: Ctx): Promise<Questionnaire['questions']> {
  const locale = localeOf(ctx.req, ctx.deps);
  const questions = orderedQuestions((await ctx.brokerage.questionnaire(QUESTIONNAIRE_PERSON, `${locale.slice(0, 2)}-${ctx.journey.country}`)).questions);
  const unknown = unknownTags(questions);
  // customer-information §8: an unknown KYC tag is logged (tags only; they are the brokerage's, no personal data).
  if (unknown.length > 0) ctx.deps.logger.warn({ tags: unknown }, 'legacy form: questionnaire tags without a text');
  return questions;
}

/** The questions the rules check: those with a control (customer-information §5: other types are not rendered). */
const rulesQuestions = (questions: Questionnaire['questions']): LegacyQuestion[] =>
  questions.map((q) => ({ id: q.question_id, type: q.answer_type, options: q.answers.map((a) => ({ id: a.answer_id })) }));

// --- texts -------------------------------------------------------------------------------------------

type Fmt = (n: number) => string;

function answerLabel(ctx: Ctx, questionTag: string, answerTag: string, fmt: Fmt): string {
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

/** customer-information §8: the field each save error belongs to (null: the banner only). */
function saveErrorFields(error: SaveError, answers: LegacyFormAnswers): string[] {
  switch (error) {
    case 'notOldEnough':
      return ['nationalId'];
    case 'mobileNumber':
      return ['phoneNumber'];
    case 'email':
      return ['email'];
    case 'doubleName': {
      const several = (name: string) => name.trim().split(/\s+/).length > 1;
      return ['firstName', 'lastName'].filter((f) => several(f === 'firstName' ? answers.firstName : answers.lastName));
    }
    default:
      return [];
  }
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

// --- dialogs -----------------------------------------------------------------------------------------

/** The sensitive answers of the form and their dialogs (shared/sensitiveAnswers.ts), in form order. */
const dialogFields = [
  { field: 'citizenship', screen: 'citizenshipDialog', question: 'citizenship' },
  { field: 'residency', screen: 'residencyDialog', question: 'residency' },
  { field: 'taxLiability', screen: 'crsDialog', question: 'taxLiability' },
  { field: 'kyc-84', screen: 'pepDialog', question: 'pep' },
  { field: 'investmentRisk', screen: 'riskDialog', question: 'investmentRisk' },
] as const;
type DialogField = (typeof dialogFields)[number];

function dialogProps(ctx: Ctx, d: DialogField, mode: 'screen' | 'modal'): DialogProps {
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

/** The first answer that needs its dialog confirmed away before signing. */
const firstSensitive = (problems: readonly LegacyFieldProblem[]): DialogField | undefined =>
  dialogFields.find((d) => problems.some((p) => p.field === d.field && p.message === 'sensitiveAnswer'));

// --- the form's view ---------------------------------------------------------------------------------

/** The citizenship, residency and tax-liability choices: as the form offers them, and as the review names the answer. */
function answerChoices(ctx: Ctx) {
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

interface FormOutcome {
  problems?: readonly LegacyFieldProblem[];
  /** Field errors from saving (customer-information §8), by field. */
  saveErrors?: Record<string, string>;
  banner?: FormBanner;
}

async function formView(ctx: Ctx, answers: LegacyFormAnswers, outcome: FormOutcome = {}, known?: Questionnaire['questions']) {
  const { t, journey, deps } = ctx;
  const locale = localeOf(ctx.req, deps);
  const questions = known ?? (await questionnaireOf(ctx));
  const fmt: Fmt = (n) => new Intl.NumberFormat(locale).format(n);
  const market = journey.country;

  const errors: Record<string, string> = { ...outcome.saveErrors };
  for (const p of outcome.problems ?? []) errors[p.field] ??= fieldMessage(ctx, p);
  const idOf = (field: string) => `legacy-${field}`;

  const offered = defaultAccounts(market);
  const rows = offered.map((entry) => {
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

  const choice = (
    field: string,
    legend: string,
    choices: ChoiceField['choices'],
    chosen: readonly string[],
    control: ChoiceField['control'] = 'radios',
    hint?: string,
  ): ChoiceField => ({
    id: idOf(field),
    name: field,
    legend,
    control,
    choices,
    chosen,
    ...(hint ? { hint } : {}),
    ...(errors[field] ? { error: errors[field] } : {}),
  });
  const opt = (value: string, label: string) => ({ value, label });

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

  const dskQuestion = answers.campaign
    ? choice(
        'dskExisting',
        t('accountPicker.dsk.question'),
        [opt('yes', t('accountPicker.dsk.yes')), opt('no', t('accountPicker.dsk.no'))],
        answers.dskExisting ? [answers.dskExisting] : [],
      )
    : undefined;

  const textFields: LegacyFormViewProps['text'] = [
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

  // The error summary, in form order: every field message links to its field; save errors without a field are the banner's.
  const order = [
    'accounts',
    'dskExisting',
    ...rows.map((r) => `alias-${r.account}`),
    'nationalId',
    'firstName',
    'lastName',
    'phoneNumber',
    'email',
    ...kycFields.map((f) => f.name),
    'investmentRisk',
  ];
  const summary: SummaryLine[] = order.filter((f) => errors[f]).map((f) => [idOf(f), errors[f]!] as const);

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
      text={textFields}
      kyc={kycFields}
      risk={choice(
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

// --- saving (customer-information §4.9) ----------------------------------------------------------------

/** Regulation, prospect update, signing URL; each refusal back on the form with its §8 text. */
async function save(ctx: Ctx, answers: LegacyFormAnswers, questions: Questionnaire['questions']) {
  const { journey, deps, brokerage, prospectId, req } = ctx;
  const market: CountryCode = journey.country;
  const state = stateOf(ctx);
  const submission = legacySubmission(answers);
  const nationalId = journey.natregno ?? '';
  const back = async (errors: SaveError[]) => {
    const saveErrors: Record<string, string> = {};
    for (const error of errors) for (const field of saveErrorFields(error, answers)) saveErrors[field] = ctx.t(`legacy.fieldError.${error}`);
    keep(ctx, answers, { fieldErrors: saveErrors });
    deps.logger.warn({ errors }, 'legacy form: saving refused');
    const banner = saveBanner(errors);
    return again(await formView(ctx, answers, { saveErrors, ...(banner ? { banner } : {}) }, questions), errors.includes('highRisk') ? 403 : 422, {
      screen: 'form',
    });
  };

  // The attempt, kept before its first call: a Sign after a timeout repeats these calls under the same keys.
  const { attempt, regulationId } = await legacySaveAttempt(brokerage, state, answers, (id) =>
    regulationPayload(submission, { market, nationalId, addressCountry: market, regulationId: id }),
  );
  keep(ctx, answers, { saveAttempt: attempt, ...(regulationId ? { regulationId } : {}) });

  // 1. The regulation (sent with the earlier one's id, so a second attempt updates it).
  const regulation = regulationOutcome(await brokerage.createRegulation(attempt.regulation, attempt.id));
  keep(ctx, answers, {
    saveAttempt: { ...attempt, regulationAnswered: true },
    ...(regulation.kind === 'success' ? { regulationId: regulation.regulationId } : {}),
  });
  if (regulation.kind !== 'success') return back([regulation.kind]);

  // 2. The prospect.
  const contact = checkContact({ prefix: defaultPhonePrefix(market), phone: answers.phoneNumber, email: answers.email });
  const update = await brokerage.updateProspect(
    prospectId,
    prospectUpdatePayload(submission, {
      market,
      nationalId,
      phoneNumber: contact.ok ? contact.mobilePhoneNumber : answers.phoneNumber,
      email: answers.email,
      firstName: answers.firstName,
      lastName: answers.lastName,
      citizen: market,
      regulationId: regulation.regulationId,
    }),
  );
  if (!update.ok) return back(prospectUpdateErrors(update.fields, answers));

  // 3. The signing URL (legacy variant: nextUrl, the entry's query params, the EPK flag). The order's key is kept with
  // the attempt before the call, so a Sign after a timeout sends the same request (the same Idempotency-Key) and gets
  // the signing session the first try created; once this attempt's order was handed out and has ended (cancelled,
  // postponed, expired: the review did not re-open it), the next order gets a new key and so a new signing session.
  const saved = stateOf(ctx);
  const asked = saved?.saveAttempt?.orderKey;
  const orderKey = asked !== undefined && saved?.orderKey !== asked ? asked : randomUUID();
  keep(ctx, answers, { saveAttempt: { ...(saved?.saveAttempt ?? attempt), orderKey } });
  const returns = signingReturnUrls({
    publicUrl: publicOriginOf(req, deps),
    prospectId,
    webview: journey.webview,
    nativeAppScheme: deps.config.NATIVE_APP_SCHEME,
    orderKey,
  });
  const signatureRequest = {
    ...returns,
    lang: localeOf(req, deps).slice(0, 2),
    // Where the person goes on after signing: customer creation (the app's create deep link in its webview).
    nextUrl: returns.complete_url,
    // Kept to shared/carriedQuery.ts's limits at entry; applied again for a session kept from before those limits.
    queryParams: carryQuery(journey.queryParams).kept,
    epk: answers.accounts.includes('EPK_NO'),
  };
  const signature = await brokerage.requestLegacySignature(prospectId, signatureRequest, attempt.id);
  if (!signature.ok) return back(['highRisk']);
  keep(ctx, answers, { signingUrl: signature.url, orderKey, handedOutAt: deps.now(), fieldErrors: {} });
  return { kind: 'redirect', url: signature.url } as const;
}

// --- the screens -------------------------------------------------------------------------------------

const form = screen({
  input: formBody,
  async view(ctx) {
    const answers = await currentAnswers(ctx);
    const kept = stateOf(ctx)?.fieldErrors;
    return formView(ctx, answers, kept && Object.keys(kept).length > 0 ? { saveErrors: kept } : {});
  },
  async submit(ctx, body) {
    const posted = answersFrom(body, isDanishCampaign(ctx.journey.country, ctx.journey.campaign));
    // Kept before the questionnaire call, so its failure loses nothing typed; then only its own questions are kept.
    keep(ctx, posted, { fieldErrors: {} });
    const questions = await questionnaireOf(ctx);
    const asked = new Set(questions.map((q) => q.question_id));
    const answers: LegacyFormAnswers = { ...posted, kyc: Object.fromEntries(Object.entries(posted.kyc).filter(([id]) => asked.has(Number(id)))) };
    keep(ctx, answers);
    const problems = legacyFormProblems(answers, { market: ctx.journey.country, questions: rulesQuestions(questions) });
    const sensitive = firstSensitive(problems);
    if (sensitive) return goTo(sensitive.screen);
    // customer-information §4.9: an invalid section sends nothing; every field's problem is shown at once.
    if (problems.length > 0) return again(await formView(ctx, answers, { problems, banner: 'inputsAreInvalid' }, questions));
    return goTo('review');
  },
});

/** The review's sections, each the id of a card of the form (views/pages/LegacyFormStep.tsx). */
const reviewSections = ['accounts', 'person', 'contact', 'kyc', 'risk'] as const;

const review = screen({
  input: z.object({ intent: z.enum(['sign', 'change']).catch('change'), section: z.enum(reviewSections).optional().catch(undefined) }),
  async view(ctx) {
    const answers = await currentAnswers(ctx);
    const questions = await questionnaireOf(ctx);
    return reviewView(ctx, answers, questions);
  },
  async submit(ctx, input) {
    if (input.intent === 'change') {
      // The form again, at the card to change (its heading).
      return goTo('form', input.section ? `legacy-${input.section}-title` : undefined);
    }
    // Back from the signing page with nothing changed: the same signing again, no second save (customer-information §4.8),
    // while that order can still be signed (not cancelled, postponed or past SIGNING_ORDER_LIFETIME_MS).
    const kept = reopenableSigningUrl(stateOf(ctx), ctx.deps.now(), ctx.deps.config.SIGNING_ORDER_LIFETIME_MS);
    if (kept) return { kind: 'redirect', url: kept };
    const answers = await currentAnswers(ctx);
    const questions = await questionnaireOf(ctx);
    // Saved answers that the rules no longer accept (the questionnaire changed): back to the form to say which.
    const problems = legacyFormProblems(answers, { market: ctx.journey.country, questions: rulesQuestions(questions) });
    if (problems.length > 0) return again(await formView(ctx, answers, { problems, banner: 'inputsAreInvalid' }, questions), 400, { screen: 'form' });
    return save(ctx, answers, questions);
  },
});

/** The form's phone as the review shows it: formatted as everywhere (formatPhone) once the check reads it, else as typed. */
function phoneShown(typed: string, market: CountryCode): string {
  const phone = validatePhone(defaultPhonePrefix(market), typed);
  return phone.ok ? formatPhone(phone.e164, market) : typed.trim();
}

function reviewView(ctx: Ctx, answers: LegacyFormAnswers, questions: Questionnaire['questions']) {
  const { t, journey, deps } = ctx;
  const locale = localeOf(ctx.req, deps);
  const fmt: Fmt = (n) => new Intl.NumberFormat(locale).format(n);
  const market = journey.country;
  const choices = answerChoices(ctx);
  const change = (section: string, title: string) => ({
    label: t('legacy.review.change', { section: title }),
    action: `${ctx.action}?shouldUseLegacyFlow=true`,
    fields: { ...ctx.fields('review'), intent: 'change', section },
  });
  const accounts = defaultAccounts(market)
    .map((e) => e.accountTypeWithCountry)
    .filter((a) => answers.accounts.includes(a));
  const sections = [
    {
      id: 'accounts',
      title: t('accountPicker.title'),
      rows: accounts.map((a) => ({ label: t(defaultNameKey(a)), value: answers.aliases[a]?.trim() || t(defaultNameKey(a)) })),
    },
    {
      id: 'person',
      title: t('legacy.person.title'),
      rows: [
        { label: t('legacy.nationalId.label'), value: journey.natregno ?? '' },
        { label: t('legacy.firstName'), value: answers.firstName.trim() },
        { label: t('legacy.lastName'), value: answers.lastName.trim() },
      ],
    },
    {
      id: 'contact',
      title: t('contactInformation.title'),
      rows: [
        { label: t('contactInformation.phone.label'), value: phoneShown(answers.phoneNumber, market) },
        { label: t('contactInformation.email.label'), value: answers.email.trim() },
      ],
    },
    {
      id: 'kyc',
      title: t('legacy.kyc.title'),
      rows: [
        ...(['citizenship', 'residency', 'taxLiability'] as const).map((field) => ({
          label: t(`legacy.${field}.legend`),
          value: choices[field].find((c) => c.value === answers[field])?.label ?? '',
        })),
        ...questions
          .filter((q) => (answers.kyc[q.question_id] ?? []).length > 0)
          .map((q) => {
            const key = questionTextKey(q.question_tag);
            const chosen = answers.kyc[q.question_id] ?? [];
            return {
              label: key ? t(key) : q.question_tag,
              value: q.answers.filter((a) => chosen.includes(a.answer_id)).map((a) => answerLabel(ctx, q.question_tag, a.answer_tag, fmt)),
            };
          }),
      ],
    },
    {
      id: 'risk',
      title: t('legacy.risk.title'),
      rows: [{ label: t('legacy.risk.legend'), value: answers.investmentRisk === 'yes' ? t('legacy.risk.yes') : '' }],
    },
  ].map((s) => ({ ...s, change: change(s.id, s.title) }));
  return (
    <LegacyReview
      heading={t('legacy.title')}
      title={t('legacy.review.title')}
      intro={t('legacy.review.intro')}
      sections={sections}
      action={`${ctx.action}?shouldUseLegacyFlow=true`}
      fields={ctx.fields('review')}
      labels={{ sign: t('legacy.sign'), signing: t('legacy.signing') }}
    />
  );
}

/** A sensitive answer's dialog as a screen: confirm puts the harmless answer back, cancel keeps the answer. */
function dialogScreen(name: DialogField['screen']): Screen<LegacyScreen> {
  const d = dialogFields.find((f) => f.screen === name)!;
  return screen({
    input: z.object({ intent: z.enum(['confirm', 'cancel']).catch('cancel') }),
    view: (ctx) => <Dialog {...dialogProps(ctx, d, 'screen')} />,
    async submit(ctx, input) {
      if (input.intent === 'confirm') {
        const answers = await currentAnswers(ctx);
        const rule = sensitiveAnswerRules[d.question];
        const next: LegacyFormAnswers =
          d.question === 'pep'
            ? { ...answers, kyc: { ...answers.kyc, 84: [rule.resetTo as number] } }
            : { ...answers, [d.field]: rule.resetTo as SensitiveQuestionAnswers[Exclude<typeof d.question, 'pep'>] };
        keep(ctx, next);
      }
      return goTo('form');
    },
  });
}

export const legacyForm = defineStep({
  id: 'EXISTING_STEP',
  first: 'form',
  screens: {
    form,
    review,
    citizenshipDialog: dialogScreen('citizenshipDialog'),
    residencyDialog: dialogScreen('residencyDialog'),
    crsDialog: dialogScreen('crsDialog'),
    pepDialog: dialogScreen('pepDialog'),
    riskDialog: dialogScreen('riskDialog'),
  },
});
