// The customer-information page (customer-information.md §2–4): one step at a time, the current step
// and every answer kept in the session, every step a plain form post that redirects (303) onwards.
import { Router, type Request, type Response } from 'express';
import type { ReactElement } from 'react';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { journeyOf, redirectAfterSave, sendPage, translatorFor } from '../../pages.ts';
import type { CustomerInformationProgress, Journey } from '../../journey.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { stepIds } from '../../../shared/contracts/brokerage.ts';
import { canGoBack, progressPercent } from '../../../shared/customerInformationSteps.ts';
import { StepError, StepHeaderBar, StepUnavailable } from '../../../views/pages/CustomerInformationPage.tsx';
import type { StepContext } from './stepModule.ts';
import { stepModules } from './stepRegistry.ts';
import { AbortPage } from '../../../views/pages/FeedbackPages.tsx';

type StepErrorKind = 'SESSION_EXPIRED_ERROR' | 'TRY_AGAIN_ERROR';

/** §7: one wrapper for every call: 401/403 → session expired, anything else → try again. */
function callErrorKind(err: unknown): StepErrorKind {
  return err instanceof UpstreamError && (err.status === 401 || err.status === 403) ? 'SESSION_EXPIRED_ERROR' : 'TRY_AGAIN_ERROR';
}

// Every step form names its step, so a post from a stale tab or a double submit cannot answer another step.
const stepField = z.object({ step: z.enum(stepIds) });
// What an HTML form posts: names with one or more text values. Anything else (JSON objects) is not a form.
const formFields = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

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
  /** A step's own re-render (errors shown, input kept) instead of its plain view. */
  view?: ReactElement;
}

function contextFor(req: Request, deps: AppDeps, journey: Journey, ci: CustomerInformationProgress): StepContext {
  return { req, deps, journey, ci, t: translatorFor(req, deps), jwt: journey.jwt!, action: `${base(ci.prospectId)}/step`, basePath: base(ci.prospectId) };
}

async function renderStep(req: Request, res: Response, deps: AppDeps, journey: Journey, ci: CustomerInformationProgress, extra: StepRender = {}): Promise<void> {
  const t = translatorFor(req, deps);
  const step = ci.steps[ci.current];
  const module = step === undefined ? undefined : stepModules.get(step);
  if (!module) {
    // Only the legacy single form (EXISTING_STEP) is left, and this build has no view for it yet: say so
    // and offer the external form rather than failing.
    sendPage(req, res, deps, { progress: 2, body: <StepUnavailable t={t} formUrl={deps.config.MANUAL_SUPPORT_URL} /> });
    return;
  }
  const body = extra.view ?? (await module.view(contextFor(req, deps, journey, ci)));
  const header = {
    backAction: canGoBack(ci.steps, ci.current) || (ci.subStep ?? 0) > 0 ? `${base(ci.prospectId)}/back` : null,
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
        <div className="step" data-step={step} data-sub-step={ci.subStep ?? 0}>
          {body}
        </div>
      </>
    ),
  });
}

/** Moves to the next step (its first sub-step). */
function advance(ci: CustomerInformationProgress): void {
  ci.current = Math.min(ci.current + 1, ci.steps.length - 1);
  ci.subStep = 0;
}

export function customerInformationRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get('/onboarding/customer-information/:prospectId', (req, res, next) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, '/onboarding');
    renderStep(req, res, deps, found.journey, found.ci).catch(next);
  });

  router.post('/onboarding/customer-information/:prospectId/step', async (req, res, next) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, '/onboarding');
    const { journey, ci } = found;
    const parsed = stepField.safeParse(req.body);
    const current = ci.steps[ci.current];
    const module = current === undefined ? undefined : stepModules.get(current);
    if (!parsed.success || parsed.data.step !== current || !module || !formFields.safeParse(req.body).success) {
      return res.redirect(303, base(ci.prospectId));
    }
    try {
      const outcome = await module.submit(contextFor(req, deps, journey, ci), req.body as Record<string, unknown>);
      switch (outcome.kind) {
        case 'advance':
          advance(ci);
          return redirectAfterSave(req, res, base(ci.prospectId));
        case 'subStep':
          ci.subStep = outcome.subStep;
          return redirectAfterSave(req, res, base(ci.prospectId));
        case 'render':
          return await renderStep(req, res, deps, journey, ci, { status: outcome.status, view: outcome.view });
        case 'redirect':
          return redirectAfterSave(req, res, outcome.url);
      }
    } catch (err) {
      if (!(err instanceof UpstreamError)) return next(err);
      deps.logger.warn({ status: err.status, step: current }, 'customer-information step failed');
      await renderStep(req, res, deps, journey, ci, { status: 502, error: callErrorKind(err) }).catch(next);
    }
  });

  router.post('/onboarding/customer-information/:prospectId/back', (req, res) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, '/onboarding');
    const { journey, ci } = found;
    const module = stepModules.get(ci.steps[ci.current]!);
    const previousSubStep = module?.back?.(contextFor(req, deps, journey, ci)) ?? null;
    if (previousSubStep !== null) ci.subStep = previousSubStep;
    else if (canGoBack(ci.steps, ci.current)) {
      ci.current -= 1;
      ci.subStep = 0;
    }
    redirectAfterSave(req, res, base(ci.prospectId));
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
