// The page machine's rules (customer-information.md §2.3): which post a screen accepts, where Back leads,
// what is remembered for Back when a step moves between its screens, and how the progress moves between
// steps (next, Back, a Change from milestone three's summary, the legacy form). Pure: they touch only the
// progress they are given; server/stages/customerInformation/customerInformationPage.tsx applies them to the
// session.
import { z } from 'zod';
import type { StepId } from './contracts/brokerageContract.ts';
import { changeTarget, stepAfter, stepBefore, withLegacyForm } from './customerInformationStepList.ts';

/** What the machine knows of a step's screens: their names, and for a dialog the screens it opens over. */
export interface ScreenMap<S extends string = string> {
  first: S;
  screens: Readonly<Record<S, { dialogOver?: readonly S[] }>>;
}

/** A name read from a post or the session is one of the step's screens (not an inherited property such as `__proto__`). */
export function isScreenOf<S extends string>(step: ScreenMap<S>, name: string): name is S {
  return Object.hasOwn(step.screens, name);
}

/**
 * The stale-post rule: a post answers the screen shown, or a dialog that opens over the screen shown
 * (with JavaScript it is a modal there). Anything else (another step, another screen, an unknown name)
 * comes from a stale tab or a double submit and is refused.
 */
export function acceptsPost<S extends string>(step: ScreenMap<S>, shown: string, posted: string): posted is S {
  if (!isScreenOf(step, posted)) return false;
  return posted === shown || (step.screens[posted]?.dialogOver?.some((under) => under === shown) ?? false);
}

/**
 * The screens visited before `target` after moving from `from`: the screen left is remembered, unless it
 * is a dialog (a dialog is never a Back target) or the same screen; moving to a screen seen before
 * forgets everything after it, so Back never loops.
 */
export function visitedAfterMove(step: ScreenMap, visited: readonly string[], from: string, target: string): string[] {
  const seen = visited.indexOf(target);
  if (seen >= 0) return visited.slice(0, seen);
  if (target === from || (isScreenOf(step, from) && step.screens[from]?.dialogOver)) return [...visited];
  return [...visited, from];
}

/** Back within the step: the last visited screen, or null when Back leaves the step. */
export function backWithinStep(visited: readonly string[]): { screen: string; visited: string[] } | null {
  if (visited.length === 0) return null;
  return { screen: visited.at(-1)!, visited: visited.slice(0, -1) };
}

// --- the progress between steps ------------------------------------------------------------------------

/** What the machine keeps of the person's progress (server/journey.ts CustomerInformationProgress); A: the answers per step. */
export interface PageProgress<A extends object> {
  steps: StepId[];
  /** Index of the current step in steps. */
  current: number;
  /** The step's current screen (unset: its first) and the screens visited before it, for Back. */
  screen?: string;
  visited?: string[];
  /** While a step is re-entered from milestone three's Change: the summary's index, and the step's answers as they were. */
  returnTo?: number;
  returnAnswers?: Partial<A>;
  answers?: Partial<A>;
}

/** Into another step (its first screen, nothing visited). */
function enterStep<A extends object>(p: PageProgress<A>, index: number): void {
  p.current = index;
  delete p.screen;
  p.visited = [];
}

/** Moves to the next step (its first screen), or back to milestone three's summary when a Change re-entered the step. */
export function advance<A extends object>(p: PageProgress<A>): void {
  const next = stepAfter(p.steps, p.current, p.returnTo);
  delete p.returnTo;
  delete p.returnAnswers;
  enterStep(p, next);
}

/**
 * Re-enters an earlier step from milestone three's summary (its Change), keeping the answers the step
 * keeps (`answersOf`: the key of its answers, if any) to put back should the change be left unfinished.
 * False when the step cannot be changed from here (changeTarget: not an earlier step, or KYC).
 */
export function changeStep<A extends object>(p: PageProgress<A>, step: string, answersOf: (step: StepId) => keyof A | undefined): boolean {
  const target = changeTarget(p.steps, p.current, step);
  if (target === null) return false;
  const key = answersOf(p.steps[target]!);
  const kept: Partial<A> = {};
  if (key !== undefined) kept[key] = structuredClone(p.answers?.[key]);
  p.returnAnswers = kept;
  p.returnTo = p.current;
  enterStep(p, target);
  return true;
}

/** Puts a step's kept answers back (an answer that was absent is removed again). */
export function restoreAnswers<A extends object>(p: PageProgress<A>, kept: Partial<A>): void {
  const answers: Partial<A> = (p.answers ??= {});
  for (const key of Object.keys(kept) as (keyof A)[]) {
    if (kept[key] === undefined) delete answers[key];
    else answers[key] = kept[key];
  }
}

/**
 * Back: the last visited screen of the step, else from its first screen the previous step, or milestone
 * three's summary when a Change re-entered the step (its answers as they were). Answers whether the step changed.
 */
export function goBack<A extends object>(p: PageProgress<A>): boolean {
  const within = backWithinStep(p.visited ?? []);
  if (within) {
    p.screen = within.screen;
    p.visited = within.visited;
    return false;
  }
  const before = stepBefore(p.steps, p.current, p.returnTo);
  if (before === null) return false;
  if (p.returnTo !== undefined && before === p.returnTo && p.returnAnswers) restoreAnswers(p, p.returnAnswers);
  delete p.returnTo;
  delete p.returnAnswers;
  enterStep(p, before);
  return true;
}

/** Moves to `target` within the step, remembering for Back what visitedAfterMove says. A name the step lacks is a defect of the step. */
export function moveTo<A extends object>(step: ScreenMap & { id: string }, p: PageProgress<A>, from: string, target: string): void {
  if (!isScreenOf(step, target)) throw new Error(`${step.id} has no screen ${target}`);
  p.visited = visitedAfterMove(step, p.visited ?? [], from, target);
  p.screen = target;
}

// customer-information §2.1: ?shouldUseLegacyFlow=true selects the legacy single form (the legacy form's own action carries it too).
const legacyQuery = z.object({ shouldUseLegacyFlow: z.literal('true') });

/** The query asks for the legacy single form: it becomes the current step (shared/customerInformationStepList.ts withLegacyForm). */
export function selectLegacyForm<A extends object>(p: PageProgress<A>, query: unknown): void {
  if (!legacyQuery.safeParse(query).success || p.steps[p.current] === 'EXISTING_STEP') return;
  const selected = withLegacyForm(p.steps, p.current);
  p.steps = selected.steps;
  enterStep(p, selected.current);
}
