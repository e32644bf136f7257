// The web's side of the customer-creation job (identification-routing-creation §4 "Customer creation"):
// starting a run. The worker (workers/customerCreationJob.ts) runs it; the job's data and ids are their
// shared contract (shared/creationJobContract.ts).
import { creationJobId, type CreationCredentials, type CreationRunFacts } from '../../shared/creationJobContract.ts';
import type { CreationCredentialsStore } from './creationCredentials.ts';
import type { JobQueue } from './jobQueue.ts';

/**
 * Starts a creation run: hands the person's credentials to the worker (sealed, apart from the job), then
 * enqueues the run's first step. Use one runId per run (the session's creationRun counter, bumped by
 * "Try again"): the same runId twice is deduplicated, a new one starts afresh. Pass the session's refresh
 * token: the worker then begins the run with a fresh access token of its own. `facts` are what the actions when
 * polling stops need (the market, the webview mode, when signing returned; shared/creationJobContract.ts): no
 * personal data.
 */
export async function enqueueCustomerCreation(
  deps: { queue: JobQueue; credentials: CreationCredentialsStore },
  run: { prospectId: string; runId: string; credentials: CreationCredentials; facts?: CreationRunFacts },
): Promise<void> {
  await deps.credentials.put(run.prospectId, run.runId, run.credentials);
  await deps.queue.add(
    'customerCreation',
    { prospectId: run.prospectId, runId: run.runId, phase: 'start', attempt: 0, ...run.facts },
    { jobId: creationJobId(run.prospectId, run.runId, 'start') },
  );
}
