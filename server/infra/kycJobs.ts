// The web's side of the KYC preparation job (customer-information §4.6): starting a run's answer-session
// start, and later its risk polling. The worker (workers/kycPreparationJob.ts) runs them and publishes the
// state the step's loader reads (server/infra/kycStates.ts); the job's data and ids are their shared
// contract (shared/kycJobContract.ts).
import { kycJobId } from '../../shared/kycJobContract.ts';
import { riskPollWaitMs } from '../../shared/kyc.ts';
import type { CreationCredentials } from '../../shared/creationJobContract.ts';
import type { CreationCredentialsStore } from './creationCredentials.ts';
import type { JobQueue } from './jobQueue.ts';

export interface KycEnqueueDeps {
  queue: JobQueue;
  /** The creation credentials store: KYC runs use ids of their own (`kyc-N`), so the entries never meet. */
  credentials: CreationCredentialsStore;
}

export interface KycRun {
  prospectId: string;
  /** `kyc-N`: one per run (a session counter bumped by Try again); the same runId twice is deduplicated. */
  runId: string;
  /** The page's locale; the answer session's texts come in it. */
  locale: string;
  /** The session's refresh token (and access token, if any): sealed, never job data. */
  credentials: CreationCredentials;
}

/**
 * Starts a run: hands the person's credentials to the worker (sealed, apart from the job), then enqueues
 * the first answer-session start. Until the worker publishes, the latest state may still be an earlier
 * run's: the loader counts a state of another run as 'preparing'.
 */
export async function enqueueKycPreparation(deps: KycEnqueueDeps, run: KycRun): Promise<void> {
  await deps.credentials.put(run.prospectId, run.runId, run.credentials);
  await deps.queue.add(
    'kycPreparation',
    { prospectId: run.prospectId, runId: run.runId, phase: 'start', attempt: 1, locale: run.locale },
    { jobId: kycJobId(run.prospectId, run.runId, 'start', 1) },
  );
}

/**
 * After the last page: enqueues the run's first risk poll, after its wait (riskPollWaitMs(1)). The run's
 * credentials are normally still there (the start phase keeps them until the run ends); they are put
 * again, which also restarts their lifetime after a long questionnaire.
 */
export async function enqueueKycRisk(deps: KycEnqueueDeps & { riskWaitMs?: (attempt: number) => number }, run: KycRun): Promise<void> {
  await deps.credentials.put(run.prospectId, run.runId, run.credentials);
  await deps.queue.add(
    'kycPreparation',
    { prospectId: run.prospectId, runId: run.runId, phase: 'risk', attempt: 1, locale: run.locale },
    { delayMs: (deps.riskWaitMs ?? riskPollWaitMs)(1), jobId: kycJobId(run.prospectId, run.runId, 'risk', 1) },
  );
}
