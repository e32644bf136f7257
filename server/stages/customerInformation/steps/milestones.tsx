// Milestone screens (customer-information §2.3): one and two post their step and move on; three
// posts its step, asks for a signing URL and sends the browser to the signing service
// (customer-information §4.8). Each is one screen, `milestone`, whose form posts nothing but its step and screen.
import { z } from 'zod';
import { again, finish, screen, singleScreen } from '../stepModule.ts';
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

/**
 * Milestone three (customer-information §4.8): posts its step, requests the signing URL and sends the browser
 * there. The URL is kept, so coming back the button re-opens the same signing (no second request). A 403 on
 * the signature request is high risk (customer-information §8), shown here: not an expired session.
 */
export const milestoneThree = singleScreen(
  'MILESTONE_THREE_STEP',
  'milestone',
  screen({
    input: z.object({}),
    view: ({ t, action, fields }) => <MilestoneStep t={t} milestone="three" action={action} fields={fields()} />,
    async submit({ req, deps, ci, t, action, fields, brokerage, prospectId, basePath }) {
      const kept = ci.answers?.milestoneThree?.signingUrl;
      if (kept) return { kind: 'redirect', url: kept };
      await brokerage.submitMilestone(prospectId, 'three');
      // Back to the host the person is on: the session cookie belongs to it.
      const publicUrl = publicOriginOf(req, deps);
      const signature = await brokerage.requestSignature(prospectId, {
        complete_url: `${publicUrl}${routes.customerCreation(prospectId)}`,
        cancel_url: `${publicUrl}${routes.cancel}`,
        postpone_url: `${publicUrl}${basePath}`,
        lang: localeOf(req, deps).slice(0, 2),
      });
      if (!signature.ok) {
        deps.logger.warn({ step: 'MILESTONE_THREE_STEP' }, 'signature request refused: high risk');
        return again(<MilestoneStep t={t} milestone="three" action={action} fields={fields()} error={t('customerInformation.error.highRisk')} />, 403);
      }
      (ci.answers ??= {}).milestoneThree = { signingUrl: signature.url };
      return { kind: 'redirect', url: signature.url };
    },
  }),
);
