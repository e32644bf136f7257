// The legacy single form's state (customer-information.md §2.3 "Legacy single form", §3, §7): its screens'
// names, the post as parsed, the answers kept in the session, and the questionnaire it asks. The screens are
// legacyFormStep.tsx, their views legacyFormView.tsx, saving legacyFormSave.ts.
import { z } from 'zod';
import type { StepContext } from '../stepModule.ts';
import { localeOf } from '../../../pages.ts';
import { UpstreamError } from '../../../upstream/http.ts';
import type { LegacyFormState } from '../../../journey.ts';
import { isDanishCampaign } from '../../../../shared/accountPicker.ts';
import { answeredPhone, formatPhone } from '../../../../shared/contactInformation.ts';
import { accountTypesWithCountry, type AccountTypeWithCountry } from '../../../../shared/contracts/brokerageContract.ts';
import { QUESTIONNAIRE_PERSON, type Questionnaire } from '../../../../shared/contracts/kycContract.ts';
import { type LegacyFieldProblem, type LegacyFormAnswers, type LegacyQuestion } from '../../../../shared/legacyProspect.ts';
import { orderedQuestions, unknownTags } from '../../../../shared/legacyQuestionnaire.ts';
import { citizenshipAnswers, investmentRiskAnswers, residencyAnswers } from '../../../../shared/sensitiveAnswers.ts';
import { taxLiabilities } from '../../../../shared/taxInformation.ts';

export type LegacyScreen = 'form' | 'review' | DialogField['screen'];
export type Ctx = StepContext<LegacyScreen>;

/** The sensitive answers of the form and their dialogs (shared/sensitiveAnswers.ts), in form order. */
export const dialogFields = [
  { field: 'citizenship', screen: 'citizenshipDialog', question: 'citizenship' },
  { field: 'residency', screen: 'residencyDialog', question: 'residency' },
  { field: 'taxLiability', screen: 'crsDialog', question: 'taxLiability' },
  { field: 'kyc-84', screen: 'pepDialog', question: 'pep' },
  { field: 'investmentRisk', screen: 'riskDialog', question: 'investmentRisk' },
] as const;
export type DialogField = (typeof dialogFields)[number];

/** The first answer that needs its dialog confirmed away before signing. */
export const firstSensitive = (problems: readonly LegacyFieldProblem[]): DialogField | undefined =>
  dialogFields.find((d) => problems.some((p) => p.field === d.field && p.message === 'sensitiveAnswer'));

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

export const formBody = z
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

export function answersFrom(body: z.infer<typeof formBody>, campaign: boolean): LegacyFormAnswers {
  const aliases: LegacyFormAnswers['aliases'] = {};
  const kyc: LegacyFormAnswers['kyc'] = {};
  for (const [name, value] of Object.entries(body)) {
    const alias = /^alias-([A-Z]{3}_[A-Z]{2})$/.exec(name);
    if (alias && isAccount(alias[1]!) && typeof value === 'string') aliases[alias[1]] = value.slice(0, 60);
    const question = /^kyc-(\d{1,6})$/.exec(name);
    // At most as many questions as a questionnaire has (shared/contracts/kycContract.ts), so a hostile post cannot bloat the session.
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

export function stateOf(ctx: Ctx): LegacyFormState | undefined {
  return ctx.ci.answers?.legacy;
}

/** The form's answers: as last posted, else what the eID, the earlier steps (the flow without the KYC flag) and the brokerage already know. */
export async function currentAnswers(ctx: Ctx): Promise<LegacyFormAnswers> {
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
    // The names the eID gave (BankID, the broker's profile claims): the person checks them rather than types them.
    firstName: journey.names?.givenName ?? '',
    lastName: journey.names?.surname ?? '',
    ...(citizenship ? { citizenship } : {}),
    ...(liability ? { taxLiability: liability } : {}),
    kyc: {},
  };
}

/** Keeps the answers (and what saving gave). Answers the person changed void a signing order handed out for the old ones. */
export function keep(ctx: Ctx, form: LegacyFormAnswers, extra: Partial<LegacyFormState> = {}): LegacyFormState {
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
export async function questionnaireOf(ctx: Ctx): Promise<Questionnaire['questions']> {
  const locale = localeOf(ctx.req, ctx.deps);
  const questions = orderedQuestions((await ctx.brokerage.questionnaire(QUESTIONNAIRE_PERSON, `${locale.slice(0, 2)}-${ctx.journey.country}`)).questions);
  const unknown = unknownTags(questions);
  // customer-information §8: an unknown KYC tag is logged (tags only; they are the brokerage's, no personal data).
  if (unknown.length > 0) ctx.deps.logger.warn({ tags: unknown }, 'legacy form: questionnaire tags without a text');
  return questions;
}

/** The questions the rules check: those with a control (customer-information §5: other types are not rendered). */
export const rulesQuestions = (questions: Questionnaire['questions']): LegacyQuestion[] =>
  questions.map((q) => ({ id: q.question_id, type: q.answer_type, options: q.answers.map((a) => ({ id: a.answer_id })) }));
