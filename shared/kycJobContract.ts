// The KYC preparation job's contract between the web, which starts a run (server/infra/kycJobs.ts), the worker, which
// runs it (workers/kycPreparationJob.ts), and the page that reads its state (server/infra/kycStates.ts): the job's data
// and ids, the state the worker publishes, and how runs are ordered. Types and pure functions only. A job because the
// start's 409 retries (60 × 1 s) and the risk polling (~67 s) outlast a request's deadline, and a GET may not call
// upstream (customer-information §4.6, §7, §9).
import { z } from 'zod';
import { answerSessionPage } from './contracts/kycContract.ts';
import { jobIdPart } from './creationJobContract.ts';

/**
 * Ids and the page locale only: no token, no personal data (job data sits in Redis in clear text and is
 * kept after the job). The run's credentials are sealed apart (server/infra/creationCredentials.ts).
 */
export type KycJob = {
  prospectId: string;
  /** One run of the step's preparation; the web numbers them `kyc-1`, `kyc-2`, … (see kycRunNumber). */
  runId: string;
  /** start: the answer-session start and its 409 retries; risk: the risk polling after the last page. */
  phase: 'start' | 'risk';
  /** Start attempt or risk poll number, 1-based. */
  attempt: number;
  /** The page's locale: the answer session's texts come in it (x-locale header). */
  locale: string;
};

/** Job ids name the run, the phase and the attempt, so re-adding the same step (a stalled re-run) is a no-op. */
export function kycJobId(prospectId: string, runId: string, phase: KycJob['phase'], attempt: number): string {
  return `kyc-${jobIdPart(prospectId)}-${jobIdPart(runId)}-${phase}-${attempt}`;
}

export const kycStatuses = ['preparing', 'questions', 'analysing', 'submitted', 'moreInformationRequired', 'error', 'sessionEnded'] as const;
/**
 * preparing: the answer session is not ready yet (409, retried); questions: the session's first page is
 * here (the web takes over: next/previous are the person's own requests); analysing: the risk calculation
 * is polled; submitted: the KYC step is submitted; moreInformationRequired: the submit answered 403;
 * error: the generic error, whose Try again starts a new run; sessionEnded: the person's brokerage session has
 * ended (its refresh token refused), which no new run with the same credentials changes: the person identifies again.
 */
export type KycStatus = (typeof kycStatuses)[number];

const FINAL_STATUSES: ReadonlySet<KycStatus> = new Set(['submitted', 'moreInformationRequired', 'error', 'sessionEnded']);
/** A run in a final status has ended: nothing of the same run follows it. */
export function isFinalKycStatus(status: KycStatus): boolean {
  return FINAL_STATUSES.has(status);
}

export const kycStateSchema = z.object({
  prospectId: z.string().min(1).max(200),
  runId: z.string().min(1).max(100),
  /** ISO time of the publish. */
  at: z.string().min(1).max(40),
  /** The start attempt or risk poll that published it (1-based; the web publishes none when it enqueues). */
  attempt: z.number().int().nonnegative(),
  status: z.enum(kycStatuses),
  /** With 'questions': the session the web answers pages of. */
  answerSessionId: z.string().min(1).max(100).optional(),
  /** With 'questions': the first page to show (absent if the start answered no page). */
  page: answerSessionPage.optional(),
});
export type KycState = z.infer<typeof kycStateSchema>;

/** Run ids `kyc-N` (or plain `N`) order by N; others cannot be ordered. The Redis store's script applies the same rule. */
const RUN_ID = /^(?:kyc-)?(\d{1,15})$/;
export function kycRunNumber(runId: string | undefined): number | null {
  const m = runId === undefined ? null : RUN_ID.exec(runId);
  return m ? Number(m[1]) : null;
}

/** Whether KYC run `a` is older than run `b` (a newer run supersedes it); unordered ids count as not older. */
export function isOlderKycRun(a: string | undefined, b: string | undefined): boolean {
  const [x, y] = [kycRunNumber(a), kycRunNumber(b)];
  return x !== null && y !== null && x < y;
}

/**
 * Whether a state may replace the latest one: not when it belongs to an older run, nor when the latest is
 * the same run's final state (a late re-run must not move an ended run back). The stores apply this.
 */
export function mayReplaceKycState(latest: Pick<KycState, 'runId' | 'status'> | null, next: Pick<KycState, 'runId' | 'status'>): boolean {
  if (!latest) return true;
  if (isOlderKycRun(next.runId, latest.runId)) return false;
  return !(latest.runId === next.runId && isFinalKycStatus(latest.status));
}
