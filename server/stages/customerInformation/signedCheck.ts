// "I have signed" (customer-information §4.8): back from signing, the customer-creation check (POST /api/2/customers)
// that on success goes on to customer creation. What its answers mean (identification-routing-creation §7 "data.message
// present means error"; the call wrapper of customer-information §7 for failures of the call):
// - created (no data.message): signed; creation has been requested;
// - refused with a 4xx (other than 401/403, and 408/429 which are "try again"): the brokerage will not create the
//   customer of an unsigned prospect: not signed yet;
// - answered 2xx with data.message: the request failed although the brokerage took it: an error, "try again";
// - a failure of the call throws (server/upstream/brokerageClient.ts): an expired token is refreshed and the call tried again
//   (calls.ts), 401/403 is an expired session, anything else (5xx, timeout, unreachable) "try again".
//
// Once-only: creation changes state upstream, so the check reaches the brokerage once per person however often it is
// posted (double click, another tab, the page's own check when it becomes visible). This uses the mechanism milestone
// three's signing and the legacy 'Sign agreements' rely on: the customer-information routes run one request at a time
// per session, across web processes (server/infra/sessionLocks.ts), each on the session as the one before saved it,
// and what the upstream answered is kept in the session. A check answered "created" is kept (creationRequested), so a
// later post goes on to customer creation without a second POST /api/2/customers.
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
