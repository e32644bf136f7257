// How a created customer arrives logged in on the bank's site (identification-routing-creation §4 "Customer creation":
// "create a login session unless in a webview … on done redirect to the success URL"). The worker's login call answers a
// one-time, short-lived hand-off code (server/infra/loginHandoffs.ts keeps it, sealed); Continue, a post from the
// person's click, sends the browser to the bank site's hand-off address with the code and the final target as a return
// path on that site. The bank's site redeems the code once with the brokerage, keeps the login in its own session and
// moves on to the return path, so the address with the code lives for one redirect only.
//
// The final target (continueTarget: clientUrl sanitised as §4 "Redirect sanitising" says, else the market's success or
// overview URL) becomes the return path when it is a path (one leading slash; a path belongs to the bank's site) or an
// address on the bank site's origin. A target elsewhere cannot carry the bank site's login: the browser goes there
// without a hand-off, and the unused code lapses.

/** Where the bank's site takes hand-offs: BANK_SITE_HANDOFF_PATH on BANK_SITE_URL's origin, as every path of the bank's site (server/config.ts). */
export function bankSiteHandoffUrl(config: { BANK_SITE_URL: string; BANK_SITE_HANDOFF_PATH: string }): string {
  return new URL(config.BANK_SITE_HANDOFF_PATH, new URL(config.BANK_SITE_URL).origin).href;
}

/** The bank site's address for the hand-off of `code`, going on to `target`; null when `target` is not on the bank's site. */
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
