// What the server remembers about one prospect's journey, kept in the session (Redis in production),
// never in the browser. Tokens and the BankID QR secret live only here. The one exception is the visit's
// values before the person identifies (VisitState below), which travel in a signed cookie instead.
import type { CountryCode, RoutingStatus, StepId, AccountTypeWithCountry } from '../shared/contracts/brokerageContract.ts';
import type { Locale } from '../shared/i18n.ts';
import type { IdentificationError } from '../shared/routing.ts';
import type { OidcMarker } from './upstream/oidcBrokerClient.ts';
import type { Campaign } from '../shared/shell.ts';
import type { ContactAnswer } from '../shared/contactInformation.ts';
import type { CitizenshipAnswers, UploadedFileRef } from '../shared/citizenship.ts';
import type { ResidencyAnswers } from '../shared/residency.ts';
import type { AnswerSessionAnswers, AnswerSessionPage } from '../shared/contracts/kycContract.ts';
import type { LegacyFormAnswers } from '../shared/legacyProspect.ts';
import type { RegulationRequest } from '../shared/contracts/legacyContract.ts';
import type { KycGivenText } from '../shared/answersSummarySections.ts';
import type { SigningOrderState } from '../shared/signingReturn.ts';

export type CustomerType = 'none' | 'private' | 'minor' | 'corporate';

export interface BankidOrder {
  orderRef: string;
  autoStartToken: string;
  qrStartToken: string;
  qrStartSecret: string;
  /** Epoch ms when the order was created: QR seconds count from here. */
  startedAt: number;
  mode: 'QR' | 'SAME_DEVICE';
  /** How many times this attempt re-created the order after a polling failure. */
  recreations: number;
  status: 'pending' | 'complete';
  hintCode?: string;
}

/** A failed identification attempt: the hint message key and whether Try again is offered. */
export interface BankidFailure {
  messageKey: string;
  retry: boolean;
}

export interface CustomerInformationProgress {
  steps: StepId[];
  /** Index of the current step in steps. */
  current: number;
  /** The step's current screen (unset: its first) and the screens visited before it, for Back (the page machine). */
  screen?: string;
  visited?: string[];
  /**
   * While a step is re-entered from milestone three's "Check your answers" (its Change): the index of the
   * summary's step. Finishing the changed step, or Back from its first screen, returns there (and clears it).
   */
  returnTo?: number;
  /**
   * With returnTo: the changed step's answers as they were when its Change was chosen. Back out of the
   * step without finishing it puts them back, so the summary never shows an answer left half-changed.
   */
  returnAnswers?: Partial<StepAnswers>;
  accounts: AccountTypeWithCountry[];
  /** Every answer given so far, per step, so a reload, Back or a second tab never loses one. */
  answers?: StepAnswers;
  /**
   * The application's revision this copy holds (server/infra/applicationRevisions.ts): another browser of the person
   * that changed the application since leaves this copy behind, and its next post catches up instead of changing it.
   */
  revision?: string;
}

/** Each step module keeps its own answers here under its own field (customer-information.md §3). */
export interface StepAnswers {
  /** Citizenship (customer-information §2.3, §4.3): the choice, chosen countries, upstream taskIds and uploaded proof per country. */
  citizenship?: CitizenshipAnswers;
  /**
   * Contact information (customer-information §2.3, §5): the fields as last typed, the e-mail a suggestion was shown for,
   * and once accepted the phone in E.164 (shared/contactInformation.ts ContactAnswer).
   */
  contactInformation?: ContactAnswer;
  /** Tax information (customer-information §2.3, §4.5): liability, chosen countries, numbers per country, the proof of tax residence. */
  taxInformation?: {
    liability?: 'inOffice' | 'usa' | 'other';
    countries?: string[];
    /** Country search text of the no-JS country list. */
    search?: string;
    numbers?: Record<string, { tin: string; startDate: string }>;
    /** With the tax-residence flag, when home and address country differ: the tax residence country chosen. */
    taxResidenceCountryCode?: string;
    /** With the tax-residence flag (the residenceProof screen): the TAX_RESIDENCE case's country and taskId, and the uploaded proof. */
    residenceProof?: { countryCode: string; taskId: string; files: UploadedFileRef[] };
    /** The field names the last refused tax submit named (customer-information §4.5), listed by the failure dialog. */
    invalidFields?: string[];
  };
  /** Residency (customer-information §2.3, §3 residency data): the address abroad, the three answers, the case's task id, the documents. */
  residency?: ResidencyAnswers;
  /** Account picker (customer-information §4.2): the ticks as last posted, confirmed exclusive accounts, the DSK campaign answer. */
  accountPicker?: {
    accounts: AccountTypeWithCountry[];
    confirmed: AccountTypeWithCountry[];
    /** Danish campaign: 'yes' = an equity savings account at another bank (DSK locked off). */
    dskExisting?: 'yes' | 'no';
    /** The ESA confirmation was declined: the picker shows the warning. */
    esaDeclined?: boolean;
  };
  /** Account alias (customer-information §5): the names as typed, per account. */
  accountAlias?: Partial<Record<AccountTypeWithCountry, string>>;
  /**
   * Milestone three (customer-information §4.8): the signing URL once requested, and its order's key, age and
   * end; the button re-opens it while it can still be signed (shared/signingReturn.ts reopenableSigningUrl).
   */
  milestoneThree?: { signingUrl: string } & SigningOrderState;
  /**
   * Milestone three's signing-session request (customer-information §4.8): its attempt, kept before the call so a retry
   * after a timeout sends the same Idempotency-Key and gets the signing session the first try created; a Change drops it.
   */
  signingAttempt?: string;
  /** The KYC questionnaire (customer-information §4.6): the current run and the person's place in its answer session. */
  kyc?: KycProgress;
  /** The legacy single form (customer-information §2.3, §4.9, §4.10): its fields as last posted, what saving gave, the signing URL. */
  legacy?: LegacyFormState;
}

/** The legacy single form's state: the answers as typed (kept whatever happens), and what saving has achieved. */
export interface LegacyFormState extends SigningOrderState {
  /** The form's answers as last posted (shared/legacyProspect.ts LegacyFormAnswers without the market's context). */
  form: LegacyFormAnswers;
  /** The regulation created by the last save (customer-information §4.9): sent again, so a second save updates it. */
  regulationId?: string;
  /** The fields the last save's refusal named, with their error (shown on the form until the next post). */
  fieldErrors?: Record<string, string>;
  /** The signing URL handed out (customer-information §4.8, §4.9); its order's key, age and end are the SigningOrderState fields. */
  signingUrl?: string;
  /** The save of these answers under way or done, kept before its first call (the Idempotency-Keys derive from it). */
  saveAttempt?: LegacySaveAttempt;
}

/**
 * One save of the legacy form's answers (customer-information §4.9), kept in the session before its first call: a retry
 * after a timeout sends the same calls with the same Idempotency-Keys, so the brokerage answers what the first try
 * created (shared/contracts/brokerageContract.ts IDEMPOTENCY_KEY_HEADER) instead of creating a second regulation or signing.
 */
export interface LegacySaveAttempt {
  /** Random; the calls' keys derive from it, the call and its body. */
  id: string;
  /** Digest of the answers it saves: other answers start another attempt. */
  of: string;
  /** The regulation request, fixed for the attempt (its regulation_id is the one known when the attempt began). */
  regulation: RegulationRequest;
  /** The regulation call was answered (its id, if any, is in regulationId). Until then the next attempt asks again first. */
  regulationAnswered?: true;
  /** The signing order asked for in this attempt (its return URLs carry it), kept before the signature request. */
  orderKey?: string;
}

/**
 * The KYC step's run and answer session. The worker's side (start retries, risk polling, the submit)
 * is in the run's state store; what the person answers page by page is here.
 */
export interface KycProgress {
  /** Run number: the worker's runId is `kyc-<run>`; entering the step or Try again starts the next. */
  run: number;
  /** questions: the answer session is awaited or answered page by page; risk: the last page is answered, the risk calculation is awaited. */
  phase: 'questions' | 'risk';
  /** Epoch ms the current wait began (the run's start, or the risk request): the loader's slow text after 10 s. */
  waitingSince: number;
  /** Once the person has moved in the session (next, previous): the session and the page shown. Before, the run's state has them. */
  answerSessionId?: string;
  page?: AnswerSessionPage;
  /** Pages answered before the one shown (progress, and whether Back fetches the previous page). */
  pagesAnswered: number;
  /** The page's answers whose PEP yes opened the PEP dialog: its primary action sends them with no (customer-information §4.7). */
  pepPending?: AnswerSessionAnswers;
  /** What the person chose on the page shown, kept when a post is refused or a call fails. */
  chosen?: Record<string, number[]>;
  /** The answers sent so far per question id: a page shown again (Back) shows what was answered. */
  given?: Record<string, number[]>;
  /**
   * What was answered as the person saw it (the question's text, the chosen options' texts), in the order
   * first answered; a question answered again (after Back) keeps its place. Milestone three's summary
   * lists it. A list, not a record: numeric-like keys would be reordered by JavaScript and JSON.
   */
  givenTexts?: KycGivenText[];
  /**
   * The run was started because the answer session refused the page shown as out of step (steps/kycRuns.ts), and
   * none of its pages has been taken yet: its page says the answers were kept, and the same refusal again shows the
   * API error banner rather than starting yet another run.
   */
  restarted?: true;
  /**
   * Put back from the saved application (server/stages/customerInformation/savedAnswers.ts): the answer session the
   * brokerage carries on and its page, shown without starting a run; entering the step drops the mark.
   */
  carriedOn?: true;
}

// The journey's fields, grouped by how long they live. Each group is dropped as a whole when its lifetime
// ends, so nothing of an earlier person or run can leak into the next.

/**
 * Lifetime: the visit, from the first page until Exit or the session ends. Until the person identifies,
 * the language, webview, campaign and entry query are kept in the signed visit cookie (server/visit.ts),
 * so a page view stores no session; server/pages.ts journeyOf copies them into the session journey, which
 * holds them from identification on.
 */
export interface VisitState {
  country: CountryCode;
  locale?: Locale;
  customerType: CustomerType;
  webview: boolean;
  queryParams: Record<string, string>;
  /** Campaign of the entry query (identification-routing-creation §3 campaign types); picks the signup image. */
  campaign?: Campaign;
}

/** Lifetime: an identification attempt, then the identified person until another person identifies here. */
export interface IdentificationState {
  /** The Swedish BankID view chosen: QR (other device) or this device; unset shows the choice on mobile. */
  bankidMode?: 'QR' | 'SAME_DEVICE';
  bankid?: BankidOrder;
  bankidFailure?: BankidFailure;
  /** The local marker of a DK/NO/FI identification in progress: state, nonce and PKCE verifier. */
  oidc?: OidcMarker;
  /** National id of the identified person; personal data, never logged. */
  natregno?: string;
  /** The identified person's names as the eID gave them (BankID, the broker's profile claims); personal data, never logged. */
  names?: { givenName: string; surname: string };
  /** The person's brokerage access token (30 minutes); a secret, never logged or sent to the browser. */
  jwt?: string;
  /** What renews the access token when it expires (customer-information §7 token refresh); a secret kept server-side only. */
  refreshToken?: string;
  /** Why identification or routing ended on the start page (shown there once). */
  identificationError?: IdentificationError;
  /**
   * What the person typed on the customer-information page, carried over when the same person identifies
   * again in this browser (after their session expired, customer-information §7): routing puts it into the
   * new prospect's answers. Dropped when another person identifies.
   */
  typedAnswers?: TypedAnswers;
}

/** The answers that are only what the person typed (no upstream ids, uploads or signing state), so they can prefill a new prospect's steps. */
export type TypedAnswers = Pick<StepAnswers, 'contactInformation' | 'accountAlias' | 'legacy'>;

/** The typed answers of a prospect's steps: contact details, account names, the legacy form's fields (not what saving gave). */
export function typedAnswersOf(answers: StepAnswers | undefined): TypedAnswers {
  return {
    ...(answers?.contactInformation ? { contactInformation: answers.contactInformation } : {}),
    ...(answers?.accountAlias ? { accountAlias: answers.accountAlias } : {}),
    ...(answers?.legacy ? { legacy: { form: answers.legacy.form } } : {}),
  };
}

/** Lifetime: the identified person's prospect, from routing until another person identifies here. */
export interface CustomerInformationState {
  routingStatus?: RoutingStatus;
  /** The prospect, kept once: the customer-information page and creation check their URL's id against it. */
  prospectId?: string;
  /** Routing said SHOULD_NOT_UPDATE_STATUS: the prospect is a legacy (v2) one and the legacy flow is used. */
  legacyFlow?: boolean;
  customerInformation?: CustomerInformationProgress;
  /** The application status page's answers in progress and sent, per task (server/stages/caseStatus/caseSubmission.ts). */
  caseStatus?: Record<string, CaseTaskState>;
}

/** A file uploaded to a case-status task (init-file-upload and the PUT done), not yet sent with the answer. */
export interface CaseFile {
  attachmentId: string;
  fileName: string;
  /** The proof-of-address kind of a residency task's file (shared/caseStatus.ts proofOfAddressKinds). */
  kind?: string;
  /** sha256 of the bytes and kind: the same file posted again (a resent form) is not uploaded twice. */
  digest: string;
}

/**
 * One task's answer on the status page (identification-routing-creation §4 "Status page"), for the open action `actionId`:
 * what the person uploaded and typed (kept across refusals and failures), and how far sending got. `attempt` is kept
 * before the first update call; the update-action and update-case Idempotency-Keys derive from it, so a resend after a
 * partial failure, a double click or a second tab records nothing twice.
 */
export interface CaseTaskState {
  actionId: string;
  files: CaseFile[];
  typed?: { address?: string; zipCode?: string; city?: string; comment?: string };
  attempt?: string;
  actionUpdated?: boolean;
  sent?: boolean;
}

/** Lifetime: the prospect's customer-creation runs (the number of the current one). */
export interface CreationState {
  creationRun?: number;
  /**
   * ISO time the prospect's first creation run started (signing had returned): each run's job carries it for the
   * tracking event's seconds since signing (workers/afterCreation.ts).
   */
  creationSignedAt?: string;
  /**
   * The prospect whose customer creation "I have signed" has requested (POST /api/2/customers answered without
   * data.message): a later check goes on without posting again (stages/customerInformation/signedCheck.ts).
   */
  creationRequested?: string;
}

export interface Journey extends VisitState, IdentificationState, CustomerInformationState, CreationState {}

// Every field of the groups a new person's identification ends (a field added to a group without being
// listed here does not compile).
const customerInformationFields: Record<keyof CustomerInformationState, true> = {
  routingStatus: true,
  prospectId: true,
  legacyFlow: true,
  customerInformation: true,
  caseStatus: true,
};
const creationFields: Record<keyof CreationState, true> = { creationRun: true, creationSignedAt: true, creationRequested: true };

/** Drops the earlier person's prospect, steps and creation run (another person has identified in this browser). */
export function forgetProspect(journey: Journey): void {
  for (const key of Object.keys(customerInformationFields) as (keyof CustomerInformationState)[]) delete journey[key];
  for (const key of Object.keys(creationFields) as (keyof CreationState)[]) delete journey[key];
}

/** The signing order kept for the prospect, in the step flow (milestone three) or the legacy single form. */
export function keptSigningOrder(journey: Journey): ({ signingUrl: string } & SigningOrderState) | undefined {
  const answers = journey.customerInformation?.answers;
  if (answers?.milestoneThree?.signingUrl) return answers.milestoneThree;
  const legacy = answers?.legacy;
  return legacy?.signingUrl ? { ...legacy, signingUrl: legacy.signingUrl } : undefined;
}

/**
 * The one-way door after signing (customer-information §4.8): once a signing URL was handed
 * out and customer creation has started for the prospect (the signing service's complete return reached
 * creation, or "I have signed" went on to it: both start the creation run), the signature is known and the
 * customer-information page is closed: it offers only the way on to customer creation and posts nothing upstream.
 */
export function signingDoorClosed(journey: Journey): boolean {
  return journey.creationRun !== undefined && keptSigningOrder(journey) !== undefined;
}

declare module 'express-session' {
  interface SessionData {
    journey: Journey;
  }
}

/** Identified: the journey holds the person's brokerage token; from then on its values are the session's own. */
export function isIdentified(journey: Journey | undefined): journey is Journey {
  return Boolean(journey?.jwt);
}

export function newJourney(country: CountryCode): Journey {
  return { country, customerType: 'none', webview: false, queryParams: {} };
}

/**
 * What a background run (customer creation, the KYC preparation) is handed to call the brokerage as the
 * person: the refresh token, so the run gets fresh access tokens of its own; a session from before
 * refresh tokens were kept hands over its access token instead. Sealed by the credentials store, never job data.
 */
export function runCredentialsOf(journey: Journey): { refreshToken: string } | { accessToken: string } {
  return journey.refreshToken ? { refreshToken: journey.refreshToken } : { accessToken: journey.jwt! };
}
