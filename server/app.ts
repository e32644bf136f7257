// Builds the web's request listener (the Express application, the creation event stream ahead of it) from its
// dependencies. No I/O happens here; server/main.ts owns
// start-up and shutdown.
import type { RequestListener } from 'node:http';
import express from 'express';
import type { Store } from 'express-session';
import compression from 'compression';
import expressStaticGzip from 'express-static-gzip';
import { fileURLToPath } from 'node:url';
import { logStreamRequest, requestLogger } from './requestLog.ts';
import type { AppDeps } from './deps.ts';
import { nonceMiddleware, securityHeaders, streamSecurityHeaders } from './security.ts';
import { createSessionStore, sessionMiddleware, sessionReader } from './session.ts';
import { withStreams } from './pageKit/streams.ts';
import { mountPages } from './pageKit/mountPages.ts';
import type { Page } from './pageKit/definePage.ts';
import { creationEventsPage } from './stages/customerCreation/creationEventsPage.ts';
import { csrfProtection } from './csrfProtection.ts';
import { deadlineMiddleware } from './infra/deadline.ts';
import { requireRedis } from './infra/redis.ts';
import { healthz, readinessRoutes } from './health.ts';
import { errorHandler, fallbackRedirect, wantsJson } from './errors.ts';
import { systemStatusForPages } from './infra/systemStatusCache.ts';
import { startPages } from './stages/identification/startPage.tsx';
import { bankidPages } from './stages/identification/bankidPage.tsx';
import { oidcPages } from './stages/identification/oidcPage.tsx';
import { routingPage } from './stages/routing/routingPage.ts';
import { customerInformationPages } from './stages/customerInformation/customerInformationPage.tsx';
import { beginCustomerInformation } from './stages/customerInformation/pageContext.ts';
import { continueOrigins, creationPages } from './stages/customerCreation/creationPage.tsx';
import { resultPages } from './stages/results/resultPages.tsx';
import { caseStatusPages } from './stages/caseStatus/caseStatusPage.tsx';
import { routePrefixes, routes, siteRoot } from '../shared/routes.ts';
import type { BareMiddleware } from './pageKit/streams.ts';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));

/** Every page of the journey declared with the page kit (server/pageKit/definePage.ts), mounted in this order. */
function journeyPages(deps: AppDeps): Page[] {
  // Routing starts the customer-information page's first step (a stage imports no other stage: wired here).
  return [
    ...startPages,
    ...oidcPages,
    ...bankidPages,
    routingPage(beginCustomerInformation),
    ...customerInformationPages,
    ...resultPages,
    ...caseStatusPages,
    ...creationPages,
    creationEventsPage(deps),
  ];
}

/**
 * The web's request listener: the Express app, and ahead of it the pages' event streams (server/pageKit/streams.ts),
 * which thousands hold open at once. Both log, head and answer errors with the same functions.
 */
export function createApp(deps: AppDeps): RequestListener {
  const { config } = deps;
  const sessionStore = createSessionStore({ ttlMinutes: config.SESSION_TTL_MINUTES, redis: deps.redis, prefix: config.REDIS_PREFIX });
  const readSession = sessionReader({ store: sessionStore, secret: config.sessionSecret, secureCookie: config.cookieSecure });
  const pages = journeyPages(deps);
  return withStreams(expressApp(deps, sessionStore, pages), pages, deps, {
    logRequest: logStreamRequest(deps.logger),
    securityHeaders: streamSecurityHeaders(config.cookieSecure),
    requireRedis: requireRedis(deps.redis) as BareMiddleware,
    readSession,
  });
}

function expressApp(deps: AppDeps, sessionStore: Store, pages: readonly Page[]): express.Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  // No ETag on pages and JSON answers (hashing each body cost 4 % of the start page's CPU): they go out no-store,
  // and no caller of ours revalidates. The build files and images keep theirs (serve-static's own).
  app.set('etag', false);
  // None unless configured: a loopback peer is not a proxy by default (its X-Forwarded-For would name any address).
  app.set('trust proxy', config.trustProxy);

  // Before every middleware: it needs none of them (server/health.ts).
  app.get('/healthz', healthz);
  app.use(requestLogger(deps.logger));

  // Every request's upstream calls and retries share one deadline (server/infra/deadline.ts).
  app.use(deadlineMiddleware(config.REQUEST_DEADLINE_MS, Date.now, deps.deadlines));
  app.use(readinessRoutes(deps));
  // Hashed build files never change: cache them for a year. The build compressed each one beside itself
  // (esbuild.config.mjs: .br and .gz), so they go out brotli- or gzip-compressed at no cost per request.
  app.use(
    '/build',
    expressStaticGzip(`${publicDir}build`, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { immutable: true, maxAge: '365d', index: false },
    }),
  );
  // Shell images (signup images, fallback background): not hashed, so a shorter cache.
  app.use('/images', express.static(`${publicDir}images`, { maxAge: '1d', index: false }));
  // Pages and JSON answers go out compressed where the browser takes it (brotli first; a page's brotli is made in one
  // call by server/pageCompression.ts, which this lets pass). The creation event stream is answered before Express
  // (createApp); its `Cache-Control: no-transform` would keep it uncompressed here too.
  app.use(compression());

  app.use(nonceMiddleware());
  app.use(
    securityHeaders({
      httpsOnly: config.cookieSecure,
      // The native app's deep links (its host only, never the whole scheme): "I have signed" in the app's webview goes on
      // to the app's create path by a redirect after its post (shared/signingReturn.ts).
      // Continue after creation posts, then goes on to the bank site's login hand-off or a configured target.
      formActionOrigins: [
        ...config.signingOrigins,
        new URL(config.OIDC_ISSUER_URL).origin,
        `${config.NATIVE_APP_SCHEME}://onboarding`,
        ...continueOrigins(config),
      ],
      imageOrigins: config.contentImageOrigins,
      styleHashes: deps.manifest.inlineCss ? [deps.manifest.inlineCss.sha256] : [],
    }),
  );
  app.use(express.urlencoded({ extended: false, limit: '20kb' }));
  app.use(express.json({ limit: '20kb' }));
  // The maintenance banner and the high-load notice on every onboarding page (identification-routing-creation §8, §9),
  // read before the handlers (the shell renders synchronously); the islands' JSON polls and event streams skip it.
  app.use(
    routePrefixes.journey,
    systemStatusForPages(deps.systemStatus, (req) => !wantsJson(req)),
  );
  // Redis known to be down: the 503 page at once (server/errors.ts) rather than a session read that fails.
  app.use(requireRedis(deps.redis));
  app.use(
    sessionMiddleware({
      secret: config.sessionSecret,
      ttlMinutes: config.SESSION_TTL_MINUTES,
      secureCookie: config.cookieSecure,
      redis: deps.redis,
      prefix: config.REDIS_PREFIX,
      store: sessionStore,
      logger: deps.logger,
    }),
  );

  // A state-changing request must come from our own pages (server/csrfProtection.ts). After the body parsers (the
  // token fallback reads the form) and the session (the 403 page speaks the person's language), before
  // any route or lock.
  app.use(csrfProtection(config));

  app.get(siteRoot, (_req, res) => res.redirect(302, routes.start));
  // One request at a time per session where requests of one browser overlap, and no lock for a page that only reads:
  // each page's `session` says which (server/pageKit/mountPages.ts).
  mountPages(app, pages, deps);

  app.use(fallbackRedirect());
  app.use(errorHandler(deps));
  return app;
}
