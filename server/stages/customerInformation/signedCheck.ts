// "I have signed" (customer-information §4.8): back from signing, the customer-creation check (POST /api/2/customers).
// Created (no data.message): signed, creation requested; a 4xx (not 401/403/408/429): not signed yet; 2xx with
// data.message, or a failed call: "try again" (401/403: the session has ended). Once-only: it runs under the page's
// session lock and a "created" answer is kept (creationRequested), so later posts go on without a second call.
import type { StepContext } from './stepModule.ts';

export type SignedCheck = 'signed' | 'notSigned' | 'failed';

export async function checkSigned({ journey, brokerage, prospectId }: Pick<StepContext<string>, 'journey' | 'brokerage' | 'prospectId'>): Promise<SignedCheck> {
  if (journey.creationRequested === prospectId) return 'signed';
  const answer = await brokerage.createCustomer(prospectId);
  if (answer.ok) {
    journey.creationRequested = prospectId;
    return 'signed';
  }
  return answer.status >= 400 ? 'notSigned' : 'failed';
}
