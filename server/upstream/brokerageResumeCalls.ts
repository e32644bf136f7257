// The brokerage's calls for carrying on with a saved application (customer-information §6 "GET steps", "GET related data by
// step name", "GET onboarding ready"): the steps saved, each step's saved answers, readiness for signing. Part of the
// brokerage client (brokerageClient.ts): one typed function per call, each answer parsed by the contract schema shared with sandbox/.
import { brokeragePaths, type StepId } from '../../shared/contracts/brokerageContract.ts';
import {
  savedApplicationPaths as paths,
  onboardingReadyResponse,
  prospectStepsResponse,
  stepRelatedDataResponse,
  type OnboardingReady,
  type ProspectSteps,
  type StepRelatedData,
} from '../../shared/contracts/savedApplicationContract.ts';
import type { HttpClient } from './http.ts';

export function brokerageResumeCalls(http: HttpClient) {
  return {
    /** GET steps: the prospect's steps in order, each completed or not and the sub-step it carries on at; until when it is kept. */
    async prospectSteps(jwt: string, prospectId: string): Promise<ProspectSteps> {
      return (await http.json({ method: 'GET', path: paths.prospectSteps(prospectId), bearer: jwt, schema: prospectStepsResponse })).data.data;
    },
    /** GET related data by step name: what the brokerage saved of the step, in the step's own shape. */
    async stepRelatedData<S extends StepId>(jwt: string, prospectId: string, step: S): Promise<StepRelatedData<S>> {
      const schema = stepRelatedDataResponse(step);
      return (await http.json({ method: 'GET', path: brokeragePaths.stepRelatedData(prospectId, step), bearer: jwt, schema })).data.data.stepRelatedData;
    },
    /** GET onboarding ready: whether signing may be offered, and the steps still missing (in the list's order). */
    async onboardingReady(jwt: string, prospectId: string): Promise<OnboardingReady> {
      return (await http.json({ method: 'GET', path: paths.onboardingReady(prospectId), bearer: jwt, schema: onboardingReadyResponse })).data.data;
    },
  };
}
