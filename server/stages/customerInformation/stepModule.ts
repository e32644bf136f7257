// The contract every customer-information step implements (customer-information.md §2.3, §4.1). The
// page (steps.tsx) owns the route, the header, the session and the call wrapper of §7; a step module
// only renders its current sub-step and handles a post of its own form.
import type { Request } from 'express';
import type { ReactElement } from 'react';
import type { AppDeps } from '../../deps.ts';
import type { CustomerInformationProgress, Journey } from '../../journey.ts';
import type { Translate } from '../../../shared/i18n.ts';
import type { StepId } from '../../../shared/contracts/brokerage.ts';

export interface StepContext {
  req: Request;
  deps: AppDeps;
  journey: Journey;
  ci: CustomerInformationProgress;
  t: Translate;
  /** The person's access token for brokerage calls (the current one: the call wrapper may refresh it). */
  jwt: string;
  /** Form action every form of the step posts to; the body's `step` field names the step. */
  action: string;
  /** Base path of this prospect's page, for links to a step's own sub-pages (dialogs without JS). */
  basePath: string;
}

/** What a post did: finish the step, move within it, show it again (with errors, input kept), or leave. */
export type StepOutcome =
  | { kind: 'advance' }
  | { kind: 'subStep'; subStep: number }
  | { kind: 'render'; status: number; view: ReactElement }
  | { kind: 'redirect'; url: string };

export interface StepModule {
  id: StepId;
  /** The current sub-step (ci.subStep) as a form; reads earlier answers from ci.answers. */
  view(ctx: StepContext): ReactElement | Promise<ReactElement>;
  /**
   * Handles a post of the step's form. `body` is the raw urlencoded body (or multipart fields): the
   * module parses it with its own zod schema. Upstream failures may throw UpstreamError: the page maps
   * 401/403 to SESSION_EXPIRED_ERROR and anything else to TRY_AGAIN_ERROR (§7). An expired access token
   * never reaches the module: the page's call wrapper (calls.ts) refreshes it and repeats the call.
   */
  submit(ctx: StepContext, body: Record<string, unknown>): Promise<StepOutcome>;
  /** Back within the step: the previous sub-step, or null to go to the previous step. Default null. */
  back?(ctx: StepContext): number | null;
}
