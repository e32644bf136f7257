// One application per person: the simulated brokerage keeps a person's unfinished prospect (not signed) for a while
// after it was last saved to, and prospect creation answers it again instead of a new one (brokerageContract.ts
// createProspectResponse). The keep time is a sandbox option (SANDBOX_PROSPECT_KEEP_DAYS; 0 keeps none).
import type { Prospect, SandboxContext } from './state.ts';

export const DEFAULT_PROSPECT_KEEP_DAYS = 90;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Epoch ms until which the prospect is kept for its person to carry on. */
export const keptUntil = (ctx: SandboxContext, prospect: Prospect): number => prospect.savedAt + ctx.prospectKeepMs;

/** The person's unfinished prospect of the flow (v3 step flow or v2 legacy form) still kept, the latest saved to; else undefined. */
export function unfinishedProspectOf(ctx: SandboxContext, nationalId: string, legacy: boolean): Prospect | undefined {
  const now = ctx.now();
  return [...ctx.state.prospects.values()]
    .filter((p) => p.owner.nationalId === nationalId && p.legacy === legacy && !p.signed && keptUntil(ctx, p) > now)
    .sort((a, b) => a.savedAt - b.savedAt)
    .at(-1);
}

/** The start option of SANDBOX_PROSPECT_KEEP_DAYS (days, 0 or more, fractions allowed); none when it is unset. */
export function keepDaysOption(env: Readonly<Record<string, string | undefined>>): { prospectKeepDays?: number } {
  const value = env.SANDBOX_PROSPECT_KEEP_DAYS;
  if (value === undefined || value === '') return {};
  const days = Number(value);
  if (!Number.isFinite(days) || days < 0) throw new Error(`SANDBOX_PROSPECT_KEEP_DAYS must be a number of days, 0 or more (got ${value})`);
  return { prospectKeepDays: days };
}
