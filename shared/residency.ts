// Residency rules (customer-information.md §2.3 "Residency", §3 residency data, §5 "Residency", §7): what
// the address and the three answers must hold, when the documents screen may continue, and the
// create-case and submit-residency payloads built from the answers kept in the session.
import type { z } from 'zod';
import { residencyQuestions, type CountryCode, type createCaseRequest, type residencyStepRequest } from './contracts/brokerageContract.ts';
import { isCountryCode, type CountryOption } from './countries.ts';
import type { UploadedFileRef } from './citizenship.ts';

export { residencyQuestions };
export type ResidencyQuestion = (typeof residencyQuestions)[number];

export const addressFields = ['addressCountry', 'address', 'zipCode', 'city'] as const;
export type AddressField = (typeof addressFields)[number];
export type ResidencyAddress = Record<AddressField, string>;

/** Longest accepted values (the contract's limits, customer-information §3). */
export const RESIDENCY_LIMITS = { address: 200, zipCode: 20, city: 100, answer: 2000 } as const;

/** What the session keeps of the residency step (server/journey.ts StepAnswers.residency). */
export interface ResidencyAnswers extends Partial<ResidencyAddress> {
  /** The three answers as last typed (trimmed). */
  answers?: Partial<Record<ResidencyQuestion, string>>;
  /** The case's taskId (POST create case); the documents are uploaded to it and it is submitted as nnxTaskId. */
  nnxTaskId?: string;
  /** The documents uploaded to the case. */
  files?: UploadedFileRef[];
}

export type AddressProblem = 'required' | 'tooLong' | 'homeCountry' | 'unknownCountry';
export type AnswerProblem = 'required' | 'tooLong';

/** customer-information §2.3: the country list without the home country. */
export const addressCountryOptions = (options: readonly CountryOption[], home: CountryCode): CountryOption[] => options.filter((o) => o.value !== home);

/** Trims every value; whitespace alone counts as empty. */
export function trimAll<K extends string>(input: Record<K, string>): Record<K, string> {
  return Object.fromEntries(Object.entries<string>(input).map(([k, v]) => [k, v.trim()])) as Record<K, string>;
}

/** customer-information §5: country, address, zip code and city required; the country a real one, and not the home country. */
export function checkAddress(input: ResidencyAddress, home: CountryCode): Partial<Record<AddressField, AddressProblem>> {
  const value = trimAll(input);
  const problems: Partial<Record<AddressField, AddressProblem>> = {};
  if (!value.addressCountry) problems.addressCountry = 'required';
  else if (!isCountryCode(value.addressCountry)) problems.addressCountry = 'unknownCountry';
  else if (value.addressCountry === home) problems.addressCountry = 'homeCountry';
  for (const field of ['address', 'zipCode', 'city'] as const) {
    if (!value[field]) problems[field] = 'required';
    else if (value[field].length > RESIDENCY_LIMITS[field]) problems[field] = 'tooLong';
  }
  return problems;
}

/** customer-information §5: all three answers non-empty after trimming, and not over the limit. */
export function checkAnswers(input: Record<ResidencyQuestion, string>): Partial<Record<ResidencyQuestion, AnswerProblem>> {
  const problems: Partial<Record<ResidencyQuestion, AnswerProblem>> = {};
  for (const question of residencyQuestions) {
    const answer = input[question].trim();
    if (!answer) problems[question] = 'required';
    else if (answer.length > RESIDENCY_LIMITS.answer) problems[question] = 'tooLong';
  }
  return problems;
}

const isEmpty = (o: object) => Object.keys(o).length === 0;

/** The address and answers, once both are valid; null otherwise. */
function complete(answers: ResidencyAnswers, home: CountryCode): { address: ResidencyAddress; answers: Record<ResidencyQuestion, string> } | null {
  const address = trimAll({
    addressCountry: answers.addressCountry ?? '',
    address: answers.address ?? '',
    zipCode: answers.zipCode ?? '',
    city: answers.city ?? '',
  });
  const given = trimAll(Object.fromEntries(residencyQuestions.map((q) => [q, answers.answers?.[q] ?? ''])) as Record<ResidencyQuestion, string>);
  if (!isEmpty(checkAddress(address, home)) || !isEmpty(checkAnswers(given))) return null;
  return { address, answers: given };
}

/** customer-information §5: the documents screen continues with at least one attachment. */
export const documentsComplete = (answers: ResidencyAnswers): boolean => (answers.files?.length ?? 0) > 0;

export type CreateCaseBody = z.input<typeof createCaseRequest>;
export type ResidencyStepBody = z.input<typeof residencyStepRequest>;

/**
 * customer-information §7 POST create case: type RESIDENCY, the address and the three answers as taskData, no attachments yet
 * (the documents are uploaded to the answered task). Going through again reuses the case's taskId.
 */
export function residencyCase(prospectId: string, answers: ResidencyAnswers, home: CountryCode): CreateCaseBody | null {
  const done = complete(answers, home);
  if (!done) return null;
  return {
    prospectId,
    type: 'RESIDENCY',
    ...(answers.nnxTaskId ? { taskId: answers.nnxTaskId } : {}),
    taskData: { ...done.address, ...done.answers },
    attachments: [],
  };
}

/** customer-information §3/§7 POST submit residency step: everything answered, the documents, the case's task id; null if anything is missing. */
export function residencySubmission(answers: ResidencyAnswers, home: CountryCode): ResidencyStepBody | null {
  const done = complete(answers, home);
  if (!done || !answers.nnxTaskId || !documentsComplete(answers)) return null;
  return {
    ...done.address,
    questionsAndAnswers: residencyQuestions.map((question) => ({ question, answer: done.answers[question] })),
    attachments: (answers.files ?? []).map((f) => ({ attachmentId: f.attachmentId })),
    nnxTaskId: answers.nnxTaskId,
  };
}

/**
 * A refused submit names fields (e.g. "addressCountry", "questionsAndAnswers.1.answer"): the parts of the
 * form they belong to, for the message. Unknown names are dropped.
 */
export const refusedParts = ['addressCountry', 'address', 'zipCode', 'city', 'questionsAndAnswers', 'attachments'] as const;
export type RefusedPart = (typeof refusedParts)[number];
export function refusedPartsOf(fields: readonly string[]): RefusedPart[] {
  const parts = fields.map((f) => /^[A-Za-z]+/.exec(f)?.[0]).filter((p): p is RefusedPart => (refusedParts as readonly string[]).includes(p ?? ''));
  return refusedParts.filter((p) => parts.includes(p));
}
