// The customer-information page (customer-information.md §2–4): one step at a time, the current step
// and every answer kept in the session, every step a plain form post that redirects (303) onwards.
import { Router, type Request, type Response } from 'express';
import type { ReactElement } from 'react';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { journeyOf, redirectAfterSave, sendPage, translatorFor } from '../../pages.ts';
import type { CustomerInformationProgress, Journey } from '../../journey.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { endJourney } from '../../endJourney.ts';
import type { BrokerageClient } from '../../upstream/brokerage.ts';
import type { Translate } from '../../../shared/i18n.ts';
import { brokerageForRequest, callErrorKind, type StepErrorKind } from './calls.ts';
import { stepIds } from '../../../shared/contracts/brokerage.ts';
import { canGoBack, progressPercent } from '../../../shared/customerInformationSteps.ts';
import { abortDialog, StepError, StepHeaderBar, StepUnavailable } from '../../../views/pages/CustomerInformationPage.tsx';
import type { StepContext } from './stepModule.ts';
import { stepModules } from './stepRegistry.ts';
import { isMultipart, parseMultipart } from './uploads.ts';
import type { RefuseHandler } from '../../infra/sessionLocks.ts';
import { routePatterns, routePrefixes, routes } from '../../../shared/routes.ts';
import { Dialog } from '../../../views/components/Dialog.tsx';
import { FaqPanel } from '../../../views/components/FaqPanel.tsx';

// Every step form names its step, so a post from a stale tab or a double submit cannot answer another step.
const stepField = z.object({ step: z.enum(stepIds) });
// What an HTML form posts: names with one or more text values. Anything else (JSON objects) is not a form.
const formFields = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

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
  /** The previous post was refused by the session lock (refusedStepPost): say it was not saved. */
  notSaved?: NotSaved;
}

type NotSaved = 'upload' | 'change';
const notSavedQuery = z.enum(['upload', 'change']);

/**
 * A post to this page that the per-session lock refused (server/infra/sessionLocks.ts): another request of
 * the person's still ran, e.g. an upload the browser had dropped for the next one. Nothing was saved
 * (the file not attached). Back to the step, whose banner says so (the page is read again under the
 * lock, so it shows what is really kept); anything else gets the app's answer (`fallback`).
 */
// A post to one of the page's own paths (…/step, …/back, …/exit); the group is the page. The prefix is letters, '-' and '/' only.
const stepPagePost = new RegExp(`^(${routePrefixes.customerInformation}/[^/?#]+)/[a-z]+$`);

export function refusedStepPost(fallback: RefuseHandler): RefuseHandler {
  return (req, res, why) => {
    const page = stepPagePost.exec(req.originalUrl.split('?')[0] ?? '');
    if (req.method !== 'POST' || !page) return fallback(req, res, why);
    res.redirect(303, `${page[1]}?notSaved=${isMultipart(req) ? 'upload' : 'change'}`);
  };
}

// One wrapped client per request, so a token refreshed by one call is used by every later call of it.
const requestBrokerage = new WeakMap<Request, BrokerageClient>();

/** The step's context: its brokerage calls go through the §7 call wrapper (token refresh, calls.ts). */
function contextFor(req: Request, deps: AppDeps, journey: Journey, ci: CustomerInformationProgress): StepContext {
  let brokerage = requestBrokerage.get(req);
  if (!brokerage) {
    brokerage = brokerageForRequest(deps.brokerage, journey, deps.logger);
    requestBrokerage.set(req, brokerage);
  }
  return {
    req,
    deps: { ...deps, brokerage },
    journey,
    ci,
    t: translatorFor(req, deps),
    // Read at use: a token refresh replaces it in the session.
    get jwt() {
      return journey.jwt!;
    },
    action: routes.customerInformationStep(ci.prospectId),
    basePath: routes.customerInformation(ci.prospectId),
  };
}

/** Where the step's view would be when its own calls failed: the banner says why; try again reloads. */
function ViewUnavailable({ t, kind, href }: { t: Translate; kind: StepErrorKind; href: string }) {
  if (kind === 'SESSION_EXPIRED_ERROR') return null;
  return (
    <p>
      <a className="btn" href={href}>
        {t('customerInformation.error.TRY_AGAIN_ERROR.retry')}
      </a>
    </p>
  );
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
  let { status, error } = extra;
  let body = extra.view;
  if (!body) {
    try {
      body = await module.view(contextFor(req, deps, journey, ci));
    } catch (err) {
      // A view's own calls (e.g. tax validation rules) failed: the banner instead of an error page.
      if (!(err instanceof UpstreamError)) throw err;
      deps.logger.warn({ status: err.status, step }, 'customer-information step view failed');
      error = callErrorKind(err);
      status = 502;
      body = <ViewUnavailable t={t} kind={error} href={routes.customerInformation(ci.prospectId)} />;
    }
  }
  const header = {
    backAction: canGoBack(ci.steps, ci.current) || (ci.subStep ?? 0) > 0 ? routes.customerInformationBack(ci.prospectId) : null,
    exitUrl: routes.customerInformationExit(ci.prospectId),
    continueUrl: routes.customerInformation(ci.prospectId),
    progressPercent: progressPercent(ci.steps, ci.current),
  };
  sendPage(req, res, deps, {
    progress: 2,
    status,
    body: (
      <>
        <StepHeaderBar t={t} header={header} />
        {error && <StepError t={t} kind={error} />}
        {extra.notSaved && (
          <p className="banner banner--error" role="alert">
            {t(`customerInformation.notSaved.${extra.notSaved}`)}
          </p>
        )}
        <div className="step" data-step={step} data-sub-step={ci.subStep ?? 0}>
          {body}
        </div>
        <FaqPanel t={t} faqUrl={deps.config.FAQ_URL} />
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

  router.get(routePatterns.customerInformation, (req, res, next) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, routes.start);
    const notSaved = notSavedQuery.safeParse(req.query.notSaved);
    renderStep(req, res, deps, found.journey, found.ci, { notSaved: notSaved.success ? notSaved.data : undefined }).catch(next);
  });

  router.post(routePatterns.customerInformationStep, async (req, res, next) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, routes.start);
    const { journey, ci } = found;
    // Upload forms post multipart: text fields into req.body, the file kept for uploads.ts (uploadFile).
    if (isMultipart(req)) await parseMultipart(req, res);
    const parsed = stepField.safeParse(req.body);
    const current = ci.steps[ci.current];
    const module = current === undefined ? undefined : stepModules.get(current);
    if (!parsed.success || parsed.data.step !== current || !module || !formFields.safeParse(req.body).success) {
      return res.redirect(303, routes.customerInformation(ci.prospectId));
    }
    try {
      const outcome = await module.submit(contextFor(req, deps, journey, ci), req.body as Record<string, unknown>);
      switch (outcome.kind) {
        case 'advance':
          advance(ci);
          return redirectAfterSave(req, res, routes.customerInformation(ci.prospectId));
        case 'subStep':
          ci.subStep = outcome.subStep;
          return redirectAfterSave(req, res, routes.customerInformation(ci.prospectId));
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

  router.post(routePatterns.customerInformationBack, (req, res) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, routes.start);
    const { journey, ci } = found;
    const module = stepModules.get(ci.steps[ci.current]!);
    const previousSubStep = module?.back?.(contextFor(req, deps, journey, ci)) ?? null;
    if (previousSubStep !== null) ci.subStep = previousSubStep;
    else if (canGoBack(ci.steps, ci.current)) {
      ci.current -= 1;
      ci.subStep = 0;
    }
    redirectAfterSave(req, res, routes.customerInformation(ci.prospectId));
  });

  // The abort modal as its own page (works without JavaScript).
  router.get(routePatterns.customerInformationExit, (req, res) => {
    const found = progressOf(req, deps, req.params.prospectId);
    if (!found) return res.redirect(303, routes.start);
    const t = translatorFor(req, deps);
    sendPage(req, res, deps, {
      progress: 2,
      body: <Dialog {...abortDialog(t, routes.customerInformationExit(found.ci.prospectId), routes.customerInformation(found.ci.prospectId))} />,
    });
  });

  // Yes, exit: the person's brokerage sessions end upstream, then ours (server/endJourney.ts).
  router.post(routePatterns.customerInformationExit, async (req, res, next) => {
    const webview = req.session.journey?.webview ?? false;
    await endJourney(req, res, deps, webview ? routes.closeSignupInApp : '/').catch(next);
  });

  return router;
}
