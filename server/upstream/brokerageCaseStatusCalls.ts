// The brokerage's calls of the application status page (identification-routing-creation §7: trigger-case, task-with-actions
// list, update-action, update-case; contract shared/contracts/caseStatusContract.ts), part of the brokerage client
// (brokerageClient.ts): one typed function per call, each answer parsed by the contract schema; a failure throws UpstreamError.
// The files go through the client's initFileUpload and the object storage. The caller retries update-action and update-case
// (identification-routing-creation §9: 10 tries, 500 ms apart) with withRetries (retry.ts), within the request's deadline.
import {
  caseStatusPaths as paths,
  tasksOf,
  tasksWithActionsResponse,
  triggerCaseRequest,
  updateActionRequest,
  updateCaseRequest,
  type TaskList,
  type UpdateActionRequest,
  type UpdateCaseRequest,
} from '../../shared/contracts/caseStatusContract.ts';
import type { HttpClient } from './http.ts';
import { emptyAnswer, idempotencyHeaders } from './idempotency.ts';

export function brokerageCaseStatusCalls(http: HttpClient) {
  return {
    /**
     * POST trigger-case: creates a case for the person's prospect (OnboardingTriggerCase). `attempt` is the prospect's one
     * attempt (server/infra/caseTriggers.ts): every call for it sends the same Idempotency-Key.
     */
    async triggerCase(jwt: string, prospectId: string, attempt: string): Promise<void> {
      const body = triggerCaseRequest.parse({ prospectId });
      const headers = idempotencyHeaders(attempt, 'POST', paths.triggerCase, body);
      await http.json({ method: 'POST', path: paths.triggerCase, bearer: jwt, headers, body, schema: emptyAnswer });
    },
    /**
     * GET task-with-actions list: the person's own tasks; a 204 is no tasks (identification-routing-creation §4 "Status
     * page"). A task the contract does not describe is among `others`, never a failure of the list.
     */
    async tasksWithActions(jwt: string): Promise<TaskList> {
      const { status, data } = await http.json({ method: 'GET', path: paths.tasksWithActions, bearer: jwt, schema: tasksWithActionsResponse });
      return status === 204 ? { tasks: [], others: [] } : tasksOf(data.data.tasks);
    },
    /**
     * PUT update-action. `attempt` names the person's submit (kept in the session before the first try): its retries send
     * the same Idempotency-Key, so an update whose answer was lost is not recorded twice.
     */
    async updateAction(jwt: string, body: UpdateActionRequest, attempt: string): Promise<void> {
      const sent = updateActionRequest.parse(body);
      const headers = idempotencyHeaders(attempt, 'PUT', paths.updateAction, sent);
      await http.json({ method: 'PUT', path: paths.updateAction, bearer: jwt, headers, body: sent, schema: emptyAnswer });
    },
    /** PUT update-case: the action answered and the task's new data; `attempt` as for updateAction. */
    async updateCase(jwt: string, body: UpdateCaseRequest, attempt: string): Promise<void> {
      const sent = updateCaseRequest.parse(body);
      const headers = idempotencyHeaders(attempt, 'PUT', paths.updateCase, sent);
      await http.json({ method: 'PUT', path: paths.updateCase, bearer: jwt, headers, body: sent, schema: emptyAnswer });
    },
  };
}
