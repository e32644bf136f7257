// Milestone screens (customer-information.md §2.3): one and two post their step and move on; three
// posts its step, asks for a signing URL and sends the browser to the signing service (§4.8).
import type { StepModule } from '../stepModule.ts';
import { localeOf, publicOriginOf } from '../../../pages.ts';
import { MilestoneStep } from '../../../../views/pages/CustomerInformationPage.tsx';
import { routes } from '../../../../shared/routes.ts';

export const milestoneOne: StepModule = {
  id: 'MILESTONE_ONE_STEP',
  view: ({ t, action }) => <MilestoneStep t={t} milestone="one" action={action} />,
  async submit({ deps, jwt, ci }) {
    await deps.brokerage.submitMilestone(jwt, ci.prospectId, 'one');
    return { kind: 'advance' };
  },
};

export const milestoneTwo: StepModule = {
  id: 'MILESTONE_TWO_STEP',
  view: ({ t, action }) => <MilestoneStep t={t} milestone="two" action={action} />,
  async submit({ deps, jwt, ci }) {
    await deps.brokerage.submitMilestone(jwt, ci.prospectId, 'two');
    return { kind: 'advance' };
  },
};

export const milestoneThree: StepModule = {
  id: 'MILESTONE_THREE_STEP',
  view: ({ t, action }) => <MilestoneStep t={t} milestone="three" action={action} />,
  async submit({ req, deps, jwt, ci, basePath }) {
    await deps.brokerage.submitMilestone(jwt, ci.prospectId, 'three');
    // Back to the host the person is on: the session cookie belongs to it.
    const publicUrl = publicOriginOf(req, deps);
    const url = await deps.brokerage.requestSignature(jwt, ci.prospectId, {
      complete_url: `${publicUrl}${routes.customerCreation(ci.prospectId)}`,
      cancel_url: `${publicUrl}${routes.cancel}`,
      postpone_url: `${publicUrl}${basePath}`,
      lang: localeOf(req, deps).slice(0, 2),
    });
    return { kind: 'redirect', url };
  },
};
