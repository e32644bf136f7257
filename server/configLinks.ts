// The links the pages send people to (server/config.ts). The routes the spec names as targets (identification-routing-creation
// §2: /, Overview, FAQ, /login-next; §4 the success URL and the get-started page) are the bank's site, not the onboarding's:
// on our own origin a path is no route and only bounces to the start page. So a link configured as a path, and an entry's
// clientUrl once sanitised (shared/redirectTarget.ts), resolve on BANK_SITE_URL's origin.
import { z } from 'zod';
import type { PerMarket } from '../shared/markets.ts';

/** A link the pages send people to: an absolute http(s) URL, or a path (one leading slash) of the bank's site (BANK_SITE_URL). */
export const link = z
  .string()
  .refine(
    (v) => (/^https?:\/\//i.test(v) && URL.canParse(v)) || /^\/(?![/\\])[^\s\\]*$/.test(v),
    "an absolute http(s) URL such as https://www.example.se/kom-igang, or a path of the bank's site (BANK_SITE_URL) such as /kom-igang",
  );

/** BANK_SITE_URL: the bank's public site, an http(s) URL whose origin the links given as paths resolve on (the sandbox by default). */
export const bankSiteUrl = z
  .string()
  .url()
  .default('http://127.0.0.1:3001')
  .refine((v) => !URL.canParse(v) || /^https?:$/.test(new URL(v).protocol), "BANK_SITE_URL is the bank's site, an http(s) URL such as https://www.example.se");

/** A path of a site (one leading slash, nothing that could make it another origin). */
export const sitePath = z.string().regex(/^\/(?![/\\])[\w.~!$&'()*+,;=:@%/-]*$/, 'a path such as /login/handoff');

/**
 * Placeholder defaults of the per-market links: outside pages of each market's public site, clearly examples, so
 * that none leads back into the journey (a path of ours that is not a route redirects to the start page).
 */
export const marketLinkDefaults = {
  /** identification-routing-creation §4 "Redirect sanitising": the country's get-started page. */
  GET_STARTED_URL: {
    SE: 'https://www.example.se/kom-igang',
    NO: 'https://www.example.no/kom-i-gang',
    DK: 'https://www.example.dk/kom-i-gang',
    FI: 'https://www.example.fi/aloita',
  },
  /** identification-routing-creation §2 route FAQ: the footer's and the creation screens' FAQ link. */
  FAQ_URL: {
    SE: 'https://www.example.se/fragor-och-svar',
    NO: 'https://www.example.no/sporsmal-og-svar',
    DK: 'https://www.example.dk/spoergsmaal-og-svar',
    FI: 'https://www.example.fi/usein-kysyttya',
  },
} as const satisfies Record<string, PerMarket<string>>;

/** A configured link as the browser is sent to it: a path (the `link` rule: one leading slash) on the bank's site, an absolute URL as given. */
export function onBankSite(bankSiteUrl: string, value: string): string {
  return value.startsWith('/') ? `${new URL(bankSiteUrl).origin}${value}` : value;
}

/** 127.0.0.1, ::1, localhost and *.localhost: hosts that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}
