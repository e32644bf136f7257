// Milestone screens (customer-information §2.3): one and two post their step and move on; three
// posts its step, asks for a signing URL and sends the browser to the signing service
// (customer-information §4.8). Each is one screen, `milestone`, whose form posts nothing but its step and screen.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { finish, stepOf, type StepContext } from '../stepModule.ts';
import { localeOf, publicOriginOf } from '../../../pages.ts';
import { MilestoneStep } from '../../../../views/pages/CustomerInformationPageView.tsx';
import { routes } from '../../../../shared/routes.ts';
import { reopenableSigningUrl, signingReturnUrls } from '../../../../shared/signingReturn.ts';
import { sectionSteps, summarySectionIds, summarySections, translateSummary } from '../../../../shared/answersSummarySections.ts';
import { UpstreamError } from '../../../upstream/http.ts';
import { changeTarget } from '../../../../shared/customerInformationStepList.ts';
import { countryName } from '../../../../shared/countries.ts';
import { stepId } from '../../../../shared/contracts/brokerageContract.ts';
import type { SummarySection } from '../../../../views/components/AnswersSummary.tsx';
import { checkSigned } from '../signedCheck.ts';

type MilestoneScreen = 'milestone';
type Ctx = StepContext<MilestoneScreen>;
const { defineStep, screen, goTo, again } = stepOf<MilestoneScreen>();

/** Milestone one or two: post the milestone, then the next step. */
function plainMilestone(id: 'MILESTONE_ONE_STEP' | 'MILESTONE_TWO_STEP', milestone: 'one' | 'two') {
  return defineStep({
    id,
    first: 'milestone',
    screens: {
      milestone: screen({
        input: z.object({}),
        view: ({ t, action, fields }) => <MilestoneStep t={t} milestone={milestone} action={action} fields={fields()} />,
        async submit({ brokerage, prospectId }) {
          await brokerage.submitMilestone(prospectId, milestone);
          return finish;
        },
      }),
    },
  });
}

export const milestoneOne = plainMilestone('MILESTONE_ONE_STEP', 'one');
export const milestoneTwo = plainMilestone('MILESTONE_TWO_STEP', 'two');

/**
 * Milestone three (customer-information §4.8): posts its step, requests the signing URL and sends the browser there.
 * The URL is kept and re-opened while its order can still be signed (shared/signingReturn.ts). A 403 on the signature
 * request is high risk (§8). With FLAG_RETRY_SIGNUP_SIGNING, "I have signed" checks with the customer-creation call
 * once this page has handed out a signing URL. "Check your answers" (WCAG 2.2 SC 3.3.4) lists what was given, each
 * earlier step with a Change that re-enters it; a Change drops a signing URL handed out, so the changed answers are signed.
 */
export const milestoneThree = defineStep({
  id: 'MILESTONE_THREE_STEP',
  first: 'milestone',
  screens: {
    milestone: screen({
      input: z.object({
        intent: z.enum(['signed', 'change']).optional(),
        auto: z.literal('1').optional(),
        target: z.string().max(40).optional().catch(undefined),
      }),
      view: (ctx) => milestoneThreeView(ctx),
      async submit(ctx, input) {
        const { req, deps, ci, t, journey, brokerage, prospectId } = ctx;
        const kept = ci.answers?.milestoneThree?.signingUrl;
        if (input.intent === 'change') {
          // A step that cannot be changed from here (KYC, a later or unknown one): the summary again, nothing changed.
          const target = stepId.safeParse(input.target);
          if (!target.success || changeTarget(ci.steps, ci.current, target.data) === null) return goTo('milestone');
          if (ci.answers?.milestoneThree) delete ci.answers.milestoneThree;
          delete ci.answers?.signingAttempt;
          return { kind: 'changeStep', step: target.data };
        }
        if (input.intent === 'signed') {
          if (!kept || !deps.config.FLAG_RETRY_SIGNUP_SIGNING) return goTo('milestone');
          // Once per person, and each answer classified (signedCheck.ts).
          const check = await checkSigned(ctx);
          // On to the complete URL (customer-information §4.8), as the signing service's return: customer creation, in
          // the native app's webview the app's create deep link, so that the app takes over as after signing there.
          if (check === 'signed') return { kind: 'redirect', url: signedContinueUrl(ctx) };
          if (check === 'failed') return again(await milestoneThreeView(ctx), 502, { error: 'TRY_AGAIN_ERROR' });
          // Not signed yet: the page's own check (the tab became visible) says nothing; the person's click is told.
          return input.auto ? goTo('milestone') : again(await milestoneThreeView(ctx, t('milestone.three.notSignedYet')), 409);
        }
        const reopen = reopenableSigningUrl(ci.answers?.milestoneThree, deps.now(), deps.config.SIGNING_ORDER_LIFETIME_MS);
        if (reopen) return { kind: 'redirect', url: reopen };
        // A new order after one that ended (cancelled, postponed, expired): the step was posted with the first.
        if (!kept) await brokerage.submitMilestone(prospectId, 'three');
        // The attempt is kept before the call (server/stages/customerInformation/saveAttempts.ts): a Sign after a timeout sends the same request (the same
        // Idempotency-Key) and gets the signing session the first try created. It is also the order's key, so the attempt
        // of an order that was handed out and has ended is spent: the next order is a new attempt.
        const answers = (ci.answers ??= {});
        if (answers.milestoneThree && answers.milestoneThree.orderKey === answers.signingAttempt) delete answers.signingAttempt;
        const orderKey = (answers.signingAttempt ??= randomUUID());
        const signature = await brokerage.requestSignature(
          prospectId,
          {
            // Back to the host the person is on (its origin from configuration): the session cookie belongs to it.
            ...signingReturnUrls({
              publicUrl: publicOriginOf(req, deps),
              prospectId,
              webview: journey.webview,
              nativeAppScheme: deps.config.NATIVE_APP_SCHEME,
              orderKey,
            }),
            lang: localeOf(req, deps).slice(0, 2),
          },
          orderKey,
        );
        if (!signature.ok) {
          deps.logger.warn({ step: 'MILESTONE_THREE_STEP' }, 'signature request refused: high risk');
          return again(await milestoneThreeView(ctx, t('customerInformation.error.highRisk')), 403);
        }
        (ci.answers ??= {}).milestoneThree = { signingUrl: signature.url, orderKey, handedOutAt: deps.now() };
        return { kind: 'redirect', url: signature.url };
      },
    }),
  },
});

/** Where "I have signed" goes on to once signed: the signing order's complete URL (shared/signingReturn.ts). */
function signedContinueUrl({ req, deps, journey, prospectId }: Ctx): string {
  if (!journey.webview) return routes.customerCreation(prospectId);
  return signingReturnUrls({ publicUrl: publicOriginOf(req, deps), prospectId, webview: true, nativeAppScheme: deps.config.NATIVE_APP_SCHEME }).complete_url;
}

/** What the person gave, translated, each changeable section with its Change post. */
function summaryOf({ t, action, fields, ci, journey, req, deps }: Ctx): SummarySection[] {
  const locale = localeOf(req, deps);
  const specs = summarySections({ steps: ci.steps, current: ci.current, market: journey.country, answers: { accounts: ci.accounts, ...ci.answers } });
  return translateSummary(specs, t, (code) => countryName(code, locale)).map(({ id, title, rows, changeStep }) => ({
    id,
    title,
    rows,
    ...(changeStep
      ? { change: { label: t('summary.change.label', { section: id }), action, fields: { ...fields(), intent: 'change', target: changeStep } } }
      : {}),
  }));
}

/**
 * GET onboarding ready (customer-information §6) before Sign is offered: the missing steps, each that can be changed
 * from here with its Change post. A check that fails offers signing as before (the signature request does not need it).
 */
async function missingSteps({
  t,
  fields,
  ci,
  deps,
  brokerage,
  prospectId,
}: Ctx): Promise<{ text: string; steps: { label: string; fields: Record<string, string> }[] } | undefined> {
  let ready;
  try {
    ready = await brokerage.onboardingReady(prospectId);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    deps.logger.warn({ status: err.status }, 'onboarding ready unavailable');
    return undefined;
  }
  if (ready.isReady) return undefined;
  deps.logger.info({ missingSteps: ready.missingSteps }, 'application not ready for signing');
  const steps = ready.missingSteps.flatMap((step) => {
    const section = summarySectionIds.find((id) => sectionSteps[id] === step);
    if (!section || changeTarget(ci.steps, ci.current, step) === null) return [];
    return [{ label: t('summary.change.label', { section }), fields: { ...fields(), intent: 'change', target: step } }];
  });
  return { text: t('milestone.three.notReady'), steps };
}

async function milestoneThreeView(ctx: Ctx, error?: string) {
  const { t, action, fields, ci, deps } = ctx;
  const notReady = await missingSteps(ctx);
  const signed = ci.answers?.milestoneThree?.signingUrl && deps.config.FLAG_RETRY_SIGNUP_SIGNING;
  const sections = summaryOf(ctx);
  // The KYC answers show without a Change: the intro says why.
  const intro = [t('summary.intro'), ...(sections.some((s) => s.id === 'kyc') ? [t('summary.kycFixed')] : [])].join(' ');
  return (
    <MilestoneStep
      t={t}
      milestone="three"
      action={action}
      fields={fields()}
      {...(error ? { error } : {})}
      {...(signed ? { signedCheck: { action, fields: fields(), label: t('milestone.three.signed') } } : {})}
      {...(sections.length > 0 ? { summary: { title: t('summary.title'), intro, sections } } : {})}
      {...(notReady ? { notReady } : {})}
    />
  );
}
