// Brokerage API wire contract for carrying on with a saved application: GET steps, GET related data by step name and GET
// onboarding ready (customer-information §2.3, §3, §6, §7), beside brokerageContract.ts (prospect creation answering the
// person's unfinished prospect: createProspectResponse there). server/upstream/brokerageResumeCalls.ts parses every answer
// with these; sandbox/applications.ts shapes every answer by them. The spec shows no paths or fields: all is our reading.
import { z } from 'zod';
import {
  accountAliasStepRequest,
  accountTypeWithCountry,
  contactRelatedData,
  isoCountry,
  residencyStepRequest,
  stepId,
  stepIds,
  taxInfoStepRequest,
  uploadContentType,
  type StepId,
} from './brokerageContract.ts';
import { answerSessionPage } from './kycContract.ts';

const prospect = (prospectId: string) => `/api/2/onboarding/prospects/${encodeURIComponent(prospectId)}`;

/** GET related data by step name is brokeragePaths.stepRelatedData (…/steps/{stepName}/related-data). */
export const savedApplicationPaths = {
  prospectSteps: (prospectId: string) => `${prospect(prospectId)}/steps`,
  onboardingReady: (prospectId: string) => `${prospect(prospectId)}/ready`,
} as const;

// Each call is a GET as the person (bearer) on a prospect of theirs: no or an unknown token answers 401, someone else's
// prospect 403 (as every prospect call does), an unknown prospect or step name 404. What is saved is what the brokerage
// accepted; related data echoes the field names of the step's submit, so a page fills its form from it.

/**
 * GET steps: the prospect's step list in the order of initialSteps, each with `completed` (its last submit was accepted:
 * the page opens the first step that is not) and `subStep` (where an unfinished step carries on: the first sub-step
 * whose answer the brokerage does not hold yet; 0 when nothing of it is saved, and for a completed step). `keptUntil`:
 * until when the unfinished application is kept for the person to carry on (then prospect creation starts a new one).
 */
export const prospectStep = z.object({ stepName: stepId, completed: z.boolean(), subStep: z.number().int().min(0).max(9) });
export type ProspectStep = z.infer<typeof prospectStep>;
export const prospectStepsResponse = z.object({
  data: z.object({ steps: z.array(prospectStep).max(stepIds.length), keptUntil: z.iso.datetime() }),
});
export type ProspectSteps = z.infer<typeof prospectStepsResponse>['data'];

/**
 * A file the brokerage holds for a task or case, listed by the name it was uploaded with. customer-information §3 names
 * attachmentLink and fileReference too: no link here, as a page lists the names and never shows a document back, and an
 * address of a person's document is one more thing to guard.
 */
export const savedAttachment = z.object({
  attachmentId: z.string().min(1).max(200),
  fileName: z.string().min(1).max(200),
  contentType: uploadContentType,
});
export type SavedAttachment = z.infer<typeof savedAttachment>;

/** Milestone steps: when the person passed it (posted the milestone), null before. */
const milestoneRelatedData = z.object({ passedAt: z.iso.datetime().nullable() });
/** Account picker: the accounts the prospect holds (chosen, or the market's defaults where the list has no picker); null before. */
const accountPickerRelatedData = z.object({ accountTypesWithCountry: z.array(accountTypeWithCountry).nullable() });
/** Account alias: the names last saved; null before the step was submitted (the default names apply). */
const accountAliasRelatedData = z.object({ accountTypeAliases: accountAliasStepRequest.shape.accountTypeAliases.nullable() });
/**
 * Citizenship: the last accepted submit. isCitizenInTld with an empty list is 'only <market>' (customer-information §2.3
 * "Preselected from existing data": the choice follows from it); each other country with its task and the files the task
 * holds (the submitted ones, or before the proof was submitted every file uploaded to the task). isCitizenInTld null: nothing saved.
 */
const citizenshipRelatedData = z.object({
  isCitizenInTld: z.boolean().nullable(),
  /** Present when the older variant was sent (citizenshipContract.ts): its answer, and the list is empty. */
  citizenOutsideOfTld: z.boolean().optional(),
  citizenshipInformationList: z
    .array(z.object({ countryCode: isoCountry, taskId: z.string().min(1).max(200), attachments: z.array(savedAttachment).max(20) }))
    .max(250),
});
/**
 * Residency: the last accepted submit, or before it the address and answers of the RESIDENCY case (created after the
 * questions, customer-information §2.3 sub-step 2), with the case (nnxTaskId) and the files uploaded to it. All null: nothing saved.
 */
const residencyRelatedData = z.object({
  addressCountry: isoCountry.nullable(),
  address: z.string().max(200).nullable(),
  zipCode: z.string().max(20).nullable(),
  city: z.string().max(100).nullable(),
  questionsAndAnswers: residencyStepRequest.shape.questionsAndAnswers.nullable(),
  nnxTaskId: z.string().min(1).max(200).nullable(),
  attachments: z.array(savedAttachment).max(20),
  submitted: z.boolean(),
});
/**
 * Tax information: the last accepted submit (taxableInTld null: none), and the proof of tax residence's case when one
 * was opened (customer-information §2.3 tax sub-step 3): its country, the files uploaded to it, whether it was submitted.
 */
const taxInfoRelatedData = z.object({
  taxableInTld: z.boolean().nullable(),
  taxInformationListOutsideOfTld: taxInfoStepRequest.shape.taxInformationListOutsideOfTld.nullable(),
  taxResidence: z
    .object({ countryCode: isoCountry, nnxTaskId: z.string().min(1).max(200), attachments: z.array(savedAttachment).max(20), submitted: z.boolean() })
    .nullable(),
});
/**
 * KYC: the answer session the brokerage carries on (the latest one not answered to its end; null when none is open), how
 * many of its pages are answered, and the page it is at (as the start call answers a page: the page shows it and goes on
 * with next / previous on the same session). answers: the latest answer per question, from every session, with its texts. questionnaireAnswered:
 * every page of a session answered (the risk calculation runs); submitted: the KYC step was accepted.
 */
const kycRelatedData = z.object({
  answerSessionId: z.string().min(1).max(100).nullable(),
  pagesAnswered: z.number().int().min(0).max(100),
  pageCount: z.number().int().min(0).max(100).nullable(),
  answerSessionPage: answerSessionPage.nullable(),
  answers: z
    .array(
      z.object({
        questionId: z.number().int().nonnegative(),
        answerIds: z.array(z.number().int().nonnegative()).max(100),
        // As the person saw them (the answer session's language): a page carrying on lists them on check your answers.
        texts: z.object({ question: z.string().min(1).max(2000), answers: z.array(z.string().max(2000)).max(100) }).optional(),
      }),
    )
    .max(100),
  questionnaireAnswered: z.boolean(),
  submitted: z.boolean(),
});
/** The legacy single form (step 'existing'): whether its prospect update was accepted; its answers are the legacy calls'. */
const existingRelatedData = z.object({ prospectUpdated: z.boolean() });

/** Related data by step name: each step's own shape (GET …/steps/{stepName}/related-data). */
export const stepRelatedDataSchemas = {
  MILESTONE_ONE_STEP: milestoneRelatedData,
  ACCOUNT_PICKER_STEP: accountPickerRelatedData,
  ACCOUNT_ALIAS_STEP: accountAliasRelatedData,
  MILESTONE_TWO_STEP: milestoneRelatedData,
  CONTACT_INFORMATION_STEP: contactRelatedData,
  CITIZENSHIP_STEP: citizenshipRelatedData,
  RESIDENCY_STEP: residencyRelatedData,
  TAX_INFO_STEP: taxInfoRelatedData,
  KYC_STEP: kycRelatedData,
  MILESTONE_THREE_STEP: milestoneRelatedData,
  EXISTING_STEP: existingRelatedData,
} as const satisfies Record<StepId, z.ZodType>;
export type StepRelatedData<S extends StepId = StepId> = z.infer<(typeof stepRelatedDataSchemas)[S]>;

/** The answer of GET related data of `step`: { data: { stepName, stepRelatedData } }. */
export type StepRelatedDataAnswer<S extends StepId> = { data: { stepName: S; stepRelatedData: StepRelatedData<S> } };
export const stepRelatedDataResponse = <S extends StepId>(step: S) =>
  z.object({ data: z.object({ stepName: z.literal(step), stepRelatedData: stepRelatedDataSchemas[step] }) }) as unknown as z.ZodType<StepRelatedDataAnswer<S>>;

/**
 * GET onboarding ready: isReady when every step of the prospect's list that holds answers is completed (the milestones
 * hold none, and milestone three is the signing itself); missingSteps names the others in the list's order, so a page
 * that is not ready says what is missing and leads to the first. Asked before signing is offered; the signature request
 * itself does not check it (the spec's signing call has no such refusal).
 */
export const onboardingReadyResponse = z.object({
  data: z.object({ isReady: z.boolean(), missingSteps: z.array(stepId).max(stepIds.length) }),
});
export type OnboardingReady = z.infer<typeof onboardingReadyResponse>['data'];
