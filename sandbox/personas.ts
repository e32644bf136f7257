// Test personas of the sandbox. Each persona has one scenario that decides how the simulated upstreams treat it
// (routing status, become-customer block, customer-creation progression, BankID order lifetime). National ids are
// generated deterministically so they are valid and stable across restarts.
import type { CountryCode, CreationStatus, RoutingStatusResponse, StepId } from '../shared/contracts/brokerageContract.ts';
import type { ProspectFieldError } from '../shared/contracts/legacyContract.ts';
import { generateDanishCpr, generateNationalId, generateNorwegianId } from './nationalIds.ts';
import { CASE_SCENARIOS, caseStatusPlans, type CaseStatusPlan } from './caseStatusTasks.ts';

// The legacy single form (sandbox/legacy.ts, tests/http/legacySandboxCalls.test.ts, legacyClientPersonas.test.ts; customer-information §4.9, §8): routed as
// legacyFlow is (a v2 prospect whose only step is EXISTING_STEP), one persona per way the regulation, the prospect
// update or the legacy signature request can go. legacyFlow itself is the compliant one where everything works.
export const LEGACY_OUTCOME_SCENARIOS = [
  'legacyNonCompliant',
  'legacyRegulationWithoutId',
  'legacyMinor',
  'legacyPhoneRefused',
  'legacyEmailRefused',
  'legacyDoubleName',
  'legacySeveralErrors',
  'legacyHighRisk',
] as const;

export const scenarios = [
  'onboarding',
  'onboardingIntent',
  'login',
  'nightlyDowntimeRouting',
  'minor',
  'manualSupport',
  'openCase',
  'legacyFlow',
  'blocked',
  'customerExists',
  'accountLimit',
  'creationPaused',
  'creationNightlyDowntime',
  'creationFailed',
  'creationStuck',
  'creationSlow',
  'creationPostFails',
  'bankidExpires',
  'citizenship',
  'contactInformation',
  'contactEmailRejected',
  'accounts',
  'taxInformation',
  'residency',
  'residencyRefused',
  'livesAbroad',
  // The normal journey, for people whose national id a stricter-than-the-authority check once refused after the
  // broker (persona ids below): a CPR number without modulus 11, a Norwegian number under the 2032 control-digit
  // rule, a Tenor synthetic number (month + 80) and an H-number (month + 40).
  'cprWithoutModulus11',
  'controlDigits2032',
  'syntheticTestNumber',
  'hNumber',
  // Straight to the KYC questionnaire (sandbox/kyc.ts, tests/http/kycClientPersonas.test.ts): answered normally, and one
  // persona per way the answer session, the risk calculation or the step submit can go (customer-information §4.6).
  'kyc',
  'kycAlreadyAnswered',
  'kycBusy',
  'kycBusyForever',
  'kycNextFailsOnce',
  'kycRiskNeverDone',
  'kycMoreInformation',
  'kycUnknownType',
  ...LEGACY_OUTCOME_SCENARIOS,
  // The default step flow, its signing completed in another tab: for the "signed in another tab" visibility check
  // (customer-information §4.8). The sandbox treats it like any signature; the other tab is the test's doing.
  'signInOtherTab',
  // Straight to the accounts and signing, whose signature request answers 403: high risk (customer-information §4.8, §8).
  'signatureHighRisk',
  // The application status page's tasks and failures (sandbox/caseStatusTasks.ts; openCase above has several tasks).
  ...CASE_SCENARIOS,
  // Created like onboarding, then a call of the end of creation answers 500 (sandbox/afterCreation.ts;
  // identification-routing-creation §4 "Customer creation": the login session failing shows the error screen).
  'loginSessionFails',
  'affiliateConversionFails',
  // Starts with a half-finished application at the brokerage (sandbox/applications.ts): accounts, names and contact
  // information saved, the rest open; identifying again carries on with it (one application per person).
  'halfFinished',
] as const;
export type Scenario = (typeof scenarios)[number];

/**
 * How GET creation_status progresses after POST /api/2/customers: the first `queuedPolls` polls answer "queued"
 * (creation started, one create_customer request queued), every later poll answers `result`.
 */
export interface CreationPlan {
  queuedPolls: number | 'forever';
  result: CreationStatus;
}

/** The steps the brokerage sends a prospect living at home (a persona's initialSteps can replace them). */
export const DEFAULT_INITIAL_STEPS: readonly StepId[] = [
  'MILESTONE_ONE_STEP',
  'ACCOUNT_PICKER_STEP',
  'ACCOUNT_ALIAS_STEP',
  'MILESTONE_TWO_STEP',
  'CONTACT_INFORMATION_STEP',
  'CITIZENSHIP_STEP',
  'TAX_INFO_STEP',
  'KYC_STEP',
  'MILESTONE_THREE_STEP',
];

export interface ScenarioBehaviour {
  routing: Omit<RoutingStatusResponse, 'customerId'>;
  creation: CreationPlan;
  /** PUT become-customer-intent answers 403 { shouldBlockBecomeCustomer: true }. */
  blockBecomeCustomer?: boolean;
  /** GET onboarding status answers creationPaused: true. */
  creationPaused?: boolean;
  /** POST /api/2/customers answers 200 with this data.message and starts nothing. */
  createCustomerErrorMessage?: string;
  /** BankID orders bound to this persona expire this long after creation, whatever the sandbox option says. */
  bankidOrderLifetimeMs?: number;
  /** The prospect's initialSteps instead of the default list (tests that go straight to one step). */
  initialSteps?: StepId[];
  /** Related data of the contact step has no registered address (e.g. a protected identity). */
  noRegisteredAddress?: boolean;
  /** POST submit-contact-info-step answers 400 listing these fields. */
  contactRefusedFields?: ('email' | 'mobilePhoneNumber')[];
  /** POST submit residency step answers 400 listing these fields. */
  residencyRefusedFields?: string[];
  /** KYC answer-session start answers 403: the questionnaire counts as answered already (customer-information §4.6). */
  kycAlreadyAnswered?: boolean;
  /** KYC answer-session start answers 409 (busy) this many times per prospect before it works, or always. */
  kycBusyStarts?: number | 'forever';
  /** The first this-many answer-session next calls of a prospect answer 500. */
  kycNextFailures?: number;
  /** The risk calculation never reports done. */
  kycRiskNeverDone?: boolean;
  /** POST submit KYC step answers 403 (once the questionnaire is answered): more information is required. */
  kycMoreInformationRequired?: boolean;
  /**
   * The answer session's first page carries, after the occupation question, a question of an answer type the web
   * app does not know (FREE_TEXT, no options); the page is answered without it.
   */
  kycUnknownAnswerType?: boolean;
  /**
   * Legacy flow (sandbox/legacy.ts): POST regulation answers status non_compliant with an id (nonCompliant), or
   * status compliant without an id (withoutId), instead of compliant with a new id (customer-information §4.9).
   */
  legacyRegulation?: 'nonCompliant' | 'withoutId';
  /** Legacy flow: PUT prospect v2 answers 400 with these data.fields (customer-information §8 prospect update rows). */
  legacyRefusedFields?: ProspectFieldError[];
  /** Legacy flow: POST signatures of the legacy prospect answers 403, high risk (customer-information §4.9, §8). */
  legacyHighRisk?: boolean;
  /** Step flow: POST signatures answers 403, high risk (customer-information §8 "Signature 403"). */
  signatureHighRisk?: boolean;
  /** The application status page's tasks and failures (sandbox/caseStatusTasks.ts, sandbox/caseStatus.ts). */
  caseStatus?: CaseStatusPlan;
  /** POST nnx-session login answers 500 (sandbox/afterCreation.ts). */
  loginSessionFails?: boolean;
  /** POST affiliate conversion answers 500 (sandbox/afterCreation.ts). */
  affiliateConversionFails?: boolean;
  /** The application the person already has at the brokerage when the sandbox starts (sandbox/applications.ts). */
  savedApplication?: 'halfFinished';
}

export interface Persona {
  nationalId: string;
  country: CountryCode;
  givenName: string;
  surname: string;
  name: string;
  birthDate: string;
  scenario: Scenario;
  /** customerId reported by routing status (existing customers only). */
  customerId: string | null;
  behaviour: ScenarioBehaviour;
}

// --- creation status shapes (field names from the creation status contract) -------------

export const uninitiatedStatus = (): CreationStatus => ({
  done: false,
  creation_process_status: 'uninitiated',
  nightly_downtime: false,
  creation_requests: [],
});

export const queuedStatus = (): CreationStatus => ({
  done: false,
  creation_process_status: 'customer_creation_started',
  nightly_downtime: false,
  creation_requests: [{ request_type: 'create_customer', status: 'queued' }],
});

const doneStatus = (requests: CreationStatus['creation_requests']): CreationStatus => ({
  done: true,
  creation_process_status: 'done',
  nightly_downtime: false,
  creation_requests: requests,
});

const createdCustomer = doneStatus([{ request_type: 'create_customer', status: 'done' }]);
const onboardingRouting = { customerRoutingStatus: 'ONBOARDING', routingInformation: null } as const;
const routeTo = (customerRoutingStatus: RoutingStatusResponse['customerRoutingStatus']) => ({ customerRoutingStatus, routingInformation: null }) as const;
const defaultCreation: CreationPlan = { queuedPolls: 2, result: createdCustomer };
/** Straight to the KYC questionnaire, then signing. */
const kycSteps = (): StepId[] => ['KYC_STEP', 'MILESTONE_THREE_STEP'];
const kycPersona = (behaviour: Partial<ScenarioBehaviour> = {}): ScenarioBehaviour => ({
  routing: onboardingRouting,
  creation: defaultCreation,
  initialSteps: kycSteps(),
  ...behaviour,
});

/** Routing SHOULD_NOT_UPDATE_STATUS: a v2 (legacy) prospect whose initialSteps are EXISTING_STEP (the legacy single form). */
const legacyPersona = (behaviour: Partial<ScenarioBehaviour> = {}): ScenarioBehaviour => ({
  routing: { customerRoutingStatus: 'ONBOARDING', routingInformation: ['SHOULD_NOT_UPDATE_STATUS'] },
  creation: defaultCreation,
  ...behaviour,
});
/** The prospect update's refusal of the phone number and of the e-mail (the upstream spells that field 'Email'). */
const PHONE_REFUSED: ProspectFieldError = { code: 'Invalid', field: 'phone_number' };
const EMAIL_REFUSED: ProspectFieldError = { code: 'Invalid', field: 'Email' };

export const scenarioBehaviours: Record<Scenario, ScenarioBehaviour> = {
  onboarding: { routing: onboardingRouting, creation: defaultCreation },
  onboardingIntent: { routing: routeTo('ONBOARDING_INTENT'), creation: defaultCreation },
  login: { routing: routeTo('LOGIN'), creation: defaultCreation },
  nightlyDowntimeRouting: { routing: routeTo('ONBOARDING_NIGHTLY_DOWNTIME'), creation: defaultCreation },
  minor: { routing: routeTo('MINOR'), creation: defaultCreation },
  manualSupport: { routing: routeTo('MANUAL_SUPPORT'), creation: defaultCreation },
  openCase: { routing: routeTo('ONBOARDING_OPEN_CASE'), creation: defaultCreation, caseStatus: caseStatusPlans.openCase },
  // The legacy single form where everything works: a compliant regulation with an id, the update and signing accepted.
  legacyFlow: legacyPersona(),
  blocked: { routing: onboardingRouting, creation: defaultCreation, blockBecomeCustomer: true },
  customerExists: {
    routing: onboardingRouting,
    creation: { queuedPolls: 1, result: doneStatus([{ request_type: 'update_customer', status: 'done' }]) },
  },
  accountLimit: {
    routing: onboardingRouting,
    creation: {
      queuedPolls: 1,
      result: doneStatus([
        { request_type: 'create_customer', status: 'done' },
        { request_type: 'create_account', status: 'rejected' },
      ]),
    },
  },
  creationPaused: { routing: onboardingRouting, creation: { queuedPolls: 'forever', result: createdCustomer }, creationPaused: true },
  creationNightlyDowntime: {
    routing: onboardingRouting,
    creation: { queuedPolls: 0, result: { ...queuedStatus(), nightly_downtime: true } },
  },
  creationFailed: {
    routing: onboardingRouting,
    creation: {
      queuedPolls: 1,
      result: {
        done: false,
        creation_process_status: 'failed',
        nightly_downtime: false,
        creation_requests: [{ request_type: 'create_customer', status: 'failed' }],
      },
    },
  },
  creationStuck: { routing: onboardingRouting, creation: { queuedPolls: 'forever', result: createdCustomer } },
  creationSlow: { routing: onboardingRouting, creation: { queuedPolls: 8, result: createdCustomer } },
  creationPostFails: {
    routing: onboardingRouting,
    creation: defaultCreation,
    createCustomerErrorMessage: 'Customer creation could not be started',
  },
  bankidExpires: { routing: onboardingRouting, creation: defaultCreation, bankidOrderLifetimeMs: 3_000 },
  citizenship: { routing: onboardingRouting, creation: defaultCreation, initialSteps: ['CITIZENSHIP_STEP', 'MILESTONE_THREE_STEP'] },
  contactInformation: { routing: onboardingRouting, creation: defaultCreation, initialSteps: ['CONTACT_INFORMATION_STEP', 'MILESTONE_THREE_STEP'] },
  // Straight to the account picker and alias steps (tests/e2e/customerInformationAccounts.test.ts).
  accounts: { routing: onboardingRouting, creation: defaultCreation, initialSteps: ['ACCOUNT_PICKER_STEP', 'ACCOUNT_ALIAS_STEP', 'MILESTONE_THREE_STEP'] },
  // Straight to the tax information step (tests/e2e/taxInformation.test.ts).
  taxInformation: { routing: onboardingRouting, creation: defaultCreation, initialSteps: ['TAX_INFO_STEP', 'MILESTONE_THREE_STEP'] },
  // Lives abroad: straight to the residency step, then the tax step (which reads the address country) (tests/e2e/residency.test.ts).
  residency: { routing: onboardingRouting, creation: defaultCreation, initialSteps: ['RESIDENCY_STEP', 'TAX_INFO_STEP', 'MILESTONE_THREE_STEP'] },
  // Lives abroad, and the upstream refuses the residency submit naming the zip code and an answer (tests/http/residency.test.ts).
  residencyRefused: {
    routing: onboardingRouting,
    creation: defaultCreation,
    initialSteps: ['RESIDENCY_STEP', 'TAX_INFO_STEP', 'MILESTONE_THREE_STEP'],
    residencyRefusedFields: ['zipCode', 'questionsAndAnswers.2.answer'],
  },
  // Lives abroad, every step: the full list with the residency step before tax (tests/support/marketWalk.ts).
  livesAbroad: {
    routing: onboardingRouting,
    creation: defaultCreation,
    initialSteps: DEFAULT_INITIAL_STEPS.flatMap((s): StepId[] => (s === 'TAX_INFO_STEP' ? ['RESIDENCY_STEP', s] : [s])),
  },
  contactEmailRejected: {
    routing: onboardingRouting,
    creation: defaultCreation,
    initialSteps: ['CONTACT_INFORMATION_STEP', 'MILESTONE_THREE_STEP'],
    noRegisteredAddress: true,
    contactRefusedFields: ['email'],
  },
  cprWithoutModulus11: { routing: onboardingRouting, creation: defaultCreation },
  controlDigits2032: { routing: onboardingRouting, creation: defaultCreation },
  syntheticTestNumber: { routing: onboardingRouting, creation: defaultCreation },
  hNumber: { routing: onboardingRouting, creation: defaultCreation },
  // The KYC questionnaire (sandbox/kyc.ts): answered normally, and its failure modes (tests/http/kycClientPersonas.test.ts).
  kyc: kycPersona(),
  kycAlreadyAnswered: kycPersona({ kycAlreadyAnswered: true }),
  kycBusy: kycPersona({ kycBusyStarts: 3 }),
  kycBusyForever: kycPersona({ kycBusyStarts: 'forever' }),
  kycNextFailsOnce: kycPersona({ kycNextFailures: 1 }),
  kycRiskNeverDone: kycPersona({ kycRiskNeverDone: true }),
  kycMoreInformation: kycPersona({ kycMoreInformationRequired: true }),
  kycUnknownType: kycPersona({ kycUnknownAnswerType: true }),
  // The legacy single form's failure modes (sandbox/legacy.ts, tests/http/legacyClientPersonas.test.ts).
  legacyNonCompliant: legacyPersona({ legacyRegulation: 'nonCompliant' }),
  legacyRegulationWithoutId: legacyPersona({ legacyRegulation: 'withoutId' }),
  legacyMinor: legacyPersona({ legacyRefusedFields: [{ code: 'Age', field: 'national_id_number' }] }),
  legacyPhoneRefused: legacyPersona({ legacyRefusedFields: [PHONE_REFUSED] }),
  legacyEmailRefused: legacyPersona({ legacyRefusedFields: [EMAIL_REFUSED] }),
  // The persona's surname has two words, so the web app can tell a doubleName from this refusal (customer-information §5, §8).
  legacyDoubleName: legacyPersona({ legacyRefusedFields: [{ code: 'natregno', field: 'national_id_number' }] }),
  legacySeveralErrors: legacyPersona({ legacyRefusedFields: [PHONE_REFUSED, EMAIL_REFUSED] }),
  legacyHighRisk: legacyPersona({ legacyHighRisk: true }),
  // For the "signed in another tab" visibility check (customer-information §4.8): the default step flow
  // (DEFAULT_INITIAL_STEPS) and a normal signature, which the person completes in another tab.
  signInOtherTab: { routing: onboardingRouting, creation: defaultCreation, initialSteps: [...DEFAULT_INITIAL_STEPS] },
  signatureHighRisk: {
    routing: onboardingRouting,
    creation: defaultCreation,
    initialSteps: ['ACCOUNT_PICKER_STEP', 'MILESTONE_THREE_STEP'],
    signatureHighRisk: true,
  },
  ...casePersonas(),
  loginSessionFails: { routing: onboardingRouting, creation: defaultCreation, loginSessionFails: true },
  affiliateConversionFails: { routing: onboardingRouting, creation: defaultCreation, affiliateConversionFails: true },
  halfFinished: { routing: onboardingRouting, creation: defaultCreation, savedApplication: 'halfFinished' },
};

/** The status page's personas: routed to their open case, each with its tasks (sandbox/caseStatusTasks.ts). */
function casePersonas(): Record<(typeof CASE_SCENARIOS)[number], ScenarioBehaviour> {
  const open = (plan: CaseStatusPlan): ScenarioBehaviour => ({ routing: routeTo('ONBOARDING_OPEN_CASE'), creation: defaultCreation, caseStatus: plan });
  return Object.fromEntries(CASE_SCENARIOS.map((s) => [s, open(caseStatusPlans[s])])) as Record<(typeof CASE_SCENARIOS)[number], ScenarioBehaviour>;
}

// --- the persona list -------------------------------------------------------------------

interface PersonaSeed {
  country: CountryCode;
  givenName: string;
  surname: string;
  birthDate: string;
  scenario: Scenario;
  customerId?: string;
  /** An unusual kind of national id instead of the country's ordinary one (same birth date and serial). */
  nationalId?: (birthDate: string, serial: number) => string;
}

const seeds: PersonaSeed[] = [
  { country: 'SE', givenName: 'Astrid', surname: 'Lindqvist', birthDate: '1988-04-12', scenario: 'onboarding' },
  { country: 'SE', givenName: 'Erik', surname: 'Johansson', birthDate: '1979-09-23', scenario: 'onboardingIntent' },
  { country: 'SE', givenName: 'Karin', surname: 'Bergström', birthDate: '1965-01-30', scenario: 'login', customerId: '4100021' },
  { country: 'SE', givenName: 'Lars', surname: 'Nilsson', birthDate: '1972-06-05', scenario: 'nightlyDowntimeRouting' },
  { country: 'SE', givenName: 'Elsa', surname: 'Andersson', birthDate: '2012-03-08', scenario: 'minor' },
  { country: 'SE', givenName: 'Gustav', surname: 'Eriksson', birthDate: '1983-11-17', scenario: 'manualSupport' },
  { country: 'SE', givenName: 'Ingrid', surname: 'Svensson', birthDate: '1991-02-14', scenario: 'openCase' },
  { country: 'SE', givenName: 'Johan', surname: 'Karlsson', birthDate: '1986-08-29', scenario: 'legacyFlow' },
  { country: 'SE', givenName: 'Sofia', surname: 'Persson', birthDate: '1994-12-01', scenario: 'blocked' },
  { country: 'SE', givenName: 'Magnus', surname: 'Olsson', birthDate: '1970-05-19', scenario: 'customerExists', customerId: '4100034' },
  { country: 'SE', givenName: 'Maja', surname: 'Larsson', birthDate: '1998-07-07', scenario: 'accountLimit' },
  { country: 'SE', givenName: 'Nils', surname: 'Gustafsson', birthDate: '1961-10-03', scenario: 'creationPaused' },
  { country: 'SE', givenName: 'Linnéa', surname: 'Pettersson', birthDate: '1996-04-26', scenario: 'creationNightlyDowntime' },
  { country: 'SE', givenName: 'Oskar', surname: 'Jonsson', birthDate: '1989-03-15', scenario: 'creationFailed' },
  { country: 'SE', givenName: 'Ebba', surname: 'Jansson', birthDate: '1993-09-09', scenario: 'creationStuck' },
  { country: 'SE', givenName: 'Henrik', surname: 'Hansson', birthDate: '1977-12-24', scenario: 'creationSlow' },
  { country: 'SE', givenName: 'Freja', surname: 'Axelsson', birthDate: '2000-01-31', scenario: 'creationPostFails' },
  { country: 'SE', givenName: 'Sven', surname: 'Åberg', birthDate: '1958-02-20', scenario: 'bankidExpires' },
  { country: 'NO', givenName: 'Sigrid', surname: 'Haugland', birthDate: '1990-05-17', scenario: 'onboarding' },
  { country: 'DK', givenName: 'Mads', surname: 'Nørgaard', birthDate: '1985-06-05', scenario: 'onboarding' },
  { country: 'FI', givenName: 'Aino', surname: 'Virtanen', birthDate: '1992-12-06', scenario: 'onboarding' },
  { country: 'SE', givenName: 'Alva', surname: 'Ek', birthDate: '1987-05-05', scenario: 'accounts' },
  { country: 'SE', givenName: 'Vera', surname: 'Lundgren', birthDate: '1984-09-14', scenario: 'taxInformation' },
  { country: 'NO', givenName: 'Ingrid', surname: 'Dahl', birthDate: '1984-02-11', scenario: 'accounts' },
  { country: 'DK', givenName: 'Freja', surname: 'Lund', birthDate: '1991-09-19', scenario: 'accounts' },
  { country: 'FI', givenName: 'Eero', surname: 'Laine', birthDate: '1980-10-10', scenario: 'accounts' },
  // Identified through the OIDC broker's sandbox login page (sandbox/oidcProvider.ts).
  { country: 'NO', givenName: 'Ola', surname: 'Nordmann', birthDate: '1968-03-21', scenario: 'login', customerId: '4200011' },
  { country: 'NO', givenName: 'Emma', surname: 'Berg', birthDate: '2011-08-14', scenario: 'minor' },
  { country: 'DK', givenName: 'Karen', surname: 'Holm', birthDate: '1974-11-02', scenario: 'login', customerId: '4300011' },
  { country: 'DK', givenName: 'Freja', surname: 'Madsen', birthDate: '2012-02-09', scenario: 'minor' },
  { country: 'FI', givenName: 'Matti', surname: 'Korhonen', birthDate: '1966-07-30', scenario: 'login', customerId: '4400011' },
  { country: 'FI', givenName: 'Helmi', surname: 'Nieminen', birthDate: '2013-04-18', scenario: 'minor' },
  { country: 'SE', givenName: 'Alva', surname: 'Lundgren', birthDate: '1987-10-11', scenario: 'citizenship' },
  { country: 'SE', givenName: 'Vera', surname: 'Holmberg', birthDate: '1990-03-22', scenario: 'contactInformation' },
  { country: 'SE', givenName: 'Albin', surname: 'Sandberg', birthDate: '1984-08-16', scenario: 'contactEmailRejected' },
  { country: 'SE', givenName: 'Hugo', surname: 'Wallin', birthDate: '1982-06-18', scenario: 'residency' },
  { country: 'SE', givenName: 'Klara', surname: 'Forsberg', birthDate: '1992-11-03', scenario: 'residencyRefused' },
  { country: 'SE', givenName: 'Tove', surname: 'Berg', birthDate: '1986-01-21', scenario: 'livesAbroad' },
  { country: 'NO', givenName: 'Kari', surname: 'Solberg', birthDate: '1979-08-08', scenario: 'livesAbroad' },
  { country: 'DK', givenName: 'Anne', surname: 'Thomsen', birthDate: '1988-03-30', scenario: 'livesAbroad' },
  { country: 'FI', givenName: 'Juha', surname: 'Mäkinen', birthDate: '1975-12-12', scenario: 'livesAbroad' },
  // National ids a checksum stricter than the issuing authority's once refused (identified through the OIDC broker).
  // 1 January is one of the birth dates whose modulus-11 CPR numbers ran out, hence the numbers issued since 2007.
  {
    country: 'DK',
    givenName: 'Jens',
    surname: 'Kjær',
    birthDate: '1965-01-01',
    scenario: 'cprWithoutModulus11',
    nationalId: (birthDate, serial) => generateDanishCpr(birthDate, serial, { modulus11: false }),
  },
  {
    country: 'NO',
    givenName: 'Nora',
    surname: 'Lie',
    birthDate: '1982-10-30',
    scenario: 'controlDigits2032',
    nationalId: (birthDate, serial) => generateNorwegianId(birthDate, serial, { controlDigitRule: '2032' }),
  },
  {
    country: 'NO',
    givenName: 'Tor',
    surname: 'Bakken',
    birthDate: '1994-02-12',
    scenario: 'syntheticTestNumber',
    nationalId: (birthDate, serial) => generateNorwegianId(birthDate, serial, { series: 'synthetic' }),
  },
  {
    country: 'NO',
    givenName: 'Marit',
    surname: 'Strand',
    birthDate: '1976-10-15',
    scenario: 'hNumber',
    nationalId: (birthDate, serial) => generateNorwegianId(birthDate, serial, { series: 'H-nummer' }),
  },
  // The KYC questionnaire and its failure modes (added last, so every earlier persona keeps its national id).
  { country: 'SE', givenName: 'Ida', surname: 'Lindberg', birthDate: '1989-07-21', scenario: 'kyc' },
  { country: 'SE', givenName: 'Anders', surname: 'Lindholm', birthDate: '1969-03-04', scenario: 'kycAlreadyAnswered' },
  { country: 'SE', givenName: 'Emil', surname: 'Sjöberg', birthDate: '1995-10-27', scenario: 'kycBusy' },
  { country: 'SE', givenName: 'Wilma', surname: 'Engström', birthDate: '1997-06-13', scenario: 'kycBusyForever' },
  { country: 'SE', givenName: 'Fredrik', surname: 'Nyström', birthDate: '1981-01-09', scenario: 'kycNextFailsOnce' },
  { country: 'SE', givenName: 'Hanna', surname: 'Björk', birthDate: '1990-08-02', scenario: 'kycRiskNeverDone' },
  { country: 'SE', givenName: 'Per', surname: 'Söderberg', birthDate: '1963-11-28', scenario: 'kycMoreInformation' },
  { country: 'SE', givenName: 'Elin', surname: 'Strömberg', birthDate: '1993-04-16', scenario: 'kycUnknownType' },
  // The legacy single form in all four markets (added after the KYC personas, so every earlier persona keeps its
  // national id), and the step flow signed in another tab. The legacyDoubleName personas have a two-word surname.
  { country: 'SE', givenName: 'Lena', surname: 'Blom', birthDate: '1976-03-11', scenario: 'legacyNonCompliant' },
  { country: 'SE', givenName: 'Mats', surname: 'Hedlund', birthDate: '1971-09-02', scenario: 'legacyRegulationWithoutId' },
  { country: 'SE', givenName: 'Julia', surname: 'Ekström', birthDate: '1999-05-23', scenario: 'legacyMinor' },
  { country: 'SE', givenName: 'Viktor', surname: 'Lindahl', birthDate: '1985-12-08', scenario: 'legacyPhoneRefused' },
  { country: 'SE', givenName: 'Sara', surname: 'Norberg', birthDate: '1992-06-30', scenario: 'legacyEmailRefused' },
  { country: 'SE', givenName: 'Kristina', surname: 'Andersson Berg', birthDate: '1980-04-14', scenario: 'legacyDoubleName' },
  { country: 'SE', givenName: 'Anton', surname: 'Holmgren', birthDate: '1988-11-19', scenario: 'legacySeveralErrors' },
  { country: 'SE', givenName: 'Peter', surname: 'Falk', birthDate: '1967-08-25', scenario: 'legacyHighRisk' },
  { country: 'SE', givenName: 'Emma', surname: 'Sjögren', birthDate: '1994-03-03', scenario: 'signInOtherTab' },
  { country: 'NO', givenName: 'Lars', surname: 'Haugen', birthDate: '1983-05-09', scenario: 'legacyFlow' },
  { country: 'NO', givenName: 'Ingrid', surname: 'Moen', birthDate: '1977-10-21', scenario: 'legacyNonCompliant' },
  { country: 'NO', givenName: 'Kjetil', surname: 'Lunde', birthDate: '1969-12-14', scenario: 'legacyRegulationWithoutId' },
  { country: 'NO', givenName: 'Silje', surname: 'Aas', birthDate: '1998-02-27', scenario: 'legacyMinor' },
  { country: 'NO', givenName: 'Håkon', surname: 'Eide', birthDate: '1986-07-04', scenario: 'legacyPhoneRefused' },
  { country: 'NO', givenName: 'Marte', surname: 'Brekke', birthDate: '1991-01-16', scenario: 'legacyEmailRefused' },
  { country: 'NO', givenName: 'Kristin', surname: 'Johansen Dahl', birthDate: '1981-08-12', scenario: 'legacyDoubleName' },
  { country: 'NO', givenName: 'Eirik', surname: 'Vik', birthDate: '1989-04-03', scenario: 'legacySeveralErrors' },
  { country: 'NO', givenName: 'Trond', surname: 'Myhre', birthDate: '1964-06-19', scenario: 'legacyHighRisk' },
  { country: 'NO', givenName: 'Ane', surname: 'Sæther', birthDate: '1995-09-28', scenario: 'signInOtherTab' },
  { country: 'DK', givenName: 'Søren', surname: 'Kristensen', birthDate: '1982-03-15', scenario: 'legacyFlow' },
  { country: 'DK', givenName: 'Mette', surname: 'Poulsen', birthDate: '1975-11-06', scenario: 'legacyNonCompliant' },
  { country: 'DK', givenName: 'Henrik', surname: 'Rasmussen', birthDate: '1970-01-27', scenario: 'legacyRegulationWithoutId' },
  { country: 'DK', givenName: 'Ida', surname: 'Christensen', birthDate: '1999-08-31', scenario: 'legacyMinor' },
  { country: 'DK', givenName: 'Mikkel', surname: 'Larsen', birthDate: '1987-02-18', scenario: 'legacyPhoneRefused' },
  { country: 'DK', givenName: 'Camilla', surname: 'Pedersen', birthDate: '1993-07-22', scenario: 'legacyEmailRefused' },
  { country: 'DK', givenName: 'Louise', surname: 'Møller Jensen', birthDate: '1984-12-05', scenario: 'legacyDoubleName' },
  { country: 'DK', givenName: 'Rasmus', surname: 'Andersen', birthDate: '1990-10-13', scenario: 'legacySeveralErrors' },
  { country: 'DK', givenName: 'Bo', surname: 'Sørensen', birthDate: '1962-04-09', scenario: 'legacyHighRisk' },
  { country: 'DK', givenName: 'Sofie', surname: 'Jørgensen', birthDate: '1996-05-26', scenario: 'signInOtherTab' },
  { country: 'FI', givenName: 'Mikko', surname: 'Heikkinen', birthDate: '1981-06-23', scenario: 'legacyFlow' },
  { country: 'FI', givenName: 'Satu', surname: 'Koskinen', birthDate: '1974-09-17', scenario: 'legacyNonCompliant' },
  { country: 'FI', givenName: 'Timo', surname: 'Järvinen', birthDate: '1968-11-29', scenario: 'legacyRegulationWithoutId' },
  { country: 'FI', givenName: 'Emilia', surname: 'Lehtonen', birthDate: '1998-10-07', scenario: 'legacyMinor' },
  { country: 'FI', givenName: 'Ville', surname: 'Hämäläinen', birthDate: '1986-03-28', scenario: 'legacyPhoneRefused' },
  { country: 'FI', givenName: 'Laura', surname: 'Salminen', birthDate: '1992-02-09', scenario: 'legacyEmailRefused' },
  { country: 'FI', givenName: 'Anna', surname: 'Virtanen Salo', birthDate: '1983-07-11', scenario: 'legacyDoubleName' },
  { country: 'FI', givenName: 'Jussi', surname: 'Heinonen', birthDate: '1989-12-20', scenario: 'legacySeveralErrors' },
  { country: 'FI', givenName: 'Kari', surname: 'Niemi', birthDate: '1963-05-02', scenario: 'legacyHighRisk' },
  { country: 'FI', givenName: 'Noora', surname: 'Tuominen', birthDate: '1995-01-24', scenario: 'signInOtherTab' },
  // The step flow's signature answering 403 (added last, so every earlier persona keeps its national id).
  { country: 'SE', givenName: 'Oskar', surname: 'Wallin', birthDate: '1979-10-05', scenario: 'signatureHighRisk' },
  // The application status page (added last, so every earlier persona keeps its national id): openCase in the other
  // three markets, and every case scenario in all four.
  { country: 'NO', givenName: 'Solveig', surname: 'Rønning', birthDate: '1987-04-02', scenario: 'openCase' },
  { country: 'DK', givenName: 'Birgitte', surname: 'Lauridsen', birthDate: '1983-09-12', scenario: 'openCase' },
  { country: 'FI', givenName: 'Kaisa', surname: 'Lindroos', birthDate: '1990-06-21', scenario: 'openCase' },
  { country: 'SE', givenName: 'Agnes', surname: 'Lund', birthDate: '1969-05-22', scenario: 'caseResidency' },
  { country: 'SE', givenName: 'Olle', surname: 'Berglund', birthDate: '1966-06-19', scenario: 'caseTaxLiability' },
  { country: 'SE', givenName: 'Märta', surname: 'Hedberg', birthDate: '1970-01-14', scenario: 'caseTaxResidence' },
  { country: 'SE', givenName: 'Rune', surname: 'Sundqvist', birthDate: '1986-02-04', scenario: 'caseAnswered' },
  { country: 'SE', givenName: 'Greta', surname: 'Åström', birthDate: '1968-06-16', scenario: 'caseNoTasks' },
  { country: 'SE', givenName: 'Bengt', surname: 'Wikström', birthDate: '1997-08-14', scenario: 'caseTaskListFails' },
  { country: 'SE', givenName: 'Stina', surname: 'Mattsson', birthDate: '1973-04-11', scenario: 'caseUpdateFailsThrice' },
  { country: 'SE', givenName: 'Göran', surname: 'Lindell', birthDate: '1981-06-14', scenario: 'caseTriggerFails' },
  { country: 'NO', givenName: 'Ragnhild', surname: 'Nilsen', birthDate: '1965-11-17', scenario: 'caseResidency' },
  { country: 'NO', givenName: 'Einar', surname: 'Hagen', birthDate: '1991-07-03', scenario: 'caseTaxLiability' },
  { country: 'NO', givenName: 'Tone', surname: 'Kristiansen', birthDate: '1973-10-08', scenario: 'caseTaxResidence' },
  { country: 'NO', givenName: 'Arne', surname: 'Berge', birthDate: '1962-04-04', scenario: 'caseAnswered' },
  { country: 'NO', givenName: 'Hilde', surname: 'Jakobsen', birthDate: '1965-04-09', scenario: 'caseNoTasks' },
  { country: 'NO', givenName: 'Odd', surname: 'Pedersen', birthDate: '1978-05-23', scenario: 'caseTaskListFails' },
  { country: 'NO', givenName: 'Liv', surname: 'Halvorsen', birthDate: '1976-03-20', scenario: 'caseUpdateFailsThrice' },
  { country: 'NO', givenName: 'Bjørn', surname: 'Knutsen', birthDate: '1967-01-09', scenario: 'caseTriggerFails' },
  { country: 'DK', givenName: 'Lone', surname: 'Mikkelsen', birthDate: '1974-04-19', scenario: 'caseResidency' },
  { country: 'DK', givenName: 'Jørgen', surname: 'Frederiksen', birthDate: '1975-01-01', scenario: 'caseTaxLiability' },
  { country: 'DK', givenName: 'Hanne', surname: 'Olsen', birthDate: '1979-05-05', scenario: 'caseTaxResidence' },
  { country: 'DK', givenName: 'Niels', surname: 'Thomsen', birthDate: '1981-10-24', scenario: 'caseAnswered' },
  { country: 'DK', givenName: 'Kirsten', surname: 'Jacobsen', birthDate: '1988-03-21', scenario: 'caseNoTasks' },
  { country: 'DK', givenName: 'Poul', surname: 'Schmidt', birthDate: '1977-09-27', scenario: 'caseTaskListFails' },
  { country: 'DK', givenName: 'Inge', surname: 'Bach', birthDate: '1987-03-06', scenario: 'caseUpdateFailsThrice' },
  { country: 'DK', givenName: 'Erik', surname: 'Dam', birthDate: '1985-12-28', scenario: 'caseTriggerFails' },
  { country: 'FI', givenName: 'Tuula', surname: 'Lehtinen', birthDate: '1967-12-05', scenario: 'caseResidency' },
  { country: 'FI', givenName: 'Pekka', surname: 'Saarinen', birthDate: '1997-07-12', scenario: 'caseTaxLiability' },
  { country: 'FI', givenName: 'Riitta', surname: 'Rantanen', birthDate: '1974-02-20', scenario: 'caseTaxResidence' },
  { country: 'FI', givenName: 'Jari', surname: 'Kinnunen', birthDate: '1963-09-07', scenario: 'caseAnswered' },
  { country: 'FI', givenName: 'Sirpa', surname: 'Ahonen', birthDate: '1987-03-06', scenario: 'caseNoTasks' },
  { country: 'FI', givenName: 'Antti', surname: 'Leinonen', birthDate: '1965-02-26', scenario: 'caseTaskListFails' },
  { country: 'FI', givenName: 'Marja', surname: 'Hiltunen', birthDate: '1978-01-26', scenario: 'caseUpdateFailsThrice' },
  { country: 'FI', givenName: 'Heikki', surname: 'Turunen', birthDate: '1980-11-24', scenario: 'caseTriggerFails' },
  // The end of creation failing (added last, so every earlier persona keeps its national id).
  { country: 'SE', givenName: 'Elias', surname: 'Norén', birthDate: '1990-09-18', scenario: 'loginSessionFails' },
  { country: 'SE', givenName: 'Saga', surname: 'Holmqvist', birthDate: '1985-02-07', scenario: 'affiliateConversionFails' },
  // The status page against a brokerage beyond our contract (added last, so every earlier persona keeps its national id).
  { country: 'SE', givenName: 'Vera', surname: 'Sjöberg', birthDate: '1976-08-30', scenario: 'caseUnknownTask' },
  { country: 'SE', givenName: 'Tor', surname: 'Engström', birthDate: '1982-03-17', scenario: 'caseKeptOpen' },
  { country: 'NO', givenName: 'Ingrid', surname: 'Solberg', birthDate: '1979-09-09', scenario: 'caseUnknownTask' },
  { country: 'NO', givenName: 'Magnus', surname: 'Lie', birthDate: '1984-12-01', scenario: 'caseKeptOpen' },
  { country: 'DK', givenName: 'Mette', surname: 'Kjær', birthDate: '1980-02-14', scenario: 'caseUnknownTask' },
  { country: 'DK', givenName: 'Lars', surname: 'Holm', birthDate: '1971-06-08', scenario: 'caseKeptOpen' },
  { country: 'FI', givenName: 'Satu', surname: 'Korhonen', birthDate: '1986-10-19', scenario: 'caseUnknownTask' },
  { country: 'FI', givenName: 'Mikko', surname: 'Laine', birthDate: '1977-04-25', scenario: 'caseKeptOpen' },
  // An application left half-finished (added last, so every earlier persona keeps its national id).
  { country: 'SE', givenName: 'Klara', surname: 'Forsberg', birthDate: '1986-05-14', scenario: 'halfFinished' },
];

// The seed index is the serial, so every persona gets a distinct, stable individual number.
export const personas: readonly Persona[] = seeds.map((seed, index) => ({
  nationalId: (seed.nationalId ?? ((b, s) => generateNationalId(seed.country, b, s)))(seed.birthDate, 100 + index * 7),
  country: seed.country,
  givenName: seed.givenName,
  surname: seed.surname,
  name: `${seed.givenName} ${seed.surname}`,
  birthDate: seed.birthDate,
  scenario: seed.scenario,
  // A person with an open case has applied: the brokerage knows them by a customer id (their tasks carry it).
  customerId: seed.customerId ?? (scenarioBehaviours[seed.scenario].caseStatus ? `45${String(index).padStart(5, '0')}` : null),
  behaviour: scenarioBehaviours[seed.scenario],
}));

const byNationalId = new Map(personas.map((p) => [p.nationalId, p]));

export const findPersona = (nationalId: string): Persona | undefined => byNationalId.get(nationalId);

/** Swedish personas are the only ones who can identify with Swedish BankID. */
export const swedishPersonas = (): Persona[] => personas.filter((p) => p.country === 'SE');

/** Public view served at GET /sandbox/personas. */
export const publicPersona = (p: Persona) => ({
  nationalId: p.nationalId,
  country: p.country,
  name: p.name,
  scenario: p.scenario,
});

/** Routing status answer for a persona (shape of routingStatusResponse). */
export const routingFor = (p: Persona): RoutingStatusResponse => ({
  customerRoutingStatus: p.behaviour.routing.customerRoutingStatus,
  customerId: p.customerId,
  routingInformation: p.behaviour.routing.routingInformation ? [...p.behaviour.routing.routingInformation] : null,
});

/** Creation status after `polls` polls since creation started (polls counts the current poll, from 1). */
export function creationStatusAfter(plan: CreationPlan, polls: number): CreationStatus {
  const stillQueued = plan.queuedPolls === 'forever' || polls <= plan.queuedPolls;
  return structuredClone(stillQueued ? queuedStatus() : plan.result);
}
