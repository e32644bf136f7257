// After creation: what happens when a creation run's polling stops (identification-routing-creation §4 "Customer
// creation": track an event; on done an affiliate conversion; a login session unless in a webview), before the final
// state is published so that Continue finds the login there. Each at most once per run however often the job runs
// again: the brokerage calls carry Idempotency-Keys derived from their attempt (the conversion's per application, the
// login's per run), and the tracking event is recorded by whoever claims it first (server/infra/afterCreationRecords.ts).
import type { Logger } from 'pino';
import { creationRunFacts, type CustomerCreationJob } from '../shared/creationJobContract.ts';
import { outcomeTraits, type CreationOutcome } from '../shared/creationOutcome.ts';
import type { LoginHandoff } from '../shared/contracts/brokerageContract.ts';

/** The calls when polling stops, bound to the run's credentials (workers/runCredentials.ts: a 401 renews the token once). */
export interface AfterCreationCalls {
  /** The login session for the bank's site, handed over by a one-time code (a credential: never logged nor published). */
  startLoginSession(attempt: string): Promise<LoginHandoff>;
  affiliateConversion(attempt: string): Promise<{ leadNumber: string }>;
}

/** What a run leaves behind (server/infra/afterCreationRecords.ts). */
export interface AfterCreationRecordsPort {
  claimTracking(prospectId: string, runId: string): Promise<boolean>;
  leadNumber(prospectId: string): Promise<string | null>;
  keepLeadNumber(prospectId: string, leadNumber: string): Promise<void>;
}

/** Where the run's login hand-off code is kept for Continue (server/infra/loginHandoffs.ts: sealed, for as long as it lives). */
export interface LoginHandoffsPort {
  keep(prospectId: string, runId: string, handoff: LoginHandoff): Promise<void>;
}

/** What the creation job counts for the operators' metrics (server/infra/metrics.ts): no id, nothing personal. */
export interface CreationMetricsPort {
  /** How late a poll ran after its due time on the run's grid (shared/creationJobContract.ts nextPoll). */
  pollLateness(ms: number): void;
  /** A run's tracked outcome, counted where it is logged. */
  outcomeTracked(event: CreationOutcomeEvent): void;
}

/** The tracking event of a run's outcome: no personal data, no ids of the person; ready to become a metric. */
export interface CreationOutcomeEvent {
  event: 'customerCreationOutcome';
  outcome: CreationOutcome;
  /** SE, NO, DK or FI; null for a run whose job data predates it. */
  market: string | null;
  mode: 'web' | 'webview';
  /** The partner or app that sent the visit (the entry's clientId), so outcomes can be told apart per partner; null without one. */
  clientId: string | null;
  /** Whole seconds from signing (the first run's start) to the outcome; null when unknown. */
  secondsSinceSigning: number | null;
}

export function creationOutcomeEvent(job: CustomerCreationJob, outcome: CreationOutcome, now: Date): CreationOutcomeEvent {
  const facts = creationRunFacts(job);
  const signedAt = facts.signedAt ? Date.parse(facts.signedAt) : NaN;
  return {
    event: 'customerCreationOutcome',
    outcome,
    market: facts.market ?? null,
    mode: facts.webview ? 'webview' : 'web',
    clientId: facts.clientId ?? null,
    secondsSinceSigning: Number.isFinite(signedAt) ? Math.max(0, Math.round((now.getTime() - signedAt) / 1000)) : null,
  };
}

/**
 * Records the run's outcome as the tracking event, once per run: only the first caller's claim records it. The one
 * place the event is recorded: a structured log line, and the outcomes counter of the metrics.
 */
export async function trackCreationOutcome(
  deps: {
    records: Pick<AfterCreationRecordsPort, 'claimTracking'>;
    log: Pick<Logger, 'info'>;
    now: () => Date;
    metrics?: Pick<CreationMetricsPort, 'outcomeTracked'>;
  },
  job: CustomerCreationJob,
  outcome: CreationOutcome,
): Promise<void> {
  if (!(await deps.records.claimTracking(job.prospectId, job.runId))) return;
  const event = creationOutcomeEvent(job, outcome, deps.now());
  deps.log.info(event, 'creation outcome tracked');
  deps.metrics?.outcomeTracked(event);
}

/** The attempts the Idempotency-Keys derive from: the affiliate conversion once per application, the login session once per run. */
export const affiliateAttempt = (prospectId: string) => `affiliate-conversion:${prospectId}`;
export const loginSessionAttempt = (prospectId: string, runId: string) => `login-session:${prospectId}:${runId}`;

/**
 * The brokerage calls when polling stops with `outcome`; answers the run's final outcome. On done the affiliate
 * conversion gives the application its lead number (kept, never shown nor logged); its failure is logged and the run
 * goes on. For an outcome that allows log-in the login session is created (neither in a webview); its failure makes the
 * outcome the generic error, whose Try again starts a new run (which polls to done again and tries the login again).
 */
export async function afterCreation(
  deps: { records: AfterCreationRecordsPort; handoffs: LoginHandoffsPort; log: Pick<Logger, 'info' | 'warn'> },
  job: CustomerCreationJob,
  outcome: CreationOutcome,
  calls: AfterCreationCalls,
): Promise<CreationOutcome> {
  const ids = { prospectId: job.prospectId, runId: job.runId, attempt: job.attempt };
  const { webview } = creationRunFacts(job);
  // In the native app's webview neither: the app logs the person in itself, and a conversion there is the app's
  // install, not a visit an affiliate sent (for a webview run, none).
  if (webview) return outcome;
  if (outcome === 'done') await convertAffiliate(deps, job, calls, ids);
  if (!outcomeTraits[outcome].canLogIn) return outcome;
  let handoff: LoginHandoff;
  try {
    handoff = await calls.startLoginSession(loginSessionAttempt(job.prospectId, job.runId));
  } catch (err) {
    deps.log.warn({ ...ids, outcome, finalOutcome: 'unspecifiedApiResponseError', err }, 'login session failed: the run ends with the generic error');
    return 'unspecifiedApiResponseError';
  }
  // Outside the try: a store that fails throws, and the queue runs the step again (the login's Idempotency-Key
  // answers the same code), rather than failing a login that worked.
  await deps.handoffs.keep(job.prospectId, job.runId, handoff);
  deps.log.info({ ...ids, outcome }, 'login session created; its hand-off kept');
  return outcome;
}

async function convertAffiliate(
  deps: { records: AfterCreationRecordsPort; log: Pick<Logger, 'info' | 'warn'> },
  job: CustomerCreationJob,
  calls: AfterCreationCalls,
  ids: Record<string, unknown>,
): Promise<void> {
  try {
    // Once per application: a run after Try again (or a re-run) that finds the lead number kept does not ask again.
    if ((await deps.records.leadNumber(job.prospectId)) !== null) return;
    const { leadNumber } = await calls.affiliateConversion(affiliateAttempt(job.prospectId));
    await deps.records.keepLeadNumber(job.prospectId, leadNumber);
    deps.log.info(ids, 'affiliate conversion done; lead number kept');
  } catch (err) {
    deps.log.warn({ ...ids, err }, 'affiliate conversion failed; the run goes on');
  }
}
