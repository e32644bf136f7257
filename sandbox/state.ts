// In-memory state of one sandbox process. Everything the simulated upstreams remember lives here so that
// POST /sandbox/reset can clear it in one go.
import type { AccountTypeWithCountry, CountryCode, Milestone, StepId } from '../shared/contracts/brokerageContract.ts';
import type { LegacySignatureRequest, ProspectUpdateRequest, RegulationRequest } from '../shared/contracts/legacyContract.ts';
import type { StatusTask } from '../shared/contracts/caseStatusContract.ts';
import type { Persona } from './personas.ts';

export type OrderStatus = 'pending' | 'failed' | 'complete';

export interface BankidOrder {
  orderRef: string;
  autoStartToken: string;
  qrStartToken: string;
  qrStartSecret: string;
  endUserIp: string;
  /** returnUrl of the auth request: where the app sends a same-device user once they are done. */
  returnUrl?: string;
  /** requirement.personalNumber of the auth request: only that person may identify. */
  requiredPersonalNumber?: string;
  createdAt: number;
  expiresAt: number;
  status: OrderStatus;
  hintCode: string;
  /** Persona chosen in the test app (set on scan or identify). */
  persona?: Persona;
  /** IP address of the request that identified in the test app (informational; completion data reports endUserIp). */
  identifiedFromIp?: string;
  completedAt?: number;
}

export interface Session {
  id: string;
  persona: Persona;
  refreshToken: string;
  /** Test control (POST /sandbox/sessions/expire with refresh): the refresh token has outlived its lifetime, the session cannot be renewed. */
  refreshExpired?: boolean;
}

export interface AccessToken {
  sessionId: string;
  expiresAt: number;
}

/** Upstream memory about a person, independent of their sessions. */
export interface CustomerRecord {
  /** Set by PUT become-customer-intent; the validation step requires it. */
  intent?: { customerType: string; country: CountryCode };
}

export interface Prospect {
  id: string;
  owner: Persona;
  country: CountryCode;
  customerType: string;
  /** Created through the legacy v2 endpoint. */
  legacy: boolean;
  accountTypes?: AccountTypeWithCountry[];
  /** The milestones posted, each with when (epoch ms of the sandbox clock). */
  milestones: Map<Milestone, number>;
  /** Signed on the signing page: the application is finished, prospect creation no longer answers it. */
  signed: boolean;
  /** Epoch ms (the sandbox clock) it was created and last saved to (created, or a step submit accepted): kept from then. */
  createdAt: number;
  savedAt: number;
  /** How many prospect creations answered it again (resumed: true). */
  resumed: number;
  /** Set by POST /api/2/customers; polls counts creation_status calls since then. */
  creation?: { startedAt: number; polls: number };
}

export interface SignatureSession {
  id: string;
  prospectId: string;
  cancelUrl: string;
  completeUrl: string;
  postponeUrl: string;
  lang: string;
  /** Epoch ms the order was created: past the sandbox's signing lifetime it can no longer be signed. Unset: never expires. */
  createdAt?: number;
  /** The person signed on the signing page: the order is over. */
  signed?: boolean;
}

/** One call that reached the brokerage API with a method that changes something (GET /sandbox/brokerage-calls reads them out). */
export interface BrokerageCall {
  method: string;
  path: string;
  /** The prospect the call names in its path or body, when it names one. */
  prospectId?: string;
}

export interface SandboxState {
  orders: Map<string, BankidOrder>;
  sessions: Map<string, Session>;
  /** refresh token → session id */
  refreshTokens: Map<string, string>;
  /** jwt → access token */
  accessTokens: Map<string, AccessToken>;
  customers: Map<string, CustomerRecord>;
  prospects: Map<string, Prospect>;
  signatures: Map<string, SignatureSession>;
  /** Object storage (sandbox/citizenship.ts): object key → stored upload. */
  storedObjects: Map<string, StoredObject>;
  /** Citizenship tasks (sandbox/citizenship.ts): taskId → task. */
  citizenshipTasks: Map<string, CitizenshipTask>;
  /** Test control: how many coming object-storage PUTs answer 503 (key 'put'). */
  storageFailures: Map<'put', number>;
  /** Test control (POST /sandbox/faults): `${method} ${path}` → the next calls' forced answer. */
  brokerageFaults: Map<string, BrokerageFault>;
  /** Test control (POST /sandbox/system-status, sandbox/systemStatusControl.ts): what GET onboarding status answers; absent: all clear. */
  systemStatus: Map<'current', SystemStatusControl>;
  /** Read-out (GET /sandbox/logouts): the logout calls that reached the session service, in arrival order. */
  logoutCalls: Map<number, LogoutCall>;
  /** Read-out (GET /sandbox/customers): prospect id → the statuses answered to its POST /api/2/customers calls, in arrival order. */
  createCustomerCalls: Map<string, number[]>;
  /** Read-out (GET /sandbox/brokerage-calls): every POST, PUT, PATCH and DELETE that reached the brokerage API, in arrival order. */
  brokerageCalls: Map<number, BrokerageCall>;
  /** Read-out (GET /sandbox/prospects, sandbox/applications.ts): prospect id → per step the statuses answered to its submits. */
  stepSubmits: Map<string, Map<StepId, number[]>>;
  /** Know-your-customer questionnaire (sandbox/kyc.ts): prospect id → its answers and the calls received. */
  kyc: Map<string, KycRecord>;
  /** Answer sessions of the questionnaire (sandbox/kyc.ts): answerSessionId → session. */
  kycAnswerSessions: Map<string, KycAnswerSession>;
  /** Regulations of the legacy flow (sandbox/legacy.ts), in arrival order: receipt id → what was received and answered. */
  legacyRegulations: Map<string, LegacyRegulation>;
  /** The legacy flow's prospect updates and signature requests (sandbox/legacy.ts): prospect id → record. */
  legacyProspects: Map<string, LegacyProspectRecord>;
  /** Calls made with an Idempotency-Key (sandbox/idempotency.ts): `person method path key` → the call and its answer. */
  idempotentCalls: Map<string, IdempotentCall>;
  /** The application status page (sandbox/caseStatus.ts): national id → the person's tasks and the calls received. */
  caseStatus: Map<string, CaseStatusRecord>;
  /** After creation (sandbox/afterCreation.ts): prospect id → the login sessions started and the lead numbers handed out. */
  afterCreation: Map<string, AfterCreationRecord>;
  /** After creation: `person path key` of every call received with an Idempotency-Key → what it gave, so a replay counts once. */
  afterCreationKeys: Map<string, AfterCreationCall>;
  /** Login hand-off codes the nnx-session login handed out (sandbox/afterCreation.ts): code → whom it logs in, until when, whether used. */
  loginHandoffs: Map<string, LoginHandoffRecord>;
  /** The bank site's stand-in (sandbox/bankSite.ts): its session cookie's value → the customer logged in there. */
  bankSiteSessions: Map<string, BankSiteSession>;
}

/** One login hand-off code: bound to the person whose session asked for it; redeemed at most once, before it expires. */
export interface LoginHandoffRecord {
  nationalId: string;
  prospectId: string;
  /** Epoch ms. */
  expiresAt: number;
  redeemed: boolean;
}

/** A visitor logged in on the bank site's stand-in. */
export interface BankSiteSession {
  nationalId: string;
  givenName: string;
  surname: string;
}

/** What the brokerage did for one prospect once creation stopped; GET /sandbox/after-creation reads it out. */
export interface AfterCreationRecord {
  /** Login sessions started (one per call whose Idempotency-Key was new, or without one). */
  loginSessions: number;
  /** The lead numbers of the affiliate conversions, one per such call, in arrival order. */
  leadNumbers: string[];
}

/** One after-creation call with an Idempotency-Key: the prospect it was attributed to and, for a conversion, its lead number. */
export interface AfterCreationCall {
  prospectId: string;
  leadNumber?: string;
  /** For a login session: the hand-off code it answered (a replay answers the same one). */
  handoff?: { code: string; expiresInSeconds: number };
}

/** One case-status call the sandbox received from the person (after authentication), with the status it answered. */
export interface CaseStatusCall<T> {
  status: number;
  body: T;
}

/** What the brokerage knows about one person's open case; GET /sandbox/status-page reads it out. */
export interface CaseStatusRecord {
  customerId: string;
  /** The person's tasks as the task list answers them, without the files uploaded since (added when listed). */
  tasks: StatusTask[];
  /** What the list sends beyond the contract: per task id, fields laid over the task (sandbox/caseStatusTasks.ts oddFieldsOf). */
  oddFields: Map<string, Record<string, unknown>>;
  /** Tasks of types the contract does not name, listed after the others. */
  unknownTasks: Record<string, unknown>[];
  /** Actions answered (update-action or update-case accepted): answered once, whatever the list says of them. */
  answeredActions: Set<string>;
  /** PUT update-case calls received, for the persona's first failures. */
  caseUpdateCalls: number;
  /** Actions whose update-case was accepted: one per action. */
  caseUpdated: Set<string>;
  triggerCases: CaseStatusCall<unknown>[];
  actionUpdates: CaseStatusCall<unknown>[];
  caseUpdates: CaseStatusCall<unknown>[];
}

/** One call made with an Idempotency-Key: its body's fingerprint, and its answer once given (none while it runs). */
export interface IdempotentCall {
  fingerprint: string;
  answer?: { status: number; body: unknown };
}

/**
 * One POST regulation as the legacy upstream saw it. The payload names no prospect: it is kept per person
 * (ownerNationalId) and tied to the person's latest legacy prospect, or to the prospect whose update names its id.
 */
export interface LegacyRegulation {
  /** The regulation id answered (null: persona legacyRegulationWithoutId). */
  regulationId: string | null;
  status: 'compliant' | 'non_compliant';
  ownerNationalId: string;
  /** The prospect it belongs to, when known. */
  prospectId?: string;
  payload: RegulationRequest;
}

/** What the legacy upstream remembers about one v2 prospect; GET /sandbox/legacy reads it out. */
export interface LegacyProspectRecord {
  /** Every prospect update received (parsed), accepted or refused, in arrival order. */
  updates: ProspectUpdateRequest[];
  /** The last accepted update: signing needs one. */
  accepted?: ProspectUpdateRequest;
  /** Every legacy signature request received (parsed), in arrival order. */
  signatures: LegacySignatureRequest[];
}

/** What the KYC upstream remembers about one prospect; GET /sandbox/kyc reads it out. */
export interface KycRecord {
  startCalls: number;
  nextCalls: number;
  previousCalls: number;
  riskPolls: number;
  /** Risk polls since the questionnaire was (last) answered: the risk is done from the 2nd. */
  riskPollsSinceAnswered: number;
  /** Every page of an answer session has been answered (or the persona's questionnaire counts as answered). */
  answered: boolean;
  /** The KYC step was submitted and accepted (204). */
  submitted: boolean;
  /** The latest answer per question id. */
  answers: Map<number, number[]>;
}

/** One answer session: the prospect's questionnaire, one page per question (sandbox/kyc.ts builds the pages). */
export interface KycAnswerSession {
  id: string;
  prospectId: string;
  /** National id of the person who started it: nobody else may answer it. */
  ownerNationalId: string;
  /** The x-locale of the start call, as understood (one of the supported locales). */
  locale: string;
  /** Question ids per page, in the order asked. */
  pages: number[][];
  /** Index of the page shown; pages.length once the last page is answered. */
  pageIndex: number;
}

/** One DELETE of a logout path as the session service saw it. */
export interface LogoutCall {
  path: string;
  /** The bearer token sent, as sent (the sandbox is test-only); null without one. */
  bearer: string | null;
  /** What it answered: 204 (a session ended) or 401 (no live session for that token). */
  status: number;
  at: string;
}

/** What GET onboarding status answers everyone (a persona's creationPaused is added for its own token). */
export interface SystemStatusControl {
  creationPaused: boolean;
  feedbackBanner: string | null;
  /** The status endpoint is down: it answers 503. */
  failing: boolean;
  /** With failing: only until this time (epoch ms), then it answers again. */
  failingUntil?: number;
}

/** A forced failure (status) or a slow answer (delayMs only) of the next `count` calls of one method and path. */
export interface BrokerageFault {
  status?: number;
  /** Wait this long first; without a status the call then reaches the simulated upstream as usual. */
  delayMs?: number;
  /** Error code of the body, e.g. EXPIRED_ACCESS_TOKEN with a 401. */
  code?: string;
  count: number;
}

export interface StoredObject {
  taskId: string;
  /** Attachment id init-file-upload answered. */
  attachmentId: string;
  /** Signature of the pre-signed URL. */
  signature: string;
  fileName: string;
  contentType: string;
  bytes?: Buffer;
  contentDisposition?: string;
  storedContentType?: string;
}

export interface CitizenshipTask {
  taskId: string;
  prospectId: string;
  countryCode: string;
  /** Attachment ids submitted with the task. */
  attachments: string[];
}

export function createSandboxState(): SandboxState {
  return {
    orders: new Map(),
    sessions: new Map(),
    refreshTokens: new Map(),
    accessTokens: new Map(),
    customers: new Map(),
    prospects: new Map(),
    signatures: new Map(),
    storedObjects: new Map(),
    citizenshipTasks: new Map(),
    storageFailures: new Map(),
    brokerageFaults: new Map(),
    systemStatus: new Map(),
    logoutCalls: new Map(),
    createCustomerCalls: new Map(),
    stepSubmits: new Map(),
    brokerageCalls: new Map(),
    kyc: new Map(),
    kycAnswerSessions: new Map(),
    legacyRegulations: new Map(),
    legacyProspects: new Map(),
    idempotentCalls: new Map(),
    caseStatus: new Map(),
    afterCreation: new Map(),
    afterCreationKeys: new Map(),
    loginHandoffs: new Map(),
    bankSiteSessions: new Map(),
  };
}

export function resetSandboxState(state: SandboxState): void {
  for (const map of Object.values(state)) (map as Map<unknown, unknown>).clear();
}

export function customerRecord(state: SandboxState, persona: Persona): CustomerRecord {
  let record = state.customers.get(persona.nationalId);
  if (!record) {
    record = {};
    state.customers.set(persona.nationalId, record);
  }
  return record;
}

/** What every sandbox router needs: the shared state and the app options. */
export interface SandboxContext {
  state: SandboxState;
  /** Absolute base URL browsers use to reach the sandbox (no trailing slash). */
  publicUrl: string;
  /** Default lifetime of a BankID order before collect answers expiredTransaction. */
  orderLifetimeMs: number;
  /** How long a signing order can be signed on the signing page after its signature request. */
  signingLifetimeMs: number;
  /** How long a person's unfinished prospect is kept after it was last saved to, for prospect creation to answer it again. */
  prospectKeepMs: number;
  /** The sandbox's clock (epoch ms) for keeping prospects: a test moves it to see one expire. */
  now: () => number;
}
