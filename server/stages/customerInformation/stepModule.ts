// The contract every customer-information step implements (customer-information §2.3, §4.1): a step is a set of named
// screens, each its post's zod schema, its view and a submit that says what happens next. The page machine
// (customerInformationPage.tsx) owns what screens share: route, header, session, stale-post rule, Back, dialogs and
// the call wrapper of §7. A step names its screens once as a union type and takes its helpers from stepOf, so the
// compiler checks every screen name written (docs/customerInformation.md shows how to add a screen).
import type { Request } from 'express';
import type { ReactElement } from 'react';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { CustomerInformationProgress, Journey, StepAnswers } from '../../journey.ts';
import type { Translate } from '../../../shared/i18n.ts';
import type { StepId } from '../../../shared/contracts/brokerageContract.ts';
import type { ScreenFieldValues } from '../../../views/components/ScreenForm.tsx';
import type { PersonBrokerage, StepErrorKind } from './calls.ts';

export interface StepContext<S extends string> {
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
  screen: S;
  /** The hidden fields of a form of `screen` (default: this screen); a post without them is stale. */
  fields(screen?: S): ScreenFieldValues;
}

/** What a screen's submit did. */
export type ScreenOutcome<S extends string> =
  /** The step is answered: the next step. */
  | { kind: 'finish' }
  /** Another screen of the step (or this one again, re-read from the session). */
  | { kind: 'screen'; screen: S; /** A place on that screen to land at (a URL fragment, e.g. a card's heading). */ fragment?: string }
  /**
   * A view answered to the post itself: the screen again with errors and the input kept. With `screen`,
   * that screen is the current one from now on (e.g. the numbers form under a modal failure dialog).
   */
  | { kind: 'again'; status: number; view: ReactElement; screen?: S; error?: StepErrorKind }
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

/** What a screen is besides its post: the same as the step writes it and as the machine holds it. */
interface ScreenShared<S extends string> {
  /**
   * A dialog: a modal over one of these screens with JavaScript (its post is then accepted while that
   * screen is shown), a screen of its own without. A dialog is never a Back target.
   */
  dialogOver?: readonly S[];
  view(ctx: StepContext<S>): ReactElement | Promise<ReactElement>;
  /** Whether the screen can be shown now (e.g. a session from before a flag changed); otherwise the step's first. */
  available?(ctx: StepContext<S>): boolean;
  /** While this screen shows, navigation is disabled: no Back, and the header shows the logo instead of progress (customer-information §2.2). */
  busy?: boolean;
  /** The header's Back on this screen, when the screen answers it itself (the KYC question: the previous page): true if it did; otherwise the machine's Back. */
  back?(ctx: StepContext<S>): Promise<boolean>;
}

/** A screen as a step writes it: typed by its input schema. */
export interface ScreenDefinition<Input, S extends string> extends ScreenShared<S> {
  /** The post's own fields (step, screen and _csrf are the machine's; zod objects drop unknown keys). */
  input: z.ZodType<Input>;
  submit(ctx: StepContext<S>, input: Input): ScreenOutcome<S> | Promise<ScreenOutcome<S>>;
  /** The answer to a post that does not parse; default: the screen as it stands. */
  invalid?(ctx: StepContext<S>, body: Record<string, unknown>): ScreenOutcome<S> | Promise<ScreenOutcome<S>>;
}

/** A screen as the machine holds it: its schema, submit and invalid in one `answer`, so its input type stays inside. */
export interface Screen<S extends string> extends ScreenShared<S> {
  /** The post parsed by the screen's schema and submitted; null when it does not parse and the screen has no `invalid`. */
  answer(ctx: StepContext<S>, body: Record<string, unknown>): Promise<ScreenOutcome<S> | null>;
}

export interface StepModule<S extends string = string> {
  id: StepId;
  /** The screen the step opens on (and Back from the next step returns to). */
  first: S;
  screens: Readonly<Record<S, Screen<S>>>;
  /** Where in StepAnswers the step keeps its answers, for a step milestone three's Change can re-enter: put back when the change is left unfinished. */
  answers?: keyof StepAnswers;
  /**
   * A post has just moved the person into the step (forward, or back from the next step), or routing
   * made it the first: e.g. the KYC step starts its run here. Only ever from a post, since it may cost
   * an upstream call.
   */
  enter?(ctx: StepContext<S>): Promise<void>;
  /**
   * For a step whose screen follows something outside the session (the KYC run's state, which the worker
   * writes): the screen to show now, or 'finished' once the step is done. Read by every request; writes
   * nothing (a GET shows the next step, and the next post records the move).
   */
  resolve?(ctx: StepContext<S>): Promise<S | 'finished'>;
  /** Progress points the step has earned so far of its own (the KYC step's 30 over its pages, customer-information §2.2). */
  pointsDone?(ctx: StepContext<S>): number;
}

/** Any step, as the registry and the machine hold it: its screen names are read from the session and checked against `screens`. */
export type AnyStep = StepModule<string>;

function screenOf<Input, S extends string>({ input, submit, invalid, ...shared }: ScreenDefinition<Input, S>): Screen<S> {
  return {
    ...shared,
    async answer(ctx, body) {
      const parsed = input.safeParse(body);
      if (parsed.success) return submit(ctx, parsed.data);
      return invalid ? invalid(ctx, body) : null;
    },
  };
}

/** The helpers of a step whose screens are named S: each accepts those names only. */
export function stepOf<S extends string>() {
  return {
    /** The step: its first screen and exactly one screen per name. */
    defineStep: (step: StepModule<S>): StepModule<S> => step,
    /** A screen typed by its input schema. */
    screen: <Input>(definition: ScreenDefinition<Input, S>): Screen<S> => screenOf(definition),
    goTo: (screen: S, fragment?: string): ScreenOutcome<S> => ({ kind: 'screen', screen, ...(fragment ? { fragment } : {}) }),
    again: (view: ReactElement, status = 400, options: { screen?: S; error?: StepErrorKind } = {}): ScreenOutcome<S> => ({
      kind: 'again',
      status,
      view,
      ...options,
    }),
  };
}

export const back = { kind: 'back' } as const satisfies ScreenOutcome<never>;
export const finish = { kind: 'finish' } as const satisfies ScreenOutcome<never>;
