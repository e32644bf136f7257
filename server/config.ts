// Configuration is parsed once at start-up; a bad value stops the process with a clear message.
import { z } from 'zod';
import { LOADER_SLOW_AFTER_MS } from '../shared/kyc.ts';
import type { CountryCode } from '../shared/contracts/brokerageContract.ts';
import { supportedLocales } from '../shared/i18n.ts';
import type { PerMarket } from '../shared/markets.ts';
import { redisTarget, redisTargetIssues, type RedisTarget } from './infra/redisTarget.ts';
import { bankSiteUrl, isLoopbackHost, link, marketLinkDefaults, onBankSite, sitePath } from './configLinks.ts';

export { isLoopbackHost, marketLinkDefaults };

const SANDBOX_OIDC_CLIENT_SECRET = 'sandbox-only-client-secret-not-for-production';
// Development only: fixed so sessions and sealed job secrets survive a restart; refused where they would be shared.
const DEVELOPMENT_SESSION_SECRET = 'development-only-session-secret-0123456789';
const DEVELOPMENT_JOB_SECRET_KEY = Buffer.alloc(32, 'development-only-job-secret-key!');
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const url = z.string().url();
/** A phone number as shown to people: an international prefix, then digits with single spaces or hyphens. */
const supportPhone = z.string().regex(/^\+\d{1,3}(?:[ -]?\d){4,14}$/, 'a phone number such as +46 8 000 000 00');
const markets = ['SE', 'NO', 'DK', 'FI'] as const;

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    PUBLIC_URL: url.optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** One node's redis:// or rediss:// URL; with REDIS_CLUSTER, one or more seed nodes of a Redis Cluster, comma separated. */
    REDIS_URL: z.string().optional(),
    REDIS_CLUSTER: bool.default(false),
    REDIS_PREFIX: z
      .string()
      .regex(/^[a-z0-9_-]+$/i)
      .default('onboarding'),
    SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
    SESSION_TTL_MINUTES: z.coerce.number().int().positive().default(30),
    BANKID_API_URL: url.default('http://127.0.0.1:3001'),
    BANKID_CERT_PATH: z.string().optional(),
    BANKID_KEY_PATH: z.string().optional(),
    BANKID_CA_PATH: z.string().optional(),
    BROKERAGE_API_URL: url.default('http://127.0.0.1:3001'),
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    /** Overall deadline of a request the person waits on: its upstream calls and their retries share it. */
    REQUEST_DEADLINE_MS: z.coerce.number().int().positive().default(15_000),
    /** Each Redis command gives up after this long (sessions, locks, events): Redis down answers 503 fast. */
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(1000),
    /** How long a request waits for its session's lock (another request of the person still runs) before it is refused with "try again". */
    SESSION_LOCK_WAIT_MS: z.coerce.number().int().positive().default(10_000),
    /** AES-256-GCM key (base64 or hex of 32 bytes) for the secrets a creation job needs (the refresh token). */
    JOB_SECRET_KEY: z
      .string()
      .refine((v) => decodeKey(v) !== null, 'JOB_SECRET_KEY is 32 bytes as base64 (44 characters) or hex (64 characters)')
      .optional(),
    /** BankID orders started per client IP and per session, per minute (each order costs the bank). */
    BANKID_STARTS_PER_IP_PER_MINUTE: z.coerce.number().int().positive().default(30),
    BANKID_STARTS_PER_SESSION_PER_MINUTE: z.coerce.number().int().positive().default(5),
    /** Origins the browser may be sent to by a form post (the signing service). */
    SIGNING_ORIGINS: z.string().default('http://127.0.0.1:3001'),
    /** The bank's public site: configured links given as paths and an entry's clientUrl resolve on its origin (configLinks.ts). */
    BANK_SITE_URL: bankSiteUrl,
    SUCCESS_URL: link.default('http://127.0.0.1:3001/sandbox/overview'),
    /** Where a created customer of the market continues (identification-routing-creation §4); SUCCESS_URL when unset. */
    SUCCESS_URL_SE: link.optional(),
    SUCCESS_URL_NO: link.optional(),
    SUCCESS_URL_DK: link.optional(),
    SUCCESS_URL_FI: link.optional(),
    /** The bank site's hand-off address (a path on its origin): redeems `code` once, goes on to `returnTo` (loginHandoff.ts). */
    BANK_SITE_HANDOFF_PATH: sitePath.default('/login/handoff'),
    /**
     * identification-routing-creation §4: Continue for an outcome that allows log-in, other than done, goes to the
     * overview (route Overview) when the entry gave no clientUrl; per market, else OVERVIEW_URL, else the success URL.
     */
    OVERVIEW_URL: link.optional(),
    OVERVIEW_URL_SE: link.optional(),
    OVERVIEW_URL_NO: link.optional(),
    OVERVIEW_URL_DK: link.optional(),
    OVERVIEW_URL_FI: link.optional(),
    /** The market's get-started page, where a rejected redirect target leads instead; per market, else GET_STARTED_URL, else a placeholder. */
    GET_STARTED_URL: link.optional(),
    GET_STARTED_URL_SE: link.optional(),
    GET_STARTED_URL_NO: link.optional(),
    GET_STARTED_URL_DK: link.optional(),
    GET_STARTED_URL_FI: link.optional(),
    /**
     * "Start using the app" on the done screen (identification-routing-creation §2 "Customer creation screens"; never shown
     * in the app's own webview): a universal link (iOS) / app link (Android) that opens the app when installed and its
     * store page otherwise. The default is a placeholder test link; set the real one per environment.
     */
    APP_URL: url.default('https://app.example.com/open'),
    DEFAULT_COUNTRY: z.enum(['SE', 'NO', 'DK', 'FI']).default('SE'),
    /** Market per host name, e.g. `onboarding.example.dk=DK,dk.localhost=DK`; other hosts get DEFAULT_COUNTRY. */
    /** Language before the visitor picks one: `market` (sv-SE on the Swedish site, …) or a fixed locale. */
    DEFAULT_LOCALE: z.enum(['market', ...supportedLocales]).default('market'),
    COUNTRY_HOSTS: z
      .string()
      .regex(/^([a-z0-9.-]+=(SE|NO|DK|FI))(,[a-z0-9.-]+=(SE|NO|DK|FI))*$/i, 'COUNTRY_HOSTS is a list of host=SE|NO|DK|FI pairs separated by commas')
      .default('se.localhost=SE,no.localhost=NO,dk.localhost=DK,fi.localhost=FI'),
    FLAG_KYC_V3_STEP: bool.default(false),
    /** KYC feature (customer-information.md §4.1): off removes the milestones and KYC and uses the legacy single form. */
    FLAG_KYC: bool.default(true),
    /** Residency feature (customer-information §4.1): off removes the residency step. */
    FLAG_RESIDENCY: bool.default(true),
    /** Citizenship deviations (customer-information §6): off asks only the choice, sent in the older variant (citizenOutsideOfTld). */
    FLAG_CITIZENSHIP_DEVIATIONS: bool.default(true),
    /** Tax-residence feature (customer-information.md §2.3, §5): proof of tax residence and the residence country. */
    FLAG_TAX_RESIDENCE: bool.default(false),
    /** customer-information §4.8: back from signing (the page visible again, or "I have signed"), a customer-creation check. */
    FLAG_RETRY_SIGNUP_SIGNING: bool.default(true),
    /**
     * How long a signing order handed out is re-opened by Sign (customer-information §4.8): BankID-style signing
     * orders live minutes, so past this a new signing URL is requested instead of sending the person to an expired one.
     */
    SIGNING_ORDER_LIFETIME_MS: z.coerce.number().int().positive().default(300_000),
    /** Test-speed knobs; the spec's values are the defaults. */
    ROUTING_RETRIES: z.coerce.number().int().positive().default(14),
    ROUTING_RETRY_DELAY_MS: z.coerce.number().int().nonnegative().default(200),
    INTENT_WAIT_MS: z.coerce.number().int().nonnegative().default(2000),
    BANKID_POLL_MS: z.coerce.number().int().positive().default(1000),
    CREATION_POLL_MS: z.coerce.number().int().positive().default(2000),
    /** customer-information §9: between the KYC answer-session start's attempts (60 of them) while it answers 409. */
    KYC_START_INTERVAL_MS: z.coerce.number().int().positive().default(1000),
    /** customer-information §9: the wait before risk poll n is KYC_RISK_POLL_BASE_MS + KYC_RISK_POLL_STEP_MS × n (100 + 200 × n; tests shorter). */
    /** customer-information §9: the KYC loader adds "This is taking longer than expected..." after this long (10,000 ms). */
    KYC_LOADER_SLOW_AFTER_MS: z.coerce.number().int().nonnegative().default(LOADER_SLOW_AFTER_MS),
    KYC_RISK_POLL_BASE_MS: z.coerce.number().int().nonnegative().default(100),
    KYC_RISK_POLL_STEP_MS: z.coerce.number().int().nonnegative().default(200),
    /** customer-information §9: file, init-upload and citizenship calls are tried 10 times, this far apart. */
    FILE_RETRY_DELAY_MS: z.coerce.number().int().nonnegative().default(500),
    SSE_HEARTBEAT_MS: z.coerce.number().int().positive().default(15_000),
    WORKER_LOCK_MS: z.coerce.number().int().positive().default(30_000),
    // Jobs in flight per worker (creation polls mostly wait) and the brokerage connections they share: docs/operations/capacity.md.
    WORKER_CONCURRENCY: z.coerce.number().int().positive().default(500),
    WORKER_BROKERAGE_CONNECTIONS: z.coerce.number().int().positive().default(128),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    COOKIE_SECURE: bool.optional(),
    /** The support number each market's pages show (footer, error and creation screens); placeholders until set. */
    SUPPORT_PHONE_SE: supportPhone.default('+46 8 000 000 00'),
    SUPPORT_PHONE_NO: supportPhone.default('+47 22 00 00 00'),
    SUPPORT_PHONE_DK: supportPhone.default('+45 70 00 00 00'),
    SUPPORT_PHONE_FI: supportPhone.default('+358 9 0000 0000'),
    /** The public site's home, where the logo, the Close X and the result pages' home links lead (the journey's own / only redirects to its start). */
    HOME_URL: link.default('/'),
    /** The FAQ (route FAQ) per market, else FAQ_URL, else the market's placeholder (marketLinkDefaults). */
    FAQ_URL: link.optional(),
    FAQ_URL_SE: link.optional(),
    FAQ_URL_NO: link.optional(),
    FAQ_URL_DK: link.optional(),
    FAQ_URL_FI: link.optional(),
    LOGIN_URL: link.default('/login-next'),
    BUSINESS_FORM_URL: url.default('https://forms.example.com/business'),
    MINOR_FORM_URL: url.default('https://forms.example.com/minor'),
    MANUAL_SUPPORT_URL: url.default('https://forms.example.com/additional-information'),
    /** customer-information §2.3: "Provide more information" (the KYC submit answered 403) opens the external signing service here. */
    KYC_MORE_INFORMATION_URL: url.default('https://sign.example.com/more-information'),
    /** Same-device BankID in the native app's webview: where the BankID app returns to (the app's own URL scheme or link). */
    NATIVE_APP_RETURN_URL: z.string().min(1).optional(),
    /** Business and minor account cards link to <base>/<country>/<account> (shared/accountTypeLists.ts). */
    OCCUPATIONAL_PENSION_INFO_URL: url.default('https://www.example.com/se/occupational-pension'),
    /** The account type lists' two links; unset, the market's FAQ with an anchor (#account-types, #deposit-guarantee). */
    ACCOUNT_TYPES_INFO_URL: link.optional(),
    DEPOSIT_GUARANTEE_URL: link.optional(),
    /** Social-app in-app browsers: the Private card opens the page in the device's own browser. */
    FLAG_IN_APP_BROWSER_HANDOFF: bool.default(true),
    /** Pages that may be served from server/pageCache.ts are (the start page); off renders each anew (a check on the cache). */
    PAGE_CACHE: bool.default(true),
    /** Content service of the background image; unset means the brokerage API host (the sandbox locally). */
    CONTENT_SERVICE_URL: url.optional(),
    CONTENT_TIMEOUT_MS: z.coerce.number().int().positive().default(1500),
    CONTENT_CACHE_MS: z.coerce.number().int().nonnegative().default(300_000),
    /** Brokerage answers the same for everyone (server/infra/sharedAnswersCache.ts): used this long per web process; 0 asks every time. */
    SHARED_ANSWERS_CACHE_MS: z.coerce.number().int().nonnegative().default(60_000),
    /** The brokerage's system status in the page shell (server/infra/systemStatusCache.ts): one call per web process per cache time. */
    SYSTEM_STATUS_CACHE_MS: z.coerce.number().int().nonnegative().default(5000),
    /** The status call's own deadline: past it the page shows no status banner rather than wait. */
    SYSTEM_STATUS_TIMEOUT_MS: z.coerce.number().int().positive().max(5000).default(1000),
    /** Extra origins the content's images may come from (comma separated); the content service origin is always allowed. */
    CONTENT_IMAGE_ORIGINS: z
      .string()
      .default('')
      .refine((v) => v.split(',').every((s) => s.trim() === '' || URL.canParse(s.trim())), 'CONTENT_IMAGE_ORIGINS is a list of URLs separated by commas'),
    /** OIDC identification broker for DK, NO and FI; the defaults are the sandbox provider's test client. */
    OIDC_ISSUER_URL: url.default('http://127.0.0.1:3001/oidc'),
    OIDC_CLIENT_ID: z.string().min(1).max(200).default('onboarding-sandbox'),
    OIDC_CLIENT_SECRET: z.string().min(16, 'OIDC_CLIENT_SECRET must be at least 16 characters').default(SANDBOX_OIDC_CLIENT_SECRET),
    /** Deep-link scheme of the native app that receives the broker's code (webview flows it started). */
    NATIVE_APP_SCHEME: z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*$/, 'NATIVE_APP_SCHEME is a URL scheme such as nordicbank')
      .default('nordicbank'),
    PRIVACY_URL: link.default('/privacy'),
    /** Express 'trust proxy', the hops whose X-Forwarded-* count (req.ip keys the BankID limit): unset none, a hop count, or addresses. */
    TRUST_PROXY: z
      .string()
      .refine((v) => v !== 'true', "TRUST_PROXY=true would believe any client's X-Forwarded-For: give the router's hop count or addresses")
      .optional(),
    /** Prometheus /metrics (and the worker's health) on a listener of its own, never the app's port; unset: none (server/infra/metrics.ts). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().default('127.0.0.1'),
    /** When set, /metrics asks for `Authorization: Bearer <METRICS_TOKEN>`. */
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  })
  .superRefine((c, ctx) => {
    for (const message of redisTargetIssues(c.REDIS_URL, c.REDIS_CLUSTER)) ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message });
    if (c.NODE_ENV === 'production' && !c.REDIS_URL) {
      ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'REDIS_URL is required in production (in-memory stand-ins are for development only)' });
    }
    // Safe by default: a platform that sets REDIS_URL but not NODE_ENV is a shared deployment all the same,
    // so the development fallbacks (public secrets, the http://HOST:PORT origin) are refused there too.
    if (c.NODE_ENV === 'production' || c.REDIS_URL) {
      const where = c.NODE_ENV === 'production' ? 'in production (NODE_ENV=production)' : 'whenever REDIS_URL is set';
      // Every URL we send the browser or an upstream to is built from it (server/origins.ts), never from Host.
      if (!c.PUBLIC_URL) {
        ctx.addIssue({
          code: 'custom',
          path: ['PUBLIC_URL'],
          message: `PUBLIC_URL is required ${where} (our own origin, e.g. https://onboarding.example.se)`,
        });
      }
      if (!c.SESSION_SECRET || c.SESSION_SECRET === DEVELOPMENT_SESSION_SECRET) {
        ctx.addIssue({
          code: 'custom',
          path: ['SESSION_SECRET'],
          message: `SESSION_SECRET is required ${where}, a secret of its own (the development secret is public; e.g. openssl rand -base64 48)`,
        });
      }
      if (!c.JOB_SECRET_KEY || decodeKey(c.JOB_SECRET_KEY)?.equals(DEVELOPMENT_JOB_SECRET_KEY)) {
        ctx.addIssue({
          code: 'custom',
          path: ['JOB_SECRET_KEY'],
          message: `JOB_SECRET_KEY is required ${where}, a key of its own (the development key is public; openssl rand -base64 32)`,
        });
      }
      // Without Secure the session cookie would also travel over plain http to our https origin.
      if (c.PUBLIC_URL && new URL(c.PUBLIC_URL).protocol === 'https:' && !(c.COOKIE_SECURE ?? c.NODE_ENV === 'production')) {
        ctx.addIssue({
          code: 'custom',
          path: ['COOKIE_SECURE'],
          message: `${c.COOKIE_SECURE === false ? 'COOKIE_SECURE=false' : 'COOKIE_SECURE is unset, so off outside production,'} but PUBLIC_URL ${new URL(c.PUBLIC_URL).origin} is https: the session cookie would also go out over plain http. Set COOKIE_SECURE=true (or NODE_ENV=production)`,
        });
      }
    }
    // A browser never stores a Secure cookie an http page sets (loopback aside, which browsers treat as
    // secure): the session would never start, and choosing Private would reload the start page for good.
    const secureCookies = c.COOKIE_SECURE ?? c.NODE_ENV === 'production';
    const ownUrl = new URL(c.PUBLIC_URL ?? `http://${c.HOST}:${c.PORT}`);
    if (secureCookies && ownUrl.protocol !== 'https:' && !isLoopbackHost(ownUrl.hostname)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: `PUBLIC_URL ${ownUrl.origin} is plain http, but cookies are Secure (COOKIE_SECURE, on in production): browsers would never store the session cookie. Serve it over https, or set COOKIE_SECURE=false for a plain-http test environment`,
      });
    }
    // openid-client refuses plain http unless told otherwise; that is only acceptable for a local sandbox.
    const issuer = new URL(c.OIDC_ISSUER_URL);
    if (issuer.protocol !== 'https:' && !isLoopbackHost(issuer.hostname)) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER_URL'], message: 'OIDC_ISSUER_URL must use https (http only for a loopback development issuer)' });
    }
    // The sandbox client's secret is public: a real broker must get a secret of its own.
    if (!isLoopbackHost(issuer.hostname) && c.OIDC_CLIENT_SECRET === SANDBOX_OIDC_CLIENT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_SECRET'], message: 'OIDC_CLIENT_SECRET must be set for a real identification broker' });
    }
    // A universal link is https by definition (the operating system opens the app only for a verified https domain);
    // plain http only for a loopback test page.
    // (A value that is no URL at all has its own issue already.)
    const appUrl = URL.canParse(c.APP_URL) ? new URL(c.APP_URL) : null;
    if (appUrl && appUrl.protocol !== 'https:' && !(appUrl.protocol === 'http:' && isLoopbackHost(appUrl.hostname))) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_URL'],
        message: 'APP_URL must be an https universal link that opens the app or its store page (http only on loopback)',
      });
    }
    // The hand-off address carries a login code: never over plain http, but to a loopback stand-in.
    const bankSite = URL.canParse(c.BANK_SITE_URL) ? new URL(c.BANK_SITE_URL) : null;
    if (bankSite && bankSite.protocol !== 'https:' && !(bankSite.protocol === 'http:' && isLoopbackHost(bankSite.hostname)))
      ctx.addIssue({ code: 'custom', path: ['BANK_SITE_URL'], message: "BANK_SITE_URL must be the bank site's https address (http only on loopback)" });
    // The public app's port must never serve the metrics (PORT=0 is a free port of its own).
    if (c.METRICS_PORT !== undefined && c.METRICS_PORT !== 0 && c.METRICS_PORT === c.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'METRICS_PORT must differ from PORT: the metrics are not served on the public port' });
    }
    const tls = [c.BANKID_CERT_PATH, c.BANKID_KEY_PATH, c.BANKID_CA_PATH].filter(Boolean).length;
    if (tls !== 0 && tls !== 3) {
      ctx.addIssue({ code: 'custom', path: ['BANKID_CERT_PATH'], message: 'BANKID_CERT_PATH, BANKID_KEY_PATH and BANKID_CA_PATH go together' });
    }
  });

const SECURE_OVER_HTTP_FIX = 'Serve it over https (or behind a TLS-terminating proxy that TRUST_PROXY trusts), or set COOKIE_SECURE=false for a plain-http run';
// Secure cookies over plain-http loopback: a browser opening it gets no session (said at start and on each page), yet
// behind a TLS-terminating proxy TRUST_PROXY trusts the same settings work, so it is not refused.
export function startWarnings(config: Pick<Config, 'cookieSecure' | 'publicUrl'>): string[] {
  const own = new URL(config.publicUrl);
  if (!config.cookieSecure || own.protocol === 'https:') return [];
  const why = 'a browser that opens it directly gets no session cookie, so the journey cannot start (its pages say so)';
  return [`PUBLIC_URL ${own.origin} is plain http, but cookies are Secure (COOKIE_SECURE, on in production): ${why}. ${SECURE_OVER_HTTP_FIX}`];
}

/** A 32-byte key from base64 or hex, else null. */
export function decodeKey(value: string): Buffer | null {
  const bytes = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/]{43}=$/.test(value) ? Buffer.from(value, 'base64') : null;
  return bytes?.length === 32 ? bytes : null;
}

export type Config = z.infer<typeof schema> & {
  /** REDIS_URL and REDIS_CLUSTER read: one node or a cluster's seeds; undefined without REDIS_URL (in-memory stand-ins). */
  redis: RedisTarget | undefined;
  countryByHost: Map<string, CountryCode>;
  publicUrl: string;
  sessionSecret: string;
  /** JOB_SECRET_KEY decoded (a fixed development key without it). */
  jobSecretKey: Buffer;
  signingOrigins: string[];
  cookieSecure: boolean;
  production: boolean;
  contentServiceUrl: string;
  contentImageOrigins: string[];
  /** SUPPORT_PHONE_<market> per market (shared/markets.ts forMarket). */
  supportPhones: PerMarket<string>;
  /** TRUST_PROXY as Express takes it: false (none), a hop count, or addresses. */
  trustProxy: false | number | string;
  /** BANK_SITE_URL's origin: the configured links given as paths are resolved against it here, so every link below is absolute. */
  bankSiteOrigin: string;
  /** SUCCESS_URL_<market> per market, each SUCCESS_URL when unset. */
  successUrls: PerMarket<string>;
  /** OVERVIEW_URL_<market>, else OVERVIEW_URL, else the market's success URL. */
  overviewUrls: PerMarket<string>;
  /** GET_STARTED_URL_<market>, else GET_STARTED_URL, else the market's placeholder. */
  getStartedUrls: PerMarket<string>;
  /** FAQ_URL_<market>, else FAQ_URL, else the market's placeholder. */
  faqUrls: PerMarket<string>;
};

type Parsed = z.infer<typeof schema>;

/** `<name>_<market>` for each market, else `<name>`, else `fallback` of the market; a path on the bank's site. */
function perMarket(c: Parsed, name: 'OVERVIEW_URL' | 'GET_STARTED_URL' | 'FAQ_URL', fallback: PerMarket<string>): PerMarket<string> {
  const values = Object.fromEntries(markets.map((m) => [m, onBankSite(c.BANK_SITE_URL, c[`${name}_${m}`] ?? c[name] ?? fallback[m])]));
  return values as Record<CountryCode, string>;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined>): Config {
  // Treat empty strings as unset so `FOO=` in a Procfile environment falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const successUrls = {
    SE: onBankSite(c.BANK_SITE_URL, c.SUCCESS_URL_SE ?? c.SUCCESS_URL),
    NO: onBankSite(c.BANK_SITE_URL, c.SUCCESS_URL_NO ?? c.SUCCESS_URL),
    DK: onBankSite(c.BANK_SITE_URL, c.SUCCESS_URL_DK ?? c.SUCCESS_URL),
    FI: onBankSite(c.BANK_SITE_URL, c.SUCCESS_URL_FI ?? c.SUCCESS_URL),
  };
  return {
    ...c,
    // The bank site's pages: a path given is resolved once here, so no page or redirect resolves it on our origin.
    HOME_URL: onBankSite(c.BANK_SITE_URL, c.HOME_URL),
    LOGIN_URL: onBankSite(c.BANK_SITE_URL, c.LOGIN_URL),
    PRIVACY_URL: onBankSite(c.BANK_SITE_URL, c.PRIVACY_URL),
    ...(c.ACCOUNT_TYPES_INFO_URL ? { ACCOUNT_TYPES_INFO_URL: onBankSite(c.BANK_SITE_URL, c.ACCOUNT_TYPES_INFO_URL) } : {}),
    ...(c.DEPOSIT_GUARANTEE_URL ? { DEPOSIT_GUARANTEE_URL: onBankSite(c.BANK_SITE_URL, c.DEPOSIT_GUARANTEE_URL) } : {}),
    bankSiteOrigin: new URL(c.BANK_SITE_URL).origin,
    trustProxy:
      c.TRUST_PROXY === undefined || ['none', 'false', '0'].includes(c.TRUST_PROXY)
        ? false
        : /^\d+$/.test(c.TRUST_PROXY)
          ? Number(c.TRUST_PROXY)
          : c.TRUST_PROXY,
    redis: c.REDIS_URL ? redisTarget(c.REDIS_URL, c.REDIS_CLUSTER) : undefined,
    countryByHost: new Map(
      c.COUNTRY_HOSTS.split(',').map((pair) => {
        const [host, country] = pair.split('=');
        return [host!.toLowerCase(), country!.toUpperCase() as CountryCode];
      }),
    ),
    publicUrl: (c.PUBLIC_URL ?? `http://${c.HOST}:${c.PORT}`).replace(/\/$/, ''),
    sessionSecret: c.SESSION_SECRET ?? DEVELOPMENT_SESSION_SECRET,
    jobSecretKey: decodeKey(c.JOB_SECRET_KEY ?? '') ?? DEVELOPMENT_JOB_SECRET_KEY,
    signingOrigins: c.SIGNING_ORIGINS.split(',').map((s) => new URL(s.trim()).origin),
    cookieSecure: c.COOKIE_SECURE ?? c.NODE_ENV === 'production',
    production: c.NODE_ENV === 'production',
    supportPhones: { SE: c.SUPPORT_PHONE_SE, NO: c.SUPPORT_PHONE_NO, DK: c.SUPPORT_PHONE_DK, FI: c.SUPPORT_PHONE_FI },
    successUrls,
    overviewUrls: perMarket(c, 'OVERVIEW_URL', successUrls),
    getStartedUrls: perMarket(c, 'GET_STARTED_URL', marketLinkDefaults.GET_STARTED_URL),
    faqUrls: perMarket(c, 'FAQ_URL', marketLinkDefaults.FAQ_URL),
    contentServiceUrl: c.CONTENT_SERVICE_URL ?? c.BROKERAGE_API_URL,
    contentImageOrigins: [
      new URL(c.CONTENT_SERVICE_URL ?? c.BROKERAGE_API_URL).origin,
      ...c.CONTENT_IMAGE_ORIGINS.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => new URL(s).origin),
    ],
  };
}
