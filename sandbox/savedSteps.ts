// What the simulated brokerage saved of each prospect's steps (every accepted submit, the cases and files), and what it
// answers from it: each step completed or not and its sub-step, the related data per step, readiness for signing
// (brokerageContract.ts "resuming an application"). Kept beside the prospect object, so POST /sandbox/reset clears it.
import type { z } from 'zod';
import {
  type AccountTypeAlias,
  type AccountTypeWithCountry,
  type ContactInfoStepRequest,
  type CountryCode,
  type createCaseRequest,
  type Milestone,
  type residencyStepRequest,
  type StepId,
  type SubmitTaxResidenceRequest,
  type taxInfoStepRequest,
  residencyQuestions,
  uploadContentType,
} from '../shared/contracts/brokerageContract.ts';
import type { OnboardingReady, ProspectStep, SavedAttachment, StepRelatedData } from '../shared/contracts/savedApplicationContract.ts';
import { answerTextsOf, pageOf, sessionLocale } from './kyc.ts';
import { DEFAULT_INITIAL_STEPS, type Persona } from './personas.ts';
import type { Locale } from '../shared/i18n.ts';
import type { Prospect, SandboxState } from './state.ts';

export const LEGACY_INITIAL_STEPS: readonly StepId[] = ['EXISTING_STEP'];

/** A citizenship submit as saved: each country with the task the brokerage answered for it; the older variant's answer. */
export interface SavedCitizenship {
  isCitizenInTld: boolean;
  entries: { countryCode: string; taskId: string; attachments: string[] }[];
  /** Sent in the older variant (shared/contracts/citizenshipContract.ts): complete as it is. */
  citizenOutsideOfTld?: boolean;
}

export interface SavedSteps {
  /** The account picker's last accepted choice. */
  pickedAccounts?: AccountTypeWithCountry[];
  aliases?: AccountTypeAlias[];
  contact?: ContactInfoStepRequest;
  citizenship?: SavedCitizenship;
  taxInfo?: z.infer<typeof taxInfoStepRequest>;
  residency?: z.infer<typeof residencyStepRequest>;
  taxResidence?: SubmitTaxResidenceRequest;
  /** POST create case: taskId → the case, in creation order. */
  cases: Map<string, z.infer<typeof createCaseRequest>>;
}

const saved = new WeakMap<Prospect, SavedSteps>();

/** What the prospect's steps saved (kept beside the prospect, cleared with it). */
export function savedSteps(prospect: Prospect): SavedSteps {
  let s = saved.get(prospect);
  if (!s) saved.set(prospect, (s = { cases: new Map() }));
  return s;
}

/** What the prospect's steps saved, without making a record for a prospect that has none. */
export const savedStepsIfAny = (prospect: Prospect): SavedSteps | undefined => saved.get(prospect);

/** The prospect owning the case `taskId` (RESIDENCY or TAX_RESIDENCE), for init-file-upload. */
export function caseProspect(state: SandboxState, taskId: string): Prospect | undefined {
  return [...state.prospects.values()].find((p) => saved.get(p)?.cases.has(taskId));
}

/** The step list of the persona's prospects of the flow (v2 legacy form or v3 step flow). */
export function stepListFor(persona: Persona, legacy: boolean): StepId[] {
  return [...(legacy ? LEGACY_INITIAL_STEPS : (persona.behaviour.initialSteps ?? DEFAULT_INITIAL_STEPS))];
}

/** The prospect's step list, as GET initial steps answers it. */
export const stepListOf = (prospect: Prospect): StepId[] => stepListFor(prospect.owner, prospect.legacy);

/** A registered address per country, as the population register would give it. */
export const REGISTERED_ADDRESSES: Record<CountryCode, { address: string; zipCode: string; city: string }> = {
  SE: { address: 'Drottninggatan 12', zipCode: '111 51', city: 'Stockholm' },
  NO: { address: 'Karl Johans gate 5', zipCode: '0154', city: 'Oslo' },
  DK: { address: 'Vesterbrogade 10', zipCode: '1620', city: 'København V' },
  FI: { address: 'Mannerheimintie 1', zipCode: '00100', city: 'Helsinki' },
};

// --- files ------------------------------------------------------------------------------------------

/** The files uploaded (bytes stored) to `taskId`; only those of `ids` when given, in that order. */
function attachmentsOf(state: SandboxState, taskId: string, ids?: readonly string[]): SavedAttachment[] {
  const stored = [...state.storedObjects.values()].filter((o) => o.taskId === taskId && o.bytes);
  const chosen = ids ? ids.flatMap((id) => stored.filter((o) => o.attachmentId === id)) : stored;
  return chosen.flatMap((o) => {
    const contentType = uploadContentType.safeParse(o.contentType);
    return contentType.success ? [{ attachmentId: o.attachmentId, fileName: o.fileName, contentType: contentType.data }] : [];
  });
}

/** The prospect's latest case of `type`, with its taskId. */
function latestCase(steps: SavedSteps, type: 'RESIDENCY' | 'TAX_RESIDENCE') {
  const found = [...steps.cases].filter(([, c]) => c.type === type).at(-1);
  return found ? { taskId: found[0], ...found[1] } : undefined;
}

// --- each step: completed, sub-step, related data ---------------------------------------------------

const MILESTONE_OF: Partial<Record<StepId, Milestone>> = { MILESTONE_ONE_STEP: 'one', MILESTONE_TWO_STEP: 'two', MILESTONE_THREE_STEP: 'three' };

function citizenshipComplete(c: SavedCitizenship | undefined): boolean {
  if (c?.citizenOutsideOfTld !== undefined) return true;
  return !!c && (c.isCitizenInTld || c.entries.length > 0) && c.entries.every((e) => e.attachments.length > 0);
}

function kycOf(state: SandboxState, prospect: Prospect): StepRelatedData<'KYC_STEP'> {
  const record = state.kyc.get(prospect.id);
  const sessions = [...state.kycAnswerSessions.values()].filter((s) => s.prospectId === prospect.id);
  const open = sessions.filter((s) => s.pageIndex < s.pages.length).at(-1);
  const shown = open ?? sessions.at(-1);
  const page = open?.pages[open.pageIndex];
  return {
    answerSessionId: open?.id ?? null,
    pagesAnswered: shown?.pageIndex ?? 0,
    pageCount: shown?.pages.length ?? null,
    answerSessionPage: open && page ? pageOf(page, open.pageIndex < open.pages.length - 1, open.locale as Locale, prospect.country) : null,
    answers: [...(record?.answers ?? [])].map(([questionId, answerIds]) => {
      const texts = answerTextsOf(questionId, answerIds, (shown?.locale as Locale | undefined) ?? sessionLocale(undefined, prospect.country), prospect.country);
      return { questionId, answerIds: [...answerIds], ...(texts ? { texts } : {}) };
    }),
    questionnaireAnswered: (record?.answered ?? false) || prospect.owner.behaviour.kycAlreadyAnswered === true,
    submitted: record?.submitted ?? false,
  };
}

function residencyOf(state: SandboxState, steps: SavedSteps): StepRelatedData<'RESIDENCY_STEP'> {
  const submitted = steps.residency;
  if (submitted) {
    const { addressCountry, address, zipCode, city, questionsAndAnswers, nnxTaskId } = submitted;
    const attachments = attachmentsOf(
      state,
      nnxTaskId,
      submitted.attachments.map((a) => a.attachmentId),
    );
    return { addressCountry, address, zipCode, city, questionsAndAnswers, nnxTaskId, attachments, submitted: true };
  }
  const open = latestCase(steps, 'RESIDENCY');
  const data = open?.taskData ?? {};
  const text = (key: string) => data[key] ?? null;
  const answered = residencyQuestions.every((q) => data[q]);
  return {
    addressCountry: /^[A-Z]{2}$/.test(data.addressCountry ?? '') ? data.addressCountry! : null,
    address: text('address'),
    zipCode: text('zipCode'),
    city: text('city'),
    questionsAndAnswers: answered ? residencyQuestions.map((question) => ({ question, answer: data[question]! })) : null,
    nnxTaskId: open?.taskId ?? null,
    attachments: open ? attachmentsOf(state, open.taskId) : [],
    submitted: false,
  };
}

function taxInfoOf(state: SandboxState, steps: SavedSteps): StepRelatedData<'TAX_INFO_STEP'> {
  const proofCase = latestCase(steps, 'TAX_RESIDENCE');
  const proofSubmitted = !!proofCase && steps.taxResidence?.nnxTaskId === proofCase.taskId;
  return {
    taxableInTld: steps.taxInfo?.taxableInTld ?? null,
    taxInformationListOutsideOfTld: steps.taxInfo ? steps.taxInfo.taxInformationListOutsideOfTld.map((i) => ({ ...i })) : null,
    taxResidence: proofCase
      ? {
          countryCode: proofCase.taskData.countryCode ?? '',
          nnxTaskId: proofCase.taskId,
          attachments: attachmentsOf(state, proofCase.taskId, proofSubmitted ? steps.taxResidence!.attachments.map((a) => a.attachmentId) : undefined),
          submitted: proofSubmitted,
        }
      : null,
  };
}

/** The related data of one step of the prospect, in the step's contract shape. */
export function relatedDataOf<S extends StepId>(state: SandboxState, prospect: Prospect, step: S): StepRelatedData<S> {
  const steps = savedSteps(prospect);
  const milestone = MILESTONE_OF[step];
  const passedAt = milestone ? prospect.milestones.get(milestone) : undefined;
  const data: { [K in StepId]: () => StepRelatedData<K> } = {
    MILESTONE_ONE_STEP: () => ({ passedAt: passedAt === undefined ? null : new Date(passedAt).toISOString() }),
    MILESTONE_TWO_STEP: () => ({ passedAt: passedAt === undefined ? null : new Date(passedAt).toISOString() }),
    MILESTONE_THREE_STEP: () => ({ passedAt: passedAt === undefined ? null : new Date(passedAt).toISOString() }),
    ACCOUNT_PICKER_STEP: () => ({ accountTypesWithCountry: prospect.accountTypes ? [...prospect.accountTypes] : null }),
    ACCOUNT_ALIAS_STEP: () => ({ accountTypeAliases: steps.aliases ? steps.aliases.map((a) => ({ ...a })) : null }),
    CONTACT_INFORMATION_STEP: () => {
      const address = prospect.owner.behaviour.noRegisteredAddress ? null : REGISTERED_ADDRESSES[prospect.country];
      return {
        ...(address ?? { address: null, zipCode: null, city: null }),
        email: steps.contact?.email ?? null,
        mobilePhoneNumber: steps.contact?.mobilePhoneNumber ?? null,
      };
    },
    CITIZENSHIP_STEP: () => ({
      isCitizenInTld: steps.citizenship?.isCitizenInTld ?? null,
      ...(steps.citizenship?.citizenOutsideOfTld !== undefined ? { citizenOutsideOfTld: steps.citizenship.citizenOutsideOfTld } : {}),
      citizenshipInformationList: (steps.citizenship?.entries ?? []).map((e) => ({
        countryCode: e.countryCode,
        taskId: e.taskId,
        attachments: attachmentsOf(state, e.taskId, e.attachments.length ? e.attachments : undefined),
      })),
    }),
    RESIDENCY_STEP: () => residencyOf(state, steps),
    TAX_INFO_STEP: () => taxInfoOf(state, steps),
    KYC_STEP: () => kycOf(state, prospect),
    EXISTING_STEP: () => ({ prospectUpdated: state.legacyProspects.get(prospect.id)?.accepted !== undefined }),
  };
  return data[step]() as StepRelatedData<S>;
}

/** Whether the step's answers are all saved, and where it carries on when they are not (brokerageContract.ts prospectStep). */
export function stepStateOf(state: SandboxState, prospect: Prospect, step: StepId): ProspectStep {
  const steps = savedSteps(prospect);
  const at = (completed: boolean, subStep = 0): ProspectStep => ({ stepName: step, completed, subStep: completed ? 0 : subStep });
  const milestone = MILESTONE_OF[step];
  if (milestone) return at(prospect.milestones.has(milestone));
  switch (step) {
    case 'ACCOUNT_PICKER_STEP':
      return at(steps.pickedAccounts !== undefined);
    case 'ACCOUNT_ALIAS_STEP':
      return at(steps.aliases !== undefined);
    case 'CONTACT_INFORMATION_STEP':
      return at(steps.contact !== undefined);
    // Countries submitted, proof missing: the upload sub-step (customer-information §2.3 citizenship 2).
    case 'CITIZENSHIP_STEP':
      return at(citizenshipComplete(steps.citizenship), steps.citizenship ? 2 : 0);
    // The case is created after the address and the questions: the documents sub-step (residency 2).
    case 'RESIDENCY_STEP':
      return at(steps.residency !== undefined, latestCase(steps, 'RESIDENCY') ? 2 : 0);
    // A proof-of-tax-residence case not submitted yet: the proof sub-step (tax information 3).
    case 'TAX_INFO_STEP': {
      const tax = taxInfoOf(state, steps);
      const proofOpen = tax.taxResidence !== null && !tax.taxResidence.submitted;
      return at(steps.taxInfo !== undefined && !proofOpen, proofOpen ? 3 : 0);
    }
    case 'KYC_STEP':
      return at(state.kyc.get(prospect.id)?.submitted === true);
    case 'EXISTING_STEP':
      return at(state.legacyProspects.get(prospect.id)?.accepted !== undefined);
    default:
      return at(false);
  }
}

/** GET steps' list: the prospect's steps in order, each completed or not. */
export function stepStatesOf(state: SandboxState, prospect: Prospect): ProspectStep[] {
  return stepListOf(prospect).map((step) => stepStateOf(state, prospect, step));
}

/** GET onboarding ready: every step holding answers is completed (milestones hold none); the others are missing. */
export function readinessOf(state: SandboxState, prospect: Prospect): OnboardingReady {
  const missingSteps = stepStatesOf(state, prospect)
    .filter((s) => !MILESTONE_OF[s.stepName] && !s.completed)
    .map((s) => s.stepName);
  return { isReady: missingSteps.length === 0, missingSteps };
}
