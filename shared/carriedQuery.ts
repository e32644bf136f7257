// The entry query carried through the journey (identification-routing-creation §3 "queryParams"): tracking, campaign
// and partner values the person arrived with, sent on with the legacy signature request (customer-information §3) and
// into the in-app browser hand-off. One rule for both ends: the start page keeps only what that request can carry
// (`carriedQueryParams`, the contract's schema), so a value accepted at entry can always be sent. A value over the limits
// is dropped, not refused (docs/decisions.md "The carried entry query").
import { z } from 'zod';

/** The longest parameter name carried. */
export const CARRIED_NAME_MAX = 64;
/** The longest value carried (what the legacy signature request accepts). */
export const CARRIED_VALUE_MAX = 500;
/** How many parameters a journey carries at most, over all its entries. */
export const CARRIED_PARAMS_MAX = 20;

/** Parameters of the identification provider's return: they belong to one attempt, never carried on. */
export const notCarried: ReadonlySet<string> = new Set(['code', 'state', 'error', 'error_description', 'lang']);

/**
 * Entry parameters with a meaning of their own (identification-routing-creation §2 Onboarding query), carried only in
 * their own shape. Our choice where the spec is silent: clientId is a partner's or app's opaque id, which the creation
 * tracking event names (shared/creationJobContract.ts), so a short token; epk=true preselects the Norwegian pension
 * account in the account picker (shared/accountPicker.ts initialAccounts). clientUrl stays as given, up to the value
 * limit: it is a redirect target, checked where it is used (shared/redirectTarget.ts), so a rejected one still leads
 * to the market's get-started page rather than being forgotten.
 */
export const entryParamShapes = {
  clientId: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  epk: z.enum(['true', 'false']),
} as const;

export const carriedName = z.string().min(1).max(CARRIED_NAME_MAX);
export const carriedValue = z.string().max(CARRIED_VALUE_MAX);
/** The carried query as the legacy signature request sends it (shared/contracts/legacyContract.ts). */
export const carriedQueryParams = z
  .record(carriedName, carriedValue)
  .refine((params) => Object.keys(params).length <= CARRIED_PARAMS_MAX, { message: `at most ${CARRIED_PARAMS_MAX} query params` });
export type CarriedQueryParams = z.infer<typeof carriedQueryParams>;

export type DroppedReason = 'badName' | 'valueTooLong' | 'notText' | 'tooMany' | 'badValue';
/** A parameter left out, for the log line: its name (cut to the name limit), the value's length, why. */
export interface DroppedParam {
  param: string;
  length: number;
  reason: DroppedReason;
}

/**
 * The values carried after an entry: `already` (what the journey carries) updated with the entry's query.
 * Left out: the provider's one-time values (silently), and, in `dropped`, a parameter whose name or value is
 * over its limit, a clientId or epk not in its shape (entryParamShapes), a repeated parameter (a list, not one
 * text), and new parameters past the count limit.
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
    else if (Object.hasOwn(entryParamShapes, name) && !entryParamShapes[name as keyof typeof entryParamShapes].safeParse(value).success) drop('badValue');
    else if (!kept.has(name) && kept.size >= CARRIED_PARAMS_MAX) drop('tooMany');
    else kept.set(name, value);
  }
  // fromEntries defines own properties, so even a parameter named __proto__ stays a plain value.
  return { kept: Object.fromEntries(kept), dropped };
}
