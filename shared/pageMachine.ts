// The page machine's rules (customer-information.md §2.3): which post a screen accepts, where Back leads,
// and what is remembered for Back when a step moves between its screens. Pure: the machine in
// server/stages/customerInformation/steps.tsx applies them to the session.

/** What the machine knows of a step's screens: their names, and for a dialog the screens it opens over. */
export interface ScreenMap {
  first: string;
  screens: Readonly<Record<string, { dialogOver?: readonly string[] }>>;
}

/**
 * The stale-post rule: a post answers the screen shown, or a dialog that opens over the screen shown
 * (with JavaScript it is a modal there). Anything else (another step, another screen, an unknown name)
 * comes from a stale tab or a double submit and is refused.
 */
export function acceptsPost(step: ScreenMap, shown: string, posted: string): boolean {
  if (!Object.hasOwn(step.screens, posted)) return false;
  return posted === shown || (step.screens[posted]!.dialogOver?.includes(shown) ?? false);
}

/**
 * The screens visited before `target` after moving from `from`: the screen left is remembered, unless it
 * is a dialog (a dialog is never a Back target) or the same screen; moving to a screen seen before
 * forgets everything after it, so Back never loops.
 */
export function visitedAfterMove(step: ScreenMap, visited: readonly string[], from: string, target: string): string[] {
  const seen = visited.indexOf(target);
  if (seen >= 0) return visited.slice(0, seen);
  if (target === from || step.screens[from]?.dialogOver) return [...visited];
  return [...visited, from];
}

/** Back within the step: the last visited screen, or null when Back leaves the step. */
export function backWithinStep(visited: readonly string[]): { screen: string; visited: string[] } | null {
  if (visited.length === 0) return null;
  return { screen: visited.at(-1)!, visited: visited.slice(0, -1) };
}
