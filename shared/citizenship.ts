// Citizenship rules (customer-information.md §2.3 "Citizenship", §4.3): which answer is preselected,
// which countries need proof, and when the proof screen may continue.
import type { CountryCode } from './contracts/brokerageContract.ts';
import type { IsoCountryCode } from './countries.ts';

/** customer-information §3 citizenship answer (multipleCitizenship is the older name of otherCitizenships; not offered). */
export type CitizenshipChoice = 'inOfficeCitizenship' | 'otherCitizenships';

export interface UploadedFileRef {
  attachmentId: string;
  /** The sanitised name, shown to the person only. Personal data: never logged. */
  name: string;
}

/** What the session keeps of the citizenship step (server/journey.ts StepAnswers.citizenship). */
export interface CitizenshipAnswers {
  choice?: CitizenshipChoice;
  /** Chosen countries, in the order chosen; may include the active market. */
  countries: IsoCountryCode[];
  /** taskId per country from the upstream (data.tasks), needed to upload proof. */
  tasks: Partial<Record<IsoCountryCode, string>>;
  attachments: Partial<Record<IsoCountryCode, UploadedFileRef[]>>;
}

export const emptyCitizenship = (): CitizenshipAnswers => ({ countries: [], tasks: {}, attachments: {} });

/** customer-information §2.3: only the active country preselects the first option, any other country the second; nothing known, nothing preselected. */
export function preselectedChoice(answers: CitizenshipAnswers | undefined, market: CountryCode): CitizenshipChoice | undefined {
  if (answers?.choice) return answers.choice;
  if (!answers || answers.countries.length === 0) return undefined;
  return answers.countries.length === 1 && answers.countries[0] === market ? 'inOfficeCitizenship' : 'otherCitizenships';
}

/** The countries that get a proof card: every chosen country except the active one (customer-information §2.3, 'Proof of citizenship'). */
export function countriesNeedingProof(countries: readonly IsoCountryCode[], market: CountryCode): IsoCountryCode[] {
  return countries.filter((c) => c !== market);
}

/** customer-information §4.3: Continue on the proof screen only when every listed country has at least one attachment. */
export function proofComplete(answers: CitizenshipAnswers, market: CountryCode): boolean {
  const needed = countriesNeedingProof(answers.countries, market);
  return needed.length > 0 && needed.every((c) => (answers.attachments[c]?.length ?? 0) > 0);
}

/** isCitizenInTld: the person is a citizen of the active market (top-level domain) too. */
export const isCitizenInTld = (countries: readonly IsoCountryCode[], market: CountryCode): boolean => countries.includes(market);
