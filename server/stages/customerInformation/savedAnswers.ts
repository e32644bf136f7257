// Carrying on with a saved application (customer-information §3, §6): prospect creation answered the person's unfinished
// prospect, so the page reads its saved steps and each completed step's related data, puts the answers where each step
// keeps them, and opens the first step not completed (at its first unsaved sub-step; KYC at its answer session's page).
// Nothing is submitted by resuming; a completed step whose answers cannot be put back is opened fresh, so Back is never empty.
import type { CustomerInformationProgress, StepAnswers } from '../../journey.ts';
import type { AccountTypeWithCountry, CountryCode, StepId } from '../../../shared/contracts/brokerageContract.ts';
import type { StepRelatedData } from '../../../shared/contracts/savedApplicationContract.ts';
import { defaultPhonePrefix, splitPhone } from '../../../shared/contactInformation.ts';
import { defaultAccounts } from '../../../shared/accountPicker.ts';
import type { UploadedFileRef } from '../../../shared/citizenship.ts';
import { isCountryCode, type IsoCountryCode } from '../../../shared/countries.ts';
import { isMilestone } from '../../../shared/customerInformationStepList.ts';
import type { PersonBrokerage } from './calls.ts';
import { savedKycProgress } from './steps/kycRuns.ts';

/** What a step's saved data puts back: its answers and, for the picker, the accounts; false when it cannot be put back. */
type Restore = (data: never, answers: StepAnswers, ci: CustomerInformationProgress, country: CountryCode) => boolean;

const files = (attachments: readonly { attachmentId: string; fileName: string }[]): UploadedFileRef[] =>
  attachments.map((a) => ({ attachmentId: a.attachmentId, name: a.fileName }));

/** The residency answers the case holds (address, answers, its task and files), submitted or not. */
function restoreResidency(data: StepRelatedData<'RESIDENCY_STEP'>, answers: StepAnswers): boolean {
  if (!data.addressCountry || !data.address || !data.zipCode || !data.city || !data.nnxTaskId) return false;
  const given = Object.fromEntries((data.questionsAndAnswers ?? []).map((qa) => [qa.question, qa.answer]));
  answers.residency = {
    addressCountry: data.addressCountry,
    address: data.address,
    zipCode: data.zipCode,
    city: data.city,
    answers: given,
    nnxTaskId: data.nnxTaskId,
    files: files(data.attachments),
  };
  return true;
}

const restorers: Partial<Record<StepId, Restore>> = {
  MILESTONE_ONE_STEP: () => true,
  MILESTONE_TWO_STEP: () => true,
  ACCOUNT_PICKER_STEP: (data: StepRelatedData<'ACCOUNT_PICKER_STEP'>, answers, ci, country) => {
    const accounts = data.accountTypesWithCountry;
    if (!accounts || accounts.length === 0) return false;
    ci.accounts = [...accounts];
    // Accounts the brokerage holds were confirmed when chosen (the exclusive ones' dialog too).
    const exclusive = new Set(
      defaultAccounts(country)
        .filter((o) => o.exclusive)
        .map((o) => o.accountTypeWithCountry),
    );
    answers.accountPicker = { accounts: [...accounts], confirmed: accounts.filter((a) => exclusive.has(a)) };
    return true;
  },
  ACCOUNT_ALIAS_STEP: (data: StepRelatedData<'ACCOUNT_ALIAS_STEP'>, answers) => {
    if (!data.accountTypeAliases) return false;
    const aliases: Partial<Record<AccountTypeWithCountry, string>> = {};
    for (const { accountTypeWithCountry, alias } of data.accountTypeAliases) aliases[accountTypeWithCountry] = alias;
    answers.accountAlias = aliases;
    return true;
  },
  CONTACT_INFORMATION_STEP: (data: StepRelatedData<'CONTACT_INFORMATION_STEP'>, answers, _ci, country) => {
    if (!data.email || !data.mobilePhoneNumber) return false;
    const phone = splitPhone(data.mobilePhoneNumber, defaultPhonePrefix(country));
    answers.contactInformation = { prefix: phone.prefix, phone: phone.number, email: data.email, mobilePhoneNumber: data.mobilePhoneNumber };
    return true;
  },
  CITIZENSHIP_STEP: (data: StepRelatedData<'CITIZENSHIP_STEP'>, answers, _ci, country) => {
    if (data.isCitizenInTld === null) return false;
    if (data.citizenOutsideOfTld !== undefined) {
      const choice = data.citizenOutsideOfTld ? 'otherCitizenships' : 'inOfficeCitizenship';
      answers.citizenship = { choice, countries: data.citizenOutsideOfTld ? [] : [country], tasks: {}, attachments: {} };
      return true;
    }
    const others = data.citizenshipInformationList.filter((o): o is typeof o & { countryCode: IsoCountryCode } => isCountryCode(o.countryCode));
    if (others.length !== data.citizenshipInformationList.length) return false;
    if (data.isCitizenInTld && others.length === 0) {
      answers.citizenship = { choice: 'inOfficeCitizenship', countries: [country], tasks: {}, attachments: {} };
      return true;
    }
    const tasks: Partial<Record<IsoCountryCode, string>> = {};
    const attachments: Partial<Record<IsoCountryCode, UploadedFileRef[]>> = {};
    for (const entry of others) {
      tasks[entry.countryCode] = entry.taskId;
      attachments[entry.countryCode] = files(entry.attachments);
    }
    const countries = [...(data.isCitizenInTld ? [country] : []), ...others.map((o) => o.countryCode)];
    answers.citizenship = { choice: 'otherCitizenships', countries, tasks, attachments };
    return true;
  },
  RESIDENCY_STEP: (data: StepRelatedData<'RESIDENCY_STEP'>, answers) => data.submitted && restoreResidency(data, answers),
  KYC_STEP: (data: StepRelatedData<'KYC_STEP'>, answers) => {
    const kyc = data.submitted ? savedKycProgress(data) : undefined;
    if (kyc) answers.kyc = kyc;
    return kyc !== undefined;
  },
  TAX_INFO_STEP: (data: StepRelatedData<'TAX_INFO_STEP'>, answers, _ci, country) => {
    if (data.taxableInTld === null) return false;
    const abroad = data.taxInformationListOutsideOfTld ?? [];
    if (abroad.length === 0) {
      if (!data.taxableInTld) return false;
      answers.taxInformation = { liability: 'inOffice', countries: [country] };
    } else {
      answers.taxInformation = {
        liability: 'other',
        countries: [...(data.taxableInTld ? [country] : []), ...abroad.map((c) => c.countryCode)],
        numbers: Object.fromEntries(abroad.map((c) => [c.countryCode, { tin: c.taxIdentificationNumber, startDate: c.startDate }])),
      };
    }
    if (data.taxResidence) {
      const { countryCode, nnxTaskId, attachments } = data.taxResidence;
      answers.taxInformation.residenceProof = { countryCode, taskId: nnxTaskId, files: files(attachments) };
    }
    return true;
  },
};

/** Where a step left part-way carries on: its screen, and the screens before it for Back. */
interface ResumeAt {
  screen: string;
  visited: string[];
}
type ResumePartly = (data: never, answers: StepAnswers, ci: CustomerInformationProgress, country: CountryCode, subStep: number) => ResumeAt | null;

/**
 * Steps with sub-steps (customer-information §2.3), left part-way: the brokerage holds the earlier sub-steps' answers
 * (GET steps' subStep is the first it does not), so they are put back and the step opens at that sub-step; null when
 * they cannot be (the step opens at its start, keeping what it can, e.g. the tax residence case and its files).
 */
const partlyDone: Partial<Record<StepId, ResumePartly>> = {
  // Countries submitted, the proof not yet: the proof screen with the files uploaded so far.
  CITIZENSHIP_STEP: (data: StepRelatedData<'CITIZENSHIP_STEP'>, answers, ci, country, subStep) =>
    subStep === 2 && data.citizenshipInformationList.length > 0 && restorers.CITIZENSHIP_STEP!(data as never, answers, ci, country)
      ? { screen: 'proof', visited: ['choice', 'countries'] }
      : null,
  // The case made after the questions, the documents not submitted: the documents screen.
  RESIDENCY_STEP: (data: StepRelatedData<'RESIDENCY_STEP'>, answers, _ci, _country, subStep) =>
    subStep === 2 && data.questionsAndAnswers && restoreResidency(data, answers) ? { screen: 'documents', visited: ['address', 'questions'] } : null,
  // The proof of tax residence not submitted: its screen, after the liability (and the countries and numbers) when the
  // tax answers were accepted; otherwise the step starts again with the case and its files kept for reuse.
  TAX_INFO_STEP: (data: StepRelatedData<'TAX_INFO_STEP'>, answers, ci, country, subStep) => {
    if (subStep !== 3 || !data.taxResidence) return null;
    if (!restorers.TAX_INFO_STEP!(data as never, answers, ci, country)) {
      const { countryCode, nnxTaskId, attachments } = data.taxResidence;
      answers.taxInformation = { residenceProof: { countryCode, taskId: nnxTaskId, files: files(attachments) } };
      return null;
    }
    return { screen: 'residenceProof', visited: answers.taxInformation?.liability === 'other' ? ['liability', 'countries', 'numbers'] : ['liability'] };
  },
};

/**
 * Puts the saved application's answers into the progress routing made: each completed step's answers (read in parallel),
 * and the first step not completed (or not restorable) as the current one, at its sub-step when left part-way. Answers the steps that were opened fresh
 * although completed (logged by the caller, without their data).
 */
export async function restoreSavedApplication(
  brokerage: Pick<PersonBrokerage, 'prospectSteps' | 'stepRelatedData'>,
  prospectId: string,
  ci: CustomerInformationProgress,
  country: CountryCode,
): Promise<{ openedFresh: StepId[] }> {
  const saved = await brokerage.prospectSteps(prospectId);
  const completed = new Set(saved.steps.filter((s) => s.completed).map((s) => s.stepName));
  let until = ci.steps.findIndex((step) => !completed.has(step));
  if (until < 0) until = ci.steps.length - 1;
  const earlier = ci.steps.slice(0, until);
  const read = async (step: StepId): Promise<unknown> => (restorers[step] && !isMilestone(step) ? brokerage.stepRelatedData(prospectId, step) : null);
  const data = await Promise.all(earlier.map(read));
  const answers: StepAnswers = {};
  const openedFresh: StepId[] = [];
  let current = until;
  for (const [i, step] of earlier.entries()) {
    const restore = restorers[step];
    if (!restore || !restore(data[i] as never, answers, ci, country)) {
      openedFresh.push(step);
      current = i;
      break;
    }
  }
  // The KYC step opened carries on where its answer session is, its answers kept (steps/kycRuns.ts).
  if (ci.steps[current] === 'KYC_STEP') {
    const kyc = savedKycProgress(await brokerage.stepRelatedData(prospectId, 'KYC_STEP'));
    if (kyc) answers.kyc = kyc;
  }
  const left = saved.steps.find((s) => s.stepName === ci.steps[current]);
  const resume = left && !left.completed && left.subStep > 0 ? partlyDone[left.stepName] : undefined;
  const at = resume ? resume((await brokerage.stepRelatedData(prospectId, left!.stepName)) as never, answers, ci, country, left!.subStep) : null;
  ci.answers = { ...ci.answers, ...answers };
  ci.current = current;
  delete ci.screen;
  ci.visited = [];
  if (at) Object.assign(ci, at);
  return { openedFresh };
}
