// "Check your answers" on milestone three (WCAG 2.2 SC 3.3.4, customer-information.md §2.3, §4.8): before the person
// signs, what they gave in the step flow, one section per step, each with a Change when its step can be re-entered
// (shared/customerInformationStepList.ts changeTarget). Pure: the milestone step hands in the session's answers and
// translates the sections (translateSummary) for views/components/AnswersSummary.tsx. Choices where the spec is
// silent: docs/decisions.md "Check your answers".
import type { AccountTypeWithCountry, CountryCode, StepId } from './contracts/brokerageContract.ts';
import type { AnswerSessionAnswers, AnswerSessionPage } from './contracts/kycContract.ts';
import type { Translate } from './i18n.ts';
import { aliasToSend, defaultNameKey, validateAlias } from './accountAlias.ts';
import { countriesNeedingProof, preselectedChoice, type CitizenshipAnswers, type UploadedFileRef } from './citizenship.ts';
import { answeredPhone, formatPhone, type ContactAnswer } from './contactInformation.ts';
import { changeTarget } from './customerInformationStepList.ts';
import { residencyQuestions, type ResidencyAnswers } from './residency.ts';
import { foreignTaxCountries, type TaxLiability } from './taxInformation.ts';

/** One answered KYC question as the person saw it (server/journey.ts KycProgress.givenTexts). */
export interface KycGivenText {
  questionId: number;
  question: string;
  answers: string[];
}

/** What the summary reads of the session (server/journey.ts CustomerInformationProgress: accounts, answers). */
export interface SummaryAnswers {
  accounts: readonly AccountTypeWithCountry[];
  accountAlias?: Partial<Record<AccountTypeWithCountry, string>>;
  contactInformation?: Pick<ContactAnswer, 'prefix' | 'phone' | 'email' | 'mobilePhoneNumber'>;
  citizenship?: CitizenshipAnswers;
  residency?: ResidencyAnswers;
  taxInformation?: {
    liability?: TaxLiability;
    countries?: readonly string[];
    numbers?: Readonly<Record<string, { tin: string; startDate: string }>>;
    taxResidenceCountryCode?: string;
    residenceProof?: { countryCode: string; files: readonly UploadedFileRef[] };
  };
  kyc?: { givenTexts?: readonly KycGivenText[] };
}

/** A text of the summary: as given (an e-mail, an answer's text), a message, or a country's name. */
export type SummaryText =
  | { text: string }
  /** A message; a `{ country }` value is given as that country's name in the page's language. */
  | { key: string; values?: Readonly<Record<string, string | number | { country: string }>> }
  | { country: string };

export interface SummaryRowSpec {
  label: SummaryText;
  /** One value, or several (shown as a list). */
  value: SummaryText | readonly SummaryText[];
}

export const summarySectionIds = ['accounts', 'accountNames', 'contact', 'citizenship', 'residency', 'tax', 'kyc'] as const;
export type SummarySectionId = (typeof summarySectionIds)[number];

/** The step each section's answers come from (its Change re-enters it). */
export const sectionSteps: Readonly<Record<SummarySectionId, StepId>> = {
  accounts: 'ACCOUNT_PICKER_STEP',
  accountNames: 'ACCOUNT_ALIAS_STEP',
  contact: 'CONTACT_INFORMATION_STEP',
  citizenship: 'CITIZENSHIP_STEP',
  residency: 'RESIDENCY_STEP',
  tax: 'TAX_INFO_STEP',
  kyc: 'KYC_STEP',
};

export interface SummarySectionSpec {
  id: SummarySectionId;
  /** Message key of the section's title: `summary.section.<id>`. */
  title: string;
  step: StepId;
  rows: SummaryRowSpec[];
  /** Whether the section gets a Change (an earlier step of the list that can be re-entered; never KYC). */
  changeable: boolean;
}

export interface SummaryInput {
  steps: readonly StepId[];
  /** The summary's own step (milestone three) in `steps`. */
  current: number;
  market: CountryCode;
  answers: SummaryAnswers;
}

const message = (key: string, values?: Readonly<Record<string, string | number | { country: string }>>): SummaryText => (values ? { key, values } : { key });
const text = (value: string): SummaryText => ({ text: value });
const files = (list: readonly UploadedFileRef[] | undefined): SummaryText[] => (list ?? []).map((f) => text(f.name));
const isList = (value: SummaryText | readonly SummaryText[]): value is readonly SummaryText[] => Array.isArray(value);
const isBlank = (value: SummaryText): boolean => 'text' in value && value.text.trim() === '';
/** A row, or nothing when its value is empty. */
function row(label: SummaryText, value: SummaryText | readonly SummaryText[]): SummaryRowSpec[] {
  const values = isList(value) ? value : [value];
  return values.length === 0 || values.every(isBlank) ? [] : [{ label, value }];
}

function accountRows({ accounts }: SummaryAnswers): SummaryRowSpec[] {
  return row(
    message('summary.accounts.label'),
    accounts.map((a) => message(defaultNameKey(a))),
  );
}

/** Each account's name as the alias step sends it: the typed name when valid, else the default name. */
function accountNameRows({ accounts, accountAlias }: SummaryAnswers): SummaryRowSpec[] {
  if (!accountAlias) return [];
  return accounts.map((account) => {
    const typed = accountAlias[account] ?? '';
    const named = validateAlias(typed) === null ? aliasToSend(typed, '') : '';
    return { label: message(defaultNameKey(account)), value: named ? text(named) : message(defaultNameKey(account)) };
  });
}

function contactRows({ contactInformation: contact }: SummaryAnswers, market: CountryCode): SummaryRowSpec[] {
  if (!contact) return [];
  const phone = answeredPhone(contact);
  return [
    ...row(message('contactInformation.phone.label'), text(phone ? formatPhone(phone, market) : contact.phone.trim())),
    ...row(message('contactInformation.email.label'), text(contact.email.trim())),
  ];
}

function citizenshipRows({ citizenship }: SummaryAnswers, market: CountryCode): SummaryRowSpec[] {
  const choice = preselectedChoice(citizenship, market);
  if (!citizenship || !choice) return [];
  if (choice === 'inOfficeCitizenship') return row(message('citizenship.title'), message('citizenship.onlyHome', { country: market }));
  return [
    ...row(message('citizenship.title'), message('citizenship.other')),
    ...row(
      message('citizenship.countries.title'),
      citizenship.countries.map((c) => ({ country: c })),
    ),
    ...countriesNeedingProof(citizenship.countries, market).flatMap((c) =>
      row(message('citizenship.proof.upload', { country: { country: c } }), files(citizenship.attachments[c])),
    ),
  ];
}

function residencyRows({ residency }: SummaryAnswers): SummaryRowSpec[] {
  if (!residency?.addressCountry) return [];
  return [
    ...row(message('residency.address.country'), { country: residency.addressCountry }),
    ...row(message('residency.address.address'), text(residency.address ?? '')),
    ...row(message('residency.address.zipCode'), text(residency.zipCode ?? '')),
    ...row(message('residency.address.city'), text(residency.city ?? '')),
    ...residencyQuestions.flatMap((q) => row(message(`residency.question.${q}`), text(residency.answers?.[q] ?? ''))),
    ...row(message('residency.documents.title'), files(residency.files)),
  ];
}

function taxRows({ taxInformation: tax }: SummaryAnswers, market: CountryCode): SummaryRowSpec[] {
  if (!tax?.liability) return [];
  const rows = row(
    message('taxInformation.liability.title'),
    message(`taxInformation.liability.${tax.liability}`, { country: { country: market }, countryCode: market }),
  );
  if (tax.liability === 'other') {
    const countries = tax.countries ?? [];
    rows.push(
      ...row(
        message('taxInformation.countries.title'),
        countries.map((c) => ({ country: c })),
      ),
    );
    for (const c of foreignTaxCountries(countries, market)) {
      const entry = tax.numbers?.[c];
      if (!entry?.tin.trim()) continue;
      const value = [text(entry.tin.trim()), ...(entry.startDate ? [message('summary.tax.since', { date: entry.startDate })] : [])];
      rows.push(...row(message('summary.tax.number', { country: { country: c } }), value));
    }
  }
  if (tax.taxResidenceCountryCode) rows.push(...row(message('taxInformation.numbers.taxResidence'), { country: tax.taxResidenceCountryCode }));
  if (tax.residenceProof)
    rows.push(...row(message('taxInformation.proof.upload', { country: { country: tax.residenceProof.countryCode } }), files(tax.residenceProof.files)));
  return rows;
}

function kycRows({ kyc }: SummaryAnswers): SummaryRowSpec[] {
  return (kyc?.givenTexts ?? []).flatMap((given) => row(text(given.question), given.answers.map(text)));
}

/**
 * The summary's sections: those with answers, in the order of the step list (sections whose step is not
 * in the list first, e.g. routing's default accounts), each changeable when its step can be re-entered.
 */
export function summarySections({ steps, current, market, answers }: SummaryInput): SummarySectionSpec[] {
  const rowsOf: Record<SummarySectionId, () => SummaryRowSpec[]> = {
    accounts: () => accountRows(answers),
    accountNames: () => accountNameRows(answers),
    contact: () => contactRows(answers, market),
    citizenship: () => citizenshipRows(answers, market),
    residency: () => residencyRows(answers),
    tax: () => taxRows(answers, market),
    kyc: () => kycRows(answers),
  };
  const sections = summarySectionIds.flatMap((id): SummarySectionSpec[] => {
    const rows = rowsOf[id]();
    if (rows.length === 0) return [];
    const step = sectionSteps[id];
    return [{ id, title: `summary.section.${id}`, step, rows, changeable: changeTarget(steps, current, step) !== null }];
  });
  // A stable sort: the list's order, steps not in it first.
  return sections
    .map((s, i) => ({ s, i, at: steps.indexOf(s.step) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map(({ s }) => s);
}

/** A section in the page's language: what views/components/AnswersSummary.tsx shows, and the step its Change re-enters. */
export interface TranslatedSummarySection {
  id: SummarySectionId;
  title: string;
  rows: { label: string; value: string | string[] }[];
  changeStep?: StepId;
}

/** Translates the sections; `countryName` names a country in the page's language (shared/countries.ts countryName). */
export function translateSummary(sections: readonly SummarySectionSpec[], t: Translate, countryName: (code: string) => string): TranslatedSummarySection[] {
  const say = (value: SummaryText): string => {
    if ('text' in value) return value.text;
    if ('country' in value) return countryName(value.country);
    const values = value.values
      ? Object.fromEntries(Object.entries(value.values).map(([k, v]) => [k, typeof v === 'object' ? countryName(v.country) : v]))
      : undefined;
    return t(value.key, values);
  };
  return sections.map((s) => ({
    id: s.id,
    title: t(s.title),
    rows: s.rows.map((r) => ({ label: say(r.label), value: isList(r.value) ? r.value.map(say) : say(r.value) })),
    ...(s.changeable ? { changeStep: s.step } : {}),
  }));
}

/**
 * The KYC answers as shown, after a page was answered: each question's text and its chosen options'
 * texts, in the order first answered (a question answered again keeps its place).
 */
export function withGivenTexts(previous: readonly KycGivenText[] | undefined, page: AnswerSessionPage, answers: AnswerSessionAnswers): KycGivenText[] {
  const next = [...(previous ?? [])];
  for (const answer of answers) {
    const question = page.questions.find((q) => q.id === answer.questionId);
    if (!question) continue;
    const given: KycGivenText = {
      questionId: question.id,
      question: question.text,
      answers: answer.answerIds.flatMap((id) => question.options.filter((o) => o.id === id).map((o) => o.text)),
    };
    const at = next.findIndex((g) => g.questionId === question.id);
    if (at >= 0) next[at] = given;
    else next.push(given);
  }
  return next;
}
