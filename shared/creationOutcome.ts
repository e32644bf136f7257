// Customer creation: the polling decision (identification-routing-creation §4 "Customer creation") as a pure function,
// shared by the worker that polls and the screens that show the outcome. No I/O here.
import type { CreationStatus } from './contracts/brokerageContract.ts';

export const creationOutcomes = [
  'queued',
  'done',
  'customerExists',
  'accountLimit',
  'creationPaused',
  'nightly_downtime',
  'unspecifiedApiResponseError',
  'maxPollingTries',
] as const;
export type CreationOutcome = (typeof creationOutcomes)[number];

/** identification-routing-creation §9: poll every 2 s; the 45th attempt is the final one. */
export const CREATION_POLL_INTERVAL_MS = 2000;
export const MAX_POLLING_TRIES = 45;

export interface CreationPoll {
  /** HTTP status of GET creation_status (0 when no answer). */
  httpStatus: number;
  body: CreationStatus | null;
  /** creationPaused flag of the system status. */
  creationPaused: boolean;
  /** 1-based poll number. */
  attempt: number;
}

export type CreationRule = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export interface CreationDecision {
  outcome: CreationOutcome;
  rule: CreationRule;
}

const hasRequest = (body: CreationStatus, pred: (r: CreationStatus['creation_requests'][number]) => boolean) => body.creation_requests.some(pred);

/** The spec's eight rules, first match wins; the order is the behaviour, so keep it. */
export function decideCreationOutcome(poll: CreationPoll, maxPollingTries: number = MAX_POLLING_TRIES): CreationDecision {
  const body = poll.body;
  // 1. HTTP status >= 400 (no body counts: there is nothing to decide on) or any request failed.
  if (poll.httpStatus >= 400 || body === null || hasRequest(body, (r) => r.status === 'failed')) {
    return { outcome: 'unspecifiedApiResponseError', rule: 1 };
  }
  const queued = hasRequest(body, (r) => r.status === 'queued');
  const rejected = hasRequest(body, (r) => r.status === 'rejected');
  // 2. Not done and nightly downtime.
  if (!body.done && body.nightly_downtime) return { outcome: 'nightly_downtime', rule: 2 };
  // 3. Creation paused and a request waits in the queue.
  if (poll.creationPaused && queued) return { outcome: 'creationPaused', rule: 3 };
  // 4. Done, but a request was rejected: some account could not be created.
  if (body.done && rejected) return { outcome: 'accountLimit', rule: 4 };
  // 5. Done by updating an existing customer.
  if (body.done && hasRequest(body, (r) => r.request_type === 'update_customer')) return { outcome: 'customerExists', rule: 5 };
  // 6. The final attempt.
  if (poll.attempt >= maxPollingTries) return { outcome: 'maxPollingTries', rule: 6 };
  // 7. Nothing queued and something settled: uninitiated means nothing will happen.
  const uninitiated = body.creation_process_status === 'uninitiated';
  if (!queued && (body.done || rejected || uninitiated)) {
    if (uninitiated) return { outcome: 'unspecifiedApiResponseError', rule: 7 };
    if (body.done) return { outcome: 'done', rule: 7 };
    return { outcome: 'queued', rule: 7 };
  }
  // 8. Keep polling.
  return { outcome: 'queued', rule: 8 };
}

/** On load: post the creation request unless creation is already done or started (then only poll). */
export function shouldPostCreationRequest(initial: CreationStatus): boolean {
  return !initial.done && initial.creation_process_status !== 'customer_creation_started';
}

/** Every outcome but queued stops polling. */
export function isFinal(outcome: CreationOutcome): boolean {
  return outcome !== 'queued';
}

export interface OutcomeTraits {
  screen: 'polling' | 'alreadyCustomer' | 'error';
  canLogIn: boolean;
  severity: 'success' | 'warning' | 'error' | 'pending';
}

export const outcomeTraits: Record<CreationOutcome, OutcomeTraits> = {
  queued: { screen: 'polling', canLogIn: false, severity: 'pending' },
  done: { screen: 'polling', canLogIn: true, severity: 'success' },
  customerExists: { screen: 'alreadyCustomer', canLogIn: true, severity: 'success' },
  accountLimit: { screen: 'error', canLogIn: true, severity: 'warning' },
  // identification-routing-creation §4 gives log-in to done, customerExists and accountLimit only: a paused creation
  // has no customer yet, and at night login opens at 06:00 (§8), so neither starts a login session.
  creationPaused: { screen: 'error', canLogIn: false, severity: 'success' },
  nightly_downtime: { screen: 'polling', canLogIn: false, severity: 'success' },
  unspecifiedApiResponseError: { screen: 'error', canLogIn: false, severity: 'error' },
  maxPollingTries: { screen: 'error', canLogIn: false, severity: 'error' },
};

/** What the worker publishes and the creation screen renders. attempt 0 is "request posted, not yet polled". */
export interface CreationState {
  prospectId: string;
  outcome: CreationOutcome;
  attempt: number;
  /** The creation run this state belongs to (a Try again starts a new run). */
  runId?: string;
  /** ISO timestamp of the decision. */
  at: string;
}
