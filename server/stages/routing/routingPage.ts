// Routing after identification (identification-routing-creation §4): the routing status (retried), then on to the
// customer-information page or the screen the status asks for. The tries and the calls after them share the request's
// deadline (REQUEST_DEADLINE_MS): past it the try-again identification error (§8), never a hang. The calls are made as
// the person (server/upstream/asPersonInSession.ts): an access token expired since identification is refreshed once.
import type { Request } from 'express';
import type { AppDeps } from '../../deps.ts';
import type { Journey } from '../../journey.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { withRetries } from '../../upstream/retry.ts';
import { asPersonInSession } from '../../upstream/asPersonInSession.ts';
import { definePage, redirect, type Outcome } from '../../pageKit/definePage.ts';
import { SessionEnded } from '../../../shared/asPerson.ts';
import { blockedBody } from '../../../shared/contracts/brokerageContract.ts';
import { identificationErrorForStatus, routingDecision } from '../../../shared/routing.ts';
import { applyStepFlags } from '../../../shared/customerInformationStepList.ts';
import { initialAccounts } from '../../../shared/accountPicker.ts';
import { routes } from '../../../shared/routes.ts';

/**
 * The first step's own start once the prospect's steps are made (the KYC run, when the list begins with it); `resumed`:
 * the prospect is the person's unfinished one, whose saved answers the page reads back first.
 */
export type BeginSteps = (req: Request, deps: AppDeps, journey: Journey, resumed: boolean) => Promise<void>;

/** Routing, given the customer-information page's start (server/app.ts wires it: a stage imports no other stage). */
export function routingPage(beginSteps: BeginSteps) {
  return definePage({
    route: 'routing',
    access: 'identified',
    // Routing creates the prospect: a second tab or a reload while it runs waits, then finds the prospect made.
    session: 'writes',
    get: async ({ req, deps, journey }): Promise<Outcome> => {
      // Routing runs once per identification: a repeated request (reload, a second tab) goes on to the prospect.
      if (journey.prospectId) return redirect(routes.customerInformation(journey.prospectId, { legacyFlow: journey.legacyFlow === true }));
      const fail = (err: unknown): Outcome => {
        const status = err instanceof UpstreamError ? err.status : 0;
        deps.logger.warn({ status, upstream: err instanceof UpstreamError ? err.upstream : undefined }, 'routing failed');
        // A brokerage session that cannot be renewed is cured by identifying again: try again, not "more
        // information needed" (identification-routing-creation §8 MANUAL_SUPPORT_ERROR) that its 401 would otherwise read as.
        journey.identificationError = err instanceof SessionEnded ? 'TRY_AGAIN_ERROR' : identificationErrorForStatus(status);
        return redirect(routes.start);
      };

      const { call } = asPersonInSession(deps.brokerage, journey, deps.logger);
      const brokerage = deps.brokerage;

      let routing;
      try {
        // The spec retries the routing status whatever the failure (a 4xx too), except a 401: the token refresh
        // has had its go at it, and the same token is refused the same way on every try.
        routing = await withRetries(
          () => call('routingStatus', (jwt) => brokerage.routingStatus(jwt)),
          deps.config.ROUTING_RETRY_DELAY_MS,
          deps.config.ROUTING_RETRIES,
          (err) => !(err instanceof UpstreamError && err.status === 401),
        );
      } catch (err) {
        return fail(err);
      }
      journey.routingStatus = routing.customerRoutingStatus;
      const decision = routingDecision(routing);
      deps.logger.info({ routingStatus: routing.customerRoutingStatus, decision: decision.kind }, 'routing decided');

      try {
        switch (decision.kind) {
          case 'identificationError':
            journey.identificationError = decision.error;
            return redirect(routes.start);
          case 'nightlyDowntime':
            return redirect(routes.nightlyDowntimeStatus());
          case 'caseStatus':
            return redirect(routes.caseStatus);
          case 'legacyFlow':
          case 'continue': {
            const legacy = decision.kind === 'legacyFlow';
            if (!legacy) {
              try {
                await call('becomeCustomerIntent', (jwt) => brokerage.becomeCustomerIntent(jwt, journey.country));
              } catch (err) {
                if (err instanceof UpstreamError && err.status === 403 && blockedBody.safeParse(err.body).success) {
                  journey.identificationError = 'BLOCK_CUSTOMER_ERROR';
                  return redirect(routes.start);
                }
                throw err;
              }
              // The spec waits 2 s after the intent before the validation step.
              await deps.sleep(deps.config.INTENT_WAIT_MS);
              await call('submitValidationStep', (jwt) => brokerage.submitValidationStep(jwt, journey.country, deps.config.FLAG_KYC_V3_STEP));
            }
            const { prospect_id, resumed } = await call('createProspect', (jwt) => brokerage.createProspect(jwt, journey.country, legacy));
            const initialSteps = await call('initialSteps', (jwt) => brokerage.initialSteps(jwt, prospect_id));
            // Every step the flags keep: one this build cannot show is an error on the page, never left out.
            const steps = applyStepFlags(initialSteps, { kyc: deps.config.FLAG_KYC, residency: deps.config.FLAG_RESIDENCY });
            journey.prospectId = prospect_id;
            journey.legacyFlow = legacy;
            journey.customerInformation = {
              steps,
              current: 0,
              visited: [],
              // What the same person typed before identifying again (server/stages/identification/identified.ts).
              answers: { ...journey.typedAnswers },
              // The entry's epk=true ticks the Norwegian pension account too, the Danish campaign DSK (shared/accountPicker.ts initialAccounts).
              accounts: initialAccounts(journey.country, {
                epk: journey.queryParams.epk === 'true',
                ...(journey.campaign ? { campaign: journey.campaign } : {}),
              }),
            };
            delete journey.typedAnswers;
            await beginSteps(req, deps, journey, resumed);
            return redirect(routes.customerInformation(prospect_id, { legacyFlow: legacy }));
          }
        }
      } catch (err) {
        if (err instanceof UpstreamError) return fail(err);
        throw err;
      }
    },
  });
}
