// The customer-creation job's contract between the web, which starts a run (server/infra/creationJobs.ts),
// and the worker, which runs it (workers/customerCreationJob.ts): the job's data and ids, the credentials
// handed over for a run, and what the job queue is told and tells a job. Types and pure functions only;
// the queue itself is server/infra/jobQueue.ts.
import { z } from 'zod';
import { countryCode, type CountryCode } from './contracts/brokerageContract.ts';
import { entryParamShapes } from './carriedQuery.ts';

/**
 * Ids and decisions only: no token, no personal data. The person's credentials for the run are kept sealed apart
 * from the job (server/infra/creationCredentials.ts), since job data sits in Redis in clear text and is kept after
 * the job.
 */
export type CustomerCreationJob = {
  prospectId: string;
  phase: 'start' | 'poll';
  /** Poll number, 1-based; 0 for the start phase. */
  attempt: number;
  /** Identifies one creation run: a retry after maxPollingTries starts a new run, hence fresh job ids. */
  runId: string;
  /** Epoch ms the run's poll grid starts at (nextPoll): set when the first poll is queued, carried by every poll. */
  pollsFrom?: number;
  /** The system status's creationPaused as this run last read it: a poll whose status call fails decides with it. */
  creationPaused?: boolean;
} & Partial<CreationRunFacts>;

const pollsFromSchema = z.number().int().positive().optional().catch(undefined);

/**
 * When poll `attempt` (1-based) of a run is due: on the run's grid, pollsFrom + attempt × intervalMs
 * (identification-routing-creation §9: every 2000 ms; the final, 45th poll 90 s after the first was queued), not an
 * interval after the previous poll finished. Under load a poll may run late, but its lateness never carries over to
 * the next. A job without a readable grid (queued before it was carried) starts one now: its next poll an interval on.
 */
export function nextPoll(
  job: Pick<CustomerCreationJob, 'pollsFrom'>,
  attempt: number,
  intervalMs: number,
  nowMs: number,
): { pollsFrom: number; delayMs: number } {
  const pollsFrom = pollsFromSchema.parse(job.pollsFrom) ?? nowMs - (attempt - 1) * intervalMs;
  return { pollsFrom, delayMs: Math.max(0, pollsFrom + attempt * intervalMs - nowMs) };
}

/**
 * What the actions when polling stops need (identification-routing-creation §4 "Customer creation": the tracking
 * event's market, mode and seconds since signing; no login session in a webview). Optional in the job data: a job
 * enqueued before they were carried has none (creationRunFacts reads it).
 */
export interface CreationRunFacts {
  market: CountryCode;
  /** The journey runs in the native app's webview. */
  webview: boolean;
  /** ISO time the run's first creation run started (signing had returned). */
  signedAt: string;
  /** The partner's or app's id the journey was entered with (query clientId; shared/carriedQuery.ts), when one was. */
  clientId?: string;
}

const runFactsSchema = z.object({
  market: countryCode.optional().catch(undefined),
  webview: z.boolean().optional().catch(undefined),
  signedAt: z.string().datetime().optional().catch(undefined),
  clientId: entryParamShapes.clientId.optional().catch(undefined),
});

/**
 * The run facts of a job's data, each missing or unreadable one left out (a job from before they were carried):
 * no market nor signing time for the tracking event, and not a webview, so a done run still logs the person in.
 */
export function creationRunFacts(job: CustomerCreationJob): Partial<CreationRunFacts> & { webview: boolean } {
  const read = runFactsSchema.parse({ market: job.market, webview: job.webview, signedAt: job.signedAt, clientId: job.clientId });
  return {
    ...(read.market ? { market: read.market } : {}),
    webview: read.webview ?? false,
    ...(read.signedAt ? { signedAt: read.signedAt } : {}),
    ...(read.clientId ? { clientId: read.clientId } : {}),
  };
}

/** The run facts the job data carries (those present), handed on to the run's next job unchanged. */
export function carriedRunFacts(job: Partial<CreationRunFacts>): Partial<CreationRunFacts> {
  // Assigned one by one: spreads of conditional literals cost every poll of every run a few objects more.
  const facts: Partial<CreationRunFacts> = {};
  if (job.market !== undefined) facts.market = job.market;
  if (job.webview !== undefined) facts.webview = job.webview;
  if (job.signedAt !== undefined) facts.signedAt = job.signedAt;
  if (job.clientId !== undefined) facts.clientId = job.clientId;
  return facts;
}

/** What the web hands the worker for one run (sealed in the credentials store, never in the job data). */
export interface CreationCredentials {
  /** Buys a new access token (identification-routing-creation §7 token refresh). */
  refreshToken?: string;
  /** The 30-minute access token the calls send; absent until the worker has refreshed. */
  accessToken?: string;
}

export interface JobAddOptions {
  delayMs?: number;
  /** A job whose id already exists is not added again. No ':' (BullMQ reserves it). */
  jobId?: string;
}

export interface JobContext {
  jobId: string;
  /** 1-based try of this job. */
  attempt: number;
  /** No retry follows if this try throws: the handler should record a final outcome instead. */
  finalAttempt: boolean;
}

/** A part of a job id: BullMQ reserves ':' in ids. */
export const jobIdPart = (s: string): string => s.replace(/:/g, '_');

/** Job ids name the run and the step, so re-adding the same step (a re-run of a stalled job) is a no-op. */
export function creationJobId(prospectId: string, runId: string, step: 'start' | number): string {
  return step === 'start'
    ? `creation-${jobIdPart(prospectId)}-${jobIdPart(runId)}-start`
    : `creation-${jobIdPart(prospectId)}-${jobIdPart(runId)}-poll-${step}`;
}

/**
 * Whether run `a` is older than run `b`. Runs of a prospect are numbered upwards (the session's counter);
 * ids that are not numbers cannot be ordered and count as not older.
 */
export function isOlderRun(a: string | undefined, b: string | undefined): boolean {
  const [x, y] = [Number(a), Number(b)];
  return a !== undefined && b !== undefined && a !== '' && b !== '' && Number.isSafeInteger(x) && Number.isSafeInteger(y) && x < y;
}
