// The legacy single form (customer-information §2.3, §4.10) and saving a prospect from it (§3 "Legacy submission",
// §4.9, §8). Pure: which fields are invalid, what the form submits, the regulation and prospect-update payloads, and what
// their answers lead to. The wire shapes are shared/contracts/legacyContract.ts; the account, contact, sensitive-answer and
// KYC rules are reused from their own modules. Choices where the spec is silent: docs/decisions.md "The legacy single
// form".
import { accountCode, decidePicker, type PickerInput } from './accountPicker.ts';
import { validateAlias, type AliasError } from './accountAlias.ts';
import { checkContact, defaultPhonePrefix, type ContactError } from './contactInformation.ts';
import type { AccountTypeWithCountry, CountryCode } from './contracts/brokerageContract.ts';
import type { ProspectFieldError, ProspectUpdateRequest, RegulationRequest } from './contracts/legacyContract.ts';
import { answerProblem, controlOf } from './kyc.ts';
import { kycAnswerDialog, sensitiveAnswerDialog, type SensitiveQuestionAnswers } from './sensitiveAnswers.ts';

/** An account code without its country suffix: 'DEP', 'ISK', 'ASK', 'EPK', 'ESA', 'DSK'. */
export type AccountCode = AccountTypeWithCountry extends `${infer Code}_${string}` ? Code : never;

// --- the form -------------------------------------------------------------------------------------

/** What the legacy form posts, already parsed (customer-information §2.3 "Legacy single form", §3). */
export interface LegacyFormAnswers {
  /** The ticked accounts. */
  accounts: AccountTypeWithCountry[];
  /** Exclusive accounts whose confirmation was given (shared/accountPicker.ts PickerInput). */
  confirmed: PickerInput['confirmed'];
  /** The Danish ASK campaign is on (shared/accountPicker.ts isDanishCampaign). */
  campaign: boolean;
  /** The Danish campaign question 'existing equity savings account at another bank'. */
  dskExisting?: PickerInput['dskExisting'];
  aliases: Partial<Record<AccountTypeWithCountry, string>>;
  phoneNumber: string;
  email: string;
  firstName: string;
  lastName: string;
  citizenship?: SensitiveQuestionAnswers['citizenship'];
  residency?: SensitiveQuestionAnswers['residency'];
  taxLiability?: SensitiveQuestionAnswers['taxLiability'];
  /** Chosen answer ids per question id. */
  kyc: Record<number, readonly number[]>;
  investmentRisk?: SensitiveQuestionAnswers['investmentRisk'];
}

/** A questionnaire question as the form renders it (customer-information §3 "Answer session page"). */
export interface LegacyQuestion {
  id: number;
  type: string;
  options: Array<{ id: number }>;
}

export interface LegacyFormContext {
  market: CountryCode;
  questions: LegacyQuestion[];
}

export type LegacyFieldMessage =
  // the account picker (shared/accountPicker.ts decidePicker)
  | 'mustChooseOne'
  | 'notOffered'
  | 'dskQuestionRequired'
  | 'dskLocked'
  | 'confirmExclusive'
  | 'mandatoryAccountMissing'
  // an alias (shared/accountAlias.ts)
  | AliasError
  // contact (shared/contactInformation.ts names)
  | Extract<ContactError, 'phone' | 'phoneMissingPlus' | 'email'>
  // names (customer-information §5 "Names")
  | 'required'
  // citizenship, residency, tax liability missing (the form's message names the question)
  | 'additionalInformationNeeded'
  // a KYC question or the investment risk unanswered (the form's message names the question)
  | 'chooseAnAlternative'
  // an answer whose dialog must be confirmed away before saving (customer-information §4.10)
  | 'sensitiveAnswer';

export interface LegacyFieldProblem {
  field: string;
  message: LegacyFieldMessage;
}

/** The picker's verdict on the ticked accounts (customer-information §4.2, §5 "Account picker"). */
function accountProblem(answers: LegacyFormAnswers, market: CountryCode): LegacyFieldMessage | null {
  const { accounts: posted, confirmed, campaign, dskExisting } = answers;
  const decision = decidePicker(market, { posted, confirmed, campaign, dskExisting });
  switch (decision.kind) {
    case 'error':
      return decision.error;
    case 'dskLocked':
      return 'dskLocked';
    case 'confirm':
      return 'confirmExclusive';
    case 'submit':
      // The picker adds only mandatory accounts, whose box the form locks ticked.
      return decision.accounts.some((a) => !answers.accounts.includes(a)) ? 'mandatoryAccountMissing' : null;
  }
}

/** shared/kyc.ts reads only a question's type and option ids; the form's questions carry no texts. */
const asKycQuestion = (q: LegacyQuestion) => ({ type: q.type, options: q.options.map((o) => ({ id: o.id, text: '' })) });

/** How the form renders a questionnaire question (customer-information §5 "KYC"); null: not rendered. */
export const legacyControlOf = (question: LegacyQuestion) => controlOf(asKycQuestion(question));

function kycProblem(question: LegacyQuestion, answerIds: readonly number[]): LegacyFieldMessage | null {
  if (answerProblem(asKycQuestion(question), answerIds) !== null) return 'chooseAnAlternative';
  // PEP yes (customer-information §4.10).
  return answerIds.some((id) => kycAnswerDialog(question.id, id) !== null) ? 'sensitiveAnswer' : null;
}

/** customer-information §5 "KYC": a required §3 answer enumeration, missing or needing its dialog. */
function answerProblemOf<Q extends 'citizenship' | 'residency' | 'taxLiability' | 'investmentRisk'>(
  question: Q,
  answer: SensitiveQuestionAnswers[Q] | undefined,
  missing: LegacyFieldMessage,
): LegacyFieldMessage | null {
  if (answer === undefined) return missing;
  return sensitiveAnswerDialog(question, answer) !== null ? 'sensitiveAnswer' : null;
}

/**
 * The invalid fields of the legacy form in form order (customer-information §4.10: the form is valid only when
 * every section is): account picker and aliases, phone, e-mail, names, citizenship, residency, tax liability,
 * each rendered KYC question in the given order, investment risk. One problem per field at most.
 */
export function legacyFormProblems(answers: LegacyFormAnswers, ctx: LegacyFormContext): LegacyFieldProblem[] {
  const problems: LegacyFieldProblem[] = [];
  const add = (field: string, message: LegacyFieldMessage | null) => {
    if (message !== null) problems.push({ field, message });
  };

  add('accounts', accountProblem(answers, ctx.market));
  for (const account of answers.accounts) {
    const alias = answers.aliases[account];
    if (alias !== undefined) add(`alias-${account}`, validateAlias(alias));
  }

  const contact = checkContact({ prefix: defaultPhonePrefix(ctx.market), phone: answers.phoneNumber, email: answers.email });
  if (!contact.ok) {
    const { phone, email } = contact.errors;
    if (phone === 'phone' || phone === 'phoneMissingPlus') add('phoneNumber', phone);
    if (email === 'email') add('email', email);
  }

  add('firstName', answers.firstName.trim() === '' ? 'required' : null);
  add('lastName', answers.lastName.trim() === '' ? 'required' : null);

  add('citizenship', answerProblemOf('citizenship', answers.citizenship, 'additionalInformationNeeded'));
  add('residency', answerProblemOf('residency', answers.residency, 'additionalInformationNeeded'));
  add('taxLiability', answerProblemOf('taxLiability', answers.taxLiability, 'additionalInformationNeeded'));

  for (const question of ctx.questions) {
    // customer-information §5 "KYC": other types are not rendered, so they need no answer.
    if (legacyControlOf(question) === null) continue;
    add(`kyc-${question.id}`, kycProblem(question, answers.kyc[question.id] ?? []));
  }

  add('investmentRisk', answerProblemOf('investmentRisk', answers.investmentRisk, 'chooseAnAlternative'));
  return problems;
}

// --- the submission --------------------------------------------------------------------------------

/** customer-information §3 "Legacy submission". */
export interface LegacySubmission {
  prospect: {
    /** The ticked accounts by code (only ticked ones are listed, each true). */
    accountTypes: Partial<Record<AccountCode, boolean>>;
    /** Trimmed aliases of ticked accounts; empty ones are left out. */
    accountAliases: Partial<Record<AccountCode, string>>;
  };
  regulation: {
    kyc: Array<{ question_id: number; answer_id: number }>;
    crs: { taxableOutsideJurisdiction: 'yes' | 'no'; citizen: null };
  };
}

const codeOf = (account: AccountTypeWithCountry): AccountCode => accountCode(account) as AccountCode;

/**
 * The form's answers as customer-information §3 "Legacy submission" (after legacyFormProblems found none).
 * KYC: one pair per chosen answer id, questions in ascending id (the order of an integer-keyed record).
 * CRS: inOffice sends 'no', usa and other 'yes'; a missing answer also 'yes', so taxable outside the
 * jurisdiction is false only for an explicit home-only answer (customer-information §3 "Regulation payload").
 */
export function legacySubmission(answers: LegacyFormAnswers): LegacySubmission {
  const accountTypes: Partial<Record<AccountCode, boolean>> = {};
  const accountAliases: Partial<Record<AccountCode, string>> = {};
  for (const account of answers.accounts) {
    accountTypes[codeOf(account)] = true;
    const alias = answers.aliases[account]?.trim();
    if (alias) accountAliases[codeOf(account)] = alias;
  }
  const kyc = Object.entries(answers.kyc).flatMap(([questionId, answerIds]) =>
    answerIds.map((answerId) => ({ question_id: Number(questionId), answer_id: answerId })),
  );
  return {
    prospect: { accountTypes, accountAliases },
    regulation: { kyc, crs: { taxableOutsideJurisdiction: answers.taxLiability === 'inOffice' ? 'no' : 'yes', citizen: null } },
  };
}

/** The ticked account codes of a submission, in the order they were ticked. */
const tickedCodes = (submission: LegacySubmission): AccountCode[] =>
  (Object.entries(submission.prospect.accountTypes) as Array<[AccountCode, boolean | undefined]>).filter(([, ticked]) => ticked === true).map(([code]) => code);

// --- the payloads ----------------------------------------------------------------------------------

/**
 * customer-information §3 "Prospect update payload": the national id reduced to digits only, except in Finland,
 * where it is kept as entered (century sign and check character are part of it); only trimmed there, since
 * every value is trimmed, and not upper-cased (unlike shared/nationalIds.ts normalizeNationalId, which
 * canonicalises for validation). The regulation payload sends the same.
 */
export function nationalIdForPayload(market: CountryCode, nationalId: string): string {
  return market === 'FI' ? nationalId.trim() : nationalId.replace(/\D/g, '');
}

export interface RegulationContext {
  market: CountryCode;
  nationalId: string;
  addressCountry: string;
  regulationId: string | null;
}

/** customer-information §3 "Regulation payload", sent first when saving (customer-information §4.9). */
export function regulationPayload(submission: LegacySubmission, ctx: RegulationContext): RegulationRequest {
  const codes = tickedCodes(submission);
  return {
    regulation_id: ctx.regulationId,
    national_id_number_country_code: ctx.market,
    national_id_number: nationalIdForPayload(ctx.market, ctx.nationalId),
    address_country: ctx.addressCountry,
    jurisdiction: ctx.market,
    customer_type: 'individual',
    kyc: { answers: submission.regulation.kyc },
    tax_info: {
      account_type_codes: codes.length > 0 ? codes : null,
      // Our choice (the spec names the field only): the legacy form asks no home-tax question, and it saves
      // only with residency answered in-country, so the person is taxable in the market's jurisdiction.
      taxable_in_jurisdiction: true,
      taxable_outside_jurisdiction: submission.regulation.crs.taxableOutsideJurisdiction !== 'no',
    },
  };
}

export interface ProspectUpdateContext {
  market: CountryCode;
  nationalId: string;
  phoneNumber: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The country code an in-country citizenship answer sends (customer-information §3 answer enumerations). */
  citizen: string;
  regulationId: string | null;
}

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value === '') || (Array.isArray(value) && value.length === 0);

/**
 * customer-information §3 "Prospect update payload", sent after the regulation (customer-information §4.9):
 * snake_case, every string trimmed, empty values (empty strings and lists, null, undefined) dropped.
 * Not parsed here: shared/contracts/legacyContract.ts prospectUpdateRequest is the wire check.
 */
export function prospectUpdatePayload(submission: LegacySubmission, ctx: ProspectUpdateContext): ProspectUpdateRequest {
  const codes = tickedCodes(submission);
  const aliases = codes.flatMap((code) => {
    const alias = submission.prospect.accountAliases[code]?.trim();
    return alias ? [{ account_type: code, alias }] : [];
  });
  const payload: Record<keyof ProspectUpdateRequest, unknown> = {
    national_id_number: nationalIdForPayload(ctx.market, ctx.nationalId),
    national_id_number_country_code: ctx.market,
    country: ctx.market,
    phone_number: ctx.phoneNumber.trim(),
    email: ctx.email.trim(),
    citizen: ctx.citizen.trim(),
    regulation_id: ctx.regulationId?.trim(),
    account_templates: codes.map((code) => `${code}_${ctx.market}`),
    first_name: ctx.firstName.trim(),
    last_name: ctx.lastName.trim(),
    account_aliases: aliases,
  };
  return Object.fromEntries(Object.entries(payload).filter(([, value]) => !isEmpty(value))) as ProspectUpdateRequest;
}

// --- outcomes --------------------------------------------------------------------------------------

/** customer-information §3 "Error enums" of saving, and the form-level banners. */
export type SaveError = 'notOldEnough' | 'doubleName' | 'mobileNumber' | 'email' | 'nonCompliant' | 'highRisk' | 'unspecifiedApiResponseError';
export type FormBanner = SaveError | 'unspecifiedFormError' | 'inputsAreInvalid';

export type RegulationOutcome = { kind: 'success'; regulationId: string } | { kind: 'nonCompliant' } | { kind: 'unspecifiedApiResponseError' };

/** customer-information §4.9, §8: the regulation's answer. Rules in order, first match wins. */
export function regulationOutcome(data: { status?: string | null; regulation_id?: string | null }): RegulationOutcome {
  const id = data.regulation_id;
  // An empty id counts as none: there is nothing to send in the prospect update.
  const hasId = typeof id === 'string' && id.trim() !== '';
  // 1. 'compliant' (exactly, as the spec writes it) with an id.
  if (hasId && data.status === 'compliant') return { kind: 'success', regulationId: id };
  // 2. Any other status with an id (a missing status counts as another status).
  if (hasId) return { kind: 'nonCompliant' };
  // 3. Otherwise.
  return { kind: 'unspecifiedApiResponseError' };
}

/**
 * customer-information §5 "Double name": more than one word after trimming, words split on whitespace only, so a
 * hyphenated name (Anna-Karin, Berg-Olsen) is one word.
 */
const hasSeveralWords = (name: string): boolean => name.trim().split(/\s+/).length > 1;

/**
 * customer-information §8: the errors of a refused prospect update, one per field error by the rules below
 * (first match wins), deduplicated in order. A refusal that lists no field still gets
 * unspecifiedApiResponseError, so the person always sees why nothing happened. Codes match exactly; field
 * names ignore case (the spec writes 'Email' for the payload's 'email').
 */
export function prospectUpdateErrors(fields: readonly ProspectFieldError[], names: { firstName: string; lastName: string }): SaveError[] {
  const errorOf = (f: ProspectFieldError): SaveError => {
    const field = f.field?.toLowerCase();
    // 1. code Age.
    if (f.code === 'Age') return 'notOldEnough';
    // 2. field phone_number.
    if (field === 'phone_number') return 'mobileNumber';
    // 3. field Email.
    if (field === 'email') return 'email';
    // 4. code natregno: a double name when either name has several words, else the generic error.
    if (f.code === 'natregno') return hasSeveralWords(names.firstName) || hasSeveralWords(names.lastName) ? 'doubleName' : 'unspecifiedApiResponseError';
    // 5. Anything else.
    return 'unspecifiedApiResponseError';
  };
  if (fields.length === 0) return ['unspecifiedApiResponseError'];
  return [...new Set(fields.map(errorOf))];
}

/** customer-information §8: no banner without errors, the one kind when there is one, else unspecifiedFormError. */
export function saveBanner(errors: readonly SaveError[]): FormBanner | null {
  const kinds = new Set(errors);
  if (kinds.size === 0) return null;
  if (kinds.size === 1) return errors[0]!;
  return 'unspecifiedFormError';
}
