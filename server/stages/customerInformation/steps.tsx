// The customer-information page (customer-information.md §2–4): one step at a time, the current step
// and every answer kept in the session, every step a plain form post that redirects (303) onwards.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { journeyOf, sendPage, translatorFor, localeOf } from '../../pages.ts';
import type { CustomerInformationProgress, Journey } from '../../journey.ts';
import { UpstreamError } from '../../upstream/http.ts';
import type { StepId } from '../../../shared/contracts/brokerage.ts';
import { canGoBack, progressPercent } from '../../../shared/customerInformationSteps.ts';
import { defaultAccounts, resolveAccountChoice } from '../../../shared/accountPicker.ts';
import {
  AccountPickerStep,
  MilestoneStep,
  StepError,
  StepHeaderBar,
  StepUnavailable,
} from '../../../views/pages/CustomerInformationPage.tsx';
import { AbortPage } from '../../../views/pages/FeedbackPages.tsx';

/** Steps this build renders; the others of initialSteps arrive with the customer-information issue. */
export const implementedSteps: ReadonlySet<StepId> = new Set(['MILESTONE_ONE_STEP', 'ACCOUNT_PICKER_STEP', 'MILESTONE_THREE_STEP']);

type StepErrorKind = 'SESSION_EXPIRED_ERROR' | 'TRY_AGAIN_ERROR';

/** §7: one wrapper for every call: 401/403 → session expired, anything else → try again. */
function callErrorKind(err: unknown): StepErrorKind {
  return err instanceof UpstreamError && (err.status === 401 || err.status === 403) ? 'SESSION_EXPIRED_ERROR' : 'TRY_AGAIN_ERROR';
}

const stepBody = z.object({
  step: z.enum(['MILESTONE_ONE_STEP', 'ACCOUNT_PICKER_STEP', 'MILESTONE_THREE_STEP']),
  accounts: z.union([z.string(), z.array(z.string())]).optional(),
});

const base = (prospectId: string) => `/onboarding/customer-information/${encodeURIComponent(prospectId)}`;

function progressOf(req: Request, deps: AppDeps, prospectId: string): { journey: Journey; ci: CustomerInformationProgress } | null {
  const journey = journeyOf(req, deps);
  const ci = journey.customerInformation;
  if (!journey.jwt || !ci || ci.prospectId !== prospectId) return null;
  return { journey, ci };
}

interface StepRender {
  status?: number;
  error?: StepErrorKind;
  pickerError?: string;
  /** The accounts the user ticked in a rejected post, so they are kept. */
  postedAccounts?: string[];
}

function renderStep(req: Request, res: Response, deps: AppDeps, journey: Journey, ci: CustomerInformationProgress, extra: StepRender = {}): void {
  const t = translatorFor(req, deps);
  const step = ci.steps[ci.current];
  if (step === undefined) {
    // Only the legacy single form (EXISTING_STEP) is left, and this build has no view for it yet: say so
    // and offer the external form rather than failing.
    sendPage(req, res, deps, { progress: 2, body: <StepUnavailable t={t} formUrl={deps.config.MANUAL_SUPPORT_URL} /> });
    return;
  }
  const action = `${base(ci.prospectId)}/step`;
  let body;
  switch (step) {
    case 'MILESTONE_ONE_STEP':
      body = <MilestoneStep t={t} milestone="one" action={action} />;
      break;
    case 'MILESTONE_THREE_STEP':
      body = <MilestoneStep t={t} milestone="three" action={action} />;
      break;
    case 'ACCOUNT_PICKER_STEP': {
      const ticked = new Set(extra.postedAccounts ?? ci.accounts);
      const accounts = defaultAccounts(journey.country).map((a) => ({ ...a, selected: a.mandatory || ticked.has(a.accountTypeWithCountry) }));
      body = <AccountPickerStep t={t} accounts={accounts} action={action} error={extra.pickerError ?? null} />;
      break;
    }
    default:
      throw new Error(`Step ${step} has no view`);
  }
  const header = {
    backAction: canGoBack(ci.steps, ci.current) ? `${base(ci.prospectId)}/back` : null,
    exitUrl: `${base(ci.prospectId)}/exit`,
    progressPercent: progressPercent(ci.steps, ci.current),
  };
  sendPage(req, res, deps, {
    progress: 2,
    status: extra.status,
    body: (
      <>
        <StepHeaderBar t={t} header={header} />
        {extra.error && <StepError t={t} kind={extra.error} />}
        <div className="step" data-step={step}>
          {body}
        </div>
      </>
    ),
  });
}

export function customerInformationRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get('/onboarding/customer-information/:prospectId', (req, res) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, '/onboarding');
    renderStep(req, res, deps, found.journey, found.ci);
  });

  router.post('/onboarding/customer-information/:prospectId/step', async (req, res, next) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, '/onboarding');
    const { journey, ci } = found;
    const parsed = stepBody.safeParse(req.body);
    const current = ci.steps[ci.current];
    // A post for another step (stale tab, double submit) just shows the current step again.
    if (!parsed.success || parsed.data.step !== current) return res.redirect(303, base(ci.prospectId));
    const jwt = journey.jwt!;
    try {
      switch (current) {
        case 'MILESTONE_ONE_STEP':
          await deps.brokerage.submitMilestone(jwt, ci.prospectId, 'one');
          break;
        case 'ACCOUNT_PICKER_STEP': {
          const posted = parsed.data.accounts === undefined ? [] : [parsed.data.accounts].flat();
          const choice = resolveAccountChoice(journey.country, posted);
          if (choice.error) {
            const t = translatorFor(req, deps);
            return renderStep(req, res, deps, journey, ci, { status: 400, pickerError: t('accountPicker.mustChooseOne'), postedAccounts: posted });
          }
          await deps.brokerage.submitAccountPicker(jwt, ci.prospectId, choice.accounts);
          ci.accounts = choice.accounts;
          break;
        }
        case 'MILESTONE_THREE_STEP': {
          await deps.brokerage.submitMilestone(jwt, ci.prospectId, 'three');
          const publicUrl = deps.config.publicUrl;
          const url = await deps.brokerage.requestSignature(jwt, ci.prospectId, {
            complete_url: `${publicUrl}/onboarding/customer-creation/${encodeURIComponent(ci.prospectId)}`,
            cancel_url: `${publicUrl}/onboarding/cancel`,
            postpone_url: `${publicUrl}${base(ci.prospectId)}`,
            lang: localeOf(req, deps).slice(0, 2),
          });
          return res.redirect(303, url);
        }
      }
      ci.current = Math.min(ci.current + 1, ci.steps.length - 1);
      res.redirect(303, base(ci.prospectId));
    } catch (err) {
      if (!(err instanceof UpstreamError)) return next(err);
      deps.logger.warn({ status: err.status, step: current }, 'customer-information step failed');
      renderStep(req, res, deps, journey, ci, { status: 502, error: callErrorKind(err) });
    }
  });

  router.post('/onboarding/customer-information/:prospectId/back', (req, res) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, '/onboarding');
    if (canGoBack(found.ci.steps, found.ci.current)) found.ci.current -= 1;
    res.redirect(303, base(found.ci.prospectId));
  });

  // The abort modal as its own page (works without JavaScript).
  router.get('/onboarding/customer-information/:prospectId/exit', (req, res) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, '/onboarding');
    const t = translatorFor(req, deps);
    sendPage(req, res, deps, {
      progress: 2,
      body: <AbortPage t={t} exitAction={`${base(found.ci.prospectId)}/exit`} continueUrl={base(found.ci.prospectId)} />,
    });
  });

  router.post('/onboarding/customer-information/:prospectId/exit', (req, res) => {
    const webview = journeyOf(req, deps).webview;
    req.session.destroy(() => res.redirect(303, webview ? '/onboarding/close-signup-in-app' : '/'));
  });

  return router;
}
