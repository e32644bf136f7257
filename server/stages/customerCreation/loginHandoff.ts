// How a created customer arrives logged in on the bank's site (identification-routing-creation §4 "Customer creation"):
// the worker's login call answers a one-time, short-lived hand-off code (server/infra/loginHandoffs.ts keeps it,
// sealed); Continue, the person's post, sends the browser to the bank site's hand-off address with the code and the
// final target as a return path there. The site redeems the code once and moves on, so the address lives for one
// redirect. A target off the bank site's origin cannot carry its login: it gets no hand-off, and the code lapses.

/** Where the bank's site takes hand-offs: BANK_SITE_HANDOFF_PATH on BANK_SITE_URL's origin, as every path of the bank's site (server/config.ts). */
export function bankSiteHandoffUrl(config: { BANK_SITE_URL: string; BANK_SITE_HANDOFF_PATH: string }): string {
  return new URL(config.BANK_SITE_HANDOFF_PATH, new URL(config.BANK_SITE_URL).origin).href;
}

/**
 * The bank site's address for the hand-off of `code`, going on to `target` (continueTarget's: clientUrl sanitised as
 * §4 "Redirect sanitising" says, else the market's success or overview URL); null when `target` is not on the bank's
 * site: neither a path (one leading slash; a path belongs to the bank's site) nor an address on its origin.
 */
export function handoffAddress(target: string, code: string, bankSiteHandoffUrl: string): string | null {
  const returnTo = returnPathOnBankSite(target, new URL(bankSiteHandoffUrl).origin);
  if (returnTo === null) return null;
  const address = new URL(bankSiteHandoffUrl);
  address.searchParams.set('code', code);
  address.searchParams.set('returnTo', returnTo);
  return address.href;
}

/** `target` as a path on the bank site (`origin`): a path as it is, an address of that origin as its path; else null. */
export function returnPathOnBankSite(target: string, origin: string): string | null {
  if (/^\/(?![/\\])/.test(target)) return target;
  if (!URL.canParse(target)) return null;
  const url = new URL(target);
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
}
