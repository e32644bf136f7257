// Pure rules of the onboarding page shell (identification-routing-creation §2 "Onboarding page shell", §9): which signup image a
// campaign gets, and which unique-selling points are shown.

/** Campaign types (identification-routing-creation §3); anything else gets the default image. */
export const campaigns = ['level-up', 'ask'] as const;
export type Campaign = (typeof campaigns)[number];

export type SignupImage = 'signup_level-up' | 'signup_ask' | 'signup_page2';

export function campaignOf(value: unknown): Campaign | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  return (campaigns as readonly string[]).includes(v) ? (v as Campaign) : undefined;
}

/** The image of the signup panel: level-up, ask (the spec's "ASK", any case) or the default signup_page2. */
export function signupImageFor(campaign: unknown): SignupImage {
  const c = campaignOf(campaign);
  if (c === 'level-up') return 'signup_level-up';
  if (c === 'ask') return 'signup_ask';
  return 'signup_page2';
}

/** identification-routing-creation §9: up to 9 unique-selling-point items. */
export const MAX_USP_ITEMS = 9;

/**
 * The unique-selling points to show, in catalogue order: at most 9, and an item whose text is N/A
 * (how a market switches an item off in its locale file) or empty is hidden.
 */
export function visibleUsps(texts: readonly string[]): string[] {
  return texts
    .slice(0, MAX_USP_ITEMS)
    .map((t) => t.trim())
    .filter((t) => t !== '' && t.toUpperCase() !== 'N/A');
}
