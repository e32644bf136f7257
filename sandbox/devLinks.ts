// What `npm start` (sandbox/devServer.ts) points the web at, unless the environment says otherwise: every
// upstream is the sandbox, and the links that leave the journey in production (the public site's home behind the
// logo and ×, log in, FAQ, privacy, the overview after creation and the bank's site the created customer is logged in to, the app after creation, the get-started page instead of a rejected return address) lead to the sandbox's stand-in pages (sandbox/pages.ts), which say what would be there.
import { BANK_SITE_HANDOFF_PATH } from './bankSite.ts';

export function devServerLinks(sandboxUrl: string): Record<string, string> {
  return {
    BANKID_API_URL: sandboxUrl,
    BROKERAGE_API_URL: sandboxUrl,
    SIGNING_ORIGINS: sandboxUrl,
    OIDC_ISSUER_URL: `${sandboxUrl}/oidc`,
    SUCCESS_URL: `${sandboxUrl}/sandbox/overview`,
    // The sandbox stands in for the bank's site: a link or clientUrl given as a path resolves there.
    BANK_SITE_URL: sandboxUrl,
    BANK_SITE_HANDOFF_PATH,
    HOME_URL: `${sandboxUrl}/sandbox/home`,
    LOGIN_URL: `${sandboxUrl}/sandbox/login`,
    FAQ_URL: `${sandboxUrl}/sandbox/faq`,
    GET_STARTED_URL: `${sandboxUrl}/sandbox/get-started`,
    PRIVACY_URL: `${sandboxUrl}/sandbox/privacy`,
    APP_URL: `${sandboxUrl}/sandbox/app`,
  };
}
