// The contract every customer-information step implements (customer-information.md §2.3, §4.1): a step
// is a small set of named screens. A screen is one unit: the zod schema of its post, its view, and a
// submit that says what happens next. The page machine (steps.tsx) owns everything screens share: the
// route, the header, the session, the hidden step/screen fields and the stale-post rule, Back over the
// visited screens, dialogs, and the call wrapper of customer-information §7.
//
// To add a screen: one schema, one view, one submit —
//
//   countries: screen({
//     input: z.object({ countries: z.array(z.string()) }),
//     view: (ctx) => <CountriesForm fields={ctx.fields()} … />,
//     async submit(ctx, input) { …; return { kind: 'screen', screen: 'numbers' }; },
//     invalid: (ctx) => again(countriesView(ctx, ctx.t('…required'))),
//   }),
import type { Request } from 'express';
import type { ReactElement } from 'react';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { CustomerInformationProgress, Journey } from '../../journey.ts';
import type { Translate } from '../../../shared/i18n.ts';
import type { StepId } from '../../../shared/contracts/brokerage.ts';
import type { ScreenFieldValues } from '../../../views/components/ScreenForm.tsx';
import type { PersonBrokerage, StepErrorKind } from './calls.ts';

export interface StepContext {
  req: Request;
  deps: AppDeps;
  journey: Journey;
  ci: CustomerInformationProgress;
  t: Translate;
  /** The brokerage calls bound to the person (customer-information §7 call wrapper, calls.ts): no token to pass. */
  brokerage: PersonBrokerage;
  /** The prospect whose page this is. */
  prospectId: string;
  /** Form action every form of the step posts to; the hidden step and screen fields name what it answers. */
  action: string;
  /** Base path of this prospect's page, for links to a screen's own confirmations (e.g. ?remove=…). */
  basePath: string;
  /** The screen being shown, or the one a post answers. */
  screen: string;
  /** The hidden fields of a form of `screen` (default: this screen); a post without them is stale. */
  fields(screen?: string): ScreenFieldValues;
}

/** What a screen's submit did. */
export type ScreenOutcome =
  /** The step is answered: the next step. */
  | { kind: 'finish' }
  /** Another screen of the step (or this one again, re-read from the session). */
  | { kind: 'screen'; screen: string; /** A place on that screen to land at (a URL fragment, e.g. a card's heading). */ fragment?: string }
  /**
   * A view answered to the post itself: the screen again with errors and the input kept. With `screen`,
   * that screen is the current one from now on (e.g. the numbers form under a modal failure dialog).
   */
  | { kind: 'again'; status: number; view: ReactElement; screen?: string; error?: StepErrorKind }
  /** What the header's Back does: the last visited screen, or the previous step (a dialog's cancel). */
  | { kind: 'back' }
  /** Somewhere else (a same-origin path or the external form). */
  | { kind: 'redirect'; url: string }
  /**
   * "Check your answers" (milestone three's Change): re-enter an earlier step; once it is finished, or
   * left by Back from its first screen, the person returns here. The machine refuses a step that is not
   * an earlier one of the list, or cannot be changed (KYC): the screen again, nothing changed.
   */
  | { kind: 'changeStep'; step: StepId };

export interface Screen<Input = unknown> {
  /** The post's own fields (step, screen and _csrf are the machine's; zod objects drop unknown keys). */
  input: z.ZodType<Input>;
  /**
   * A dialog: a modal over one of these screens with JavaScript (its post is then accepted while that
   * screen is shown), a screen of its own without. A dialog is never a Back target.
   */
  dialogOver?: readonly string[];
  view(ctx: StepContext): ReactElement | Promise<ReactElement>;
  submit(ctx: StepContext, input: Input): ScreenOutcome | Promise<ScreenOutcome>;
  /** The answer to a post that does not parse; default: the screen as it stands. */
  invalid?(ctx: StepContext, body: Record<string, unknown>): ScreenOutcome | Promise<ScreenOutcome>;
  /** Whether the screen can be shown now (e.g. a session from before a flag changed); otherwise the step's first. */
  available?(ctx: StepContext): boolean;
  /** While this screen shows, navigation is disabled: no Back, and the header shows the logo instead of progress (customer-information §2.2). */
  busy?: boolean;
  /** The header's Back on this screen, when the screen answers it itself (the KYC question: the previous page): true if it did; otherwise the machine's Back. */
  back?(ctx: StepContext): Promise<boolean>;
}

export interface StepModule {
  id: StepId;
  /** The screen the step opens on. */
  first: string;
  screens: Readonly<Record<string, Screen<never>>>;
  /**
   * A post has just moved the person into the step (forward, or back from the next step), or routing
   * made it the first: e.g. the KYC step starts its run here. Only ever from a post, since it may cost
   * an upstream call.
   */
  enter?(ctx: StepContext): Promise<void>;
  /**
   * For a step whose screen follows something outside the session (the KYC run's state, which the worker
   * writes): the screen to show now, or 'finished' once the step is done. Read by every request; writes
   * nothing (a GET shows the next step, and the next post records the move).
   */
  resolve?(ctx: StepContext): Promise<string | 'finished'>;
  /** Progress points the step has earned so far of its own (the KYC step's 30 over its pages, customer-information §2.2). */
  pointsDone?(ctx: StepContext): number;
}

/** Types a screen by its input schema (the record of screens holds them all). */
export function screen<Input>(definition: Screen<Input>): Screen<never> {
  return definition as unknown as Screen<never>;
}

/** A step of one screen. */
export function singleScreen(id: StepId, name: string, definition: Screen<never>): StepModule {
  return { id, first: name, screens: { [name]: definition } };
}

export const again = (view: ReactElement, status = 400, options: { screen?: string; error?: StepErrorKind } = {}): ScreenOutcome => ({
  kind: 'again',
  status,
  view,
  ...options,
});
export const back: ScreenOutcome = { kind: 'back' };
export const goTo = (screen: string, fragment?: string): ScreenOutcome => ({ kind: 'screen', screen, ...(fragment ? { fragment } : {}) });
export const finish: ScreenOutcome = { kind: 'finish' };
