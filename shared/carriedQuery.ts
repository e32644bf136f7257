// The entry query carried through the journey (identification-routing-creation §3 Onboarding context
// "queryParams"): tracking, campaign and partner values the person arrived with, sent on with the legacy
// signature request (customer-information §3 "Signature request", shared/contracts/legacyContract.ts) and into the
// in-app browser hand-off. One rule for both ends: the start page keeps only what that request can carry —
// the contract's schema is `carriedQueryParams` below — so a value accepted at entry can always be sent, and
// one that could not be never reaches a save.
//
// Choice where the spec is silent: a value over the limits is dropped at entry, not refused. It is someone
// else's tracking or campaign id, never a reason to turn the person away; the caller logs the parameter's name
// and length (never the value).
import { z } from 'zod';

/** The longest parameter name carried. */
export const CARRIED_NAME_MAX = 64;
/** The longest value carried (what the legacy signature request accepts). */
export const CARRIED_VALUE_MAX = 500;
/** How many parameters a journey carries at most, over all its entries. */
export const CARRIED_PARAMS_MAX = 20;

/** Parameters of the identification provider's return: they belong to one attempt, never carried on. */
export const notCarried: ReadonlySet<string> = new Set(['code', 'state', 'error', 'error_description', 'lang']);

export const carriedName = z.string().min(1).max(CARRIED_NAME_MAX);
export const carriedValue = z.string().max(CARRIED_VALUE_MAX);
/** The carried query as the legacy signature request sends it (shared/contracts/legacyContract.ts). */
export const carriedQueryParams = z
  .record(carriedName, carriedValue)
  .refine((params) => Object.keys(params).length <= CARRIED_PARAMS_MAX, { message: `at most ${CARRIED_PARAMS_MAX} query params` });
export type CarriedQueryParams = z.infer<typeof carriedQueryParams>;

export type DroppedReason = 'badName' | 'valueTooLong' | 'notText' | 'tooMany';
/** A parameter left out, for the log line: its name (cut to the name limit), the value's length, why. */
export interface DroppedParam {
  param: string;
  length: number;
  reason: DroppedReason;
}

/**
 * The values carried after an entry: `already` (what the journey carries) updated with the entry's query.
 * Left out: the provider's one-time values (silently), and, in `dropped`, a parameter whose name or value is
 * over its limit, a repeated parameter (a list, not one text), and new parameters past the count limit.
 * Every `kept` parses in `carriedQueryParams` when `already` does.
 */
export function carryQuery(
  query: Readonly<Record<string, unknown>>,
  already: Readonly<CarriedQueryParams> = {},
): { kept: CarriedQueryParams; dropped: DroppedParam[] } {
  const kept = new Map(Object.entries(already));
  const dropped: DroppedParam[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (notCarried.has(name)) continue;
    const length = typeof value === 'string' ? value.length : 0;
    const drop = (reason: DroppedReason) => dropped.push({ param: name.slice(0, CARRIED_NAME_MAX), length, reason });
    if (typeof value !== 'string') drop('notText');
    else if (!carriedName.safeParse(name).success) drop('badName');
    else if (!carriedValue.safeParse(value).success) drop('valueTooLong');
    else if (!kept.has(name) && kept.size >= CARRIED_PARAMS_MAX) drop('tooMany');
    else kept.set(name, value);
  }
  // fromEntries defines own properties, so even a parameter named __proto__ stays a plain value.
  return { kept: Object.fromEntries(kept), dropped };
}
