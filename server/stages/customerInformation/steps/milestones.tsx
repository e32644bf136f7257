// Milestone screens (customer-information §2.3): one and two post their step and move on; three
// posts its step, asks for a signing URL and sends the browser to the signing service
// (customer-information §4.8). Each is one screen, `milestone`, whose form posts nothing but its step and screen.
import { z } from 'zod';
import { finish, screen, singleScreen } from '../stepModule.ts';
import { localeOf, publicOriginOf } from '../../../pages.ts';
import { MilestoneStep } from '../../../../views/pages/CustomerInformationPage.tsx';
import { routes } from '../../../../shared/routes.ts';

/** Milestone one or two: post the milestone, then the next step. */
function plainMilestone(id: 'MILESTONE_ONE_STEP' | 'MILESTONE_TWO_STEP', milestone: 'one' | 'two') {
  return singleScreen(
    id,
    'milestone',
    screen({
      input: z.object({}),
      view: ({ t, action, fields }) => <MilestoneStep t={t} milestone={milestone} action={action} fields={fields()} />,
      async submit({ brokerage, prospectId }) {
        await brokerage.submitMilestone(prospectId, milestone);
        return finish;
      },
    }),
  );
}

export const milestoneOne = plainMilestone('MILESTONE_ONE_STEP', 'one');
export const milestoneTwo = plainMilestone('MILESTONE_TWO_STEP', 'two');

export const milestoneThree = singleScreen(
  'MILESTONE_THREE_STEP',
  'milestone',
  screen({
    input: z.object({}),
    view: ({ t, action, fields }) => <MilestoneStep t={t} milestone="three" action={action} fields={fields()} />,
    async submit({ req, deps, brokerage, prospectId, basePath }) {
      await brokerage.submitMilestone(prospectId, 'three');
      // Back to the host the person is on: the session cookie belongs to it.
      const publicUrl = publicOriginOf(req, deps);
      const url = await brokerage.requestSignature(prospectId, {
        complete_url: `${publicUrl}${routes.customerCreation(prospectId)}`,
        cancel_url: `${publicUrl}${routes.cancel}`,
        postpone_url: `${publicUrl}${basePath}`,
        lang: localeOf(req, deps).slice(0, 2),
      });
      return { kind: 'redirect', url };
    },
  }),
);
