// Builds the Express application from its dependencies. No I/O happens here; server/main.ts owns
// start-up and shutdown.
import express from 'express';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { pinoHttp } from 'pino-http';
import type { AppDeps } from './deps.ts';
import { nonceMiddleware, securityHeaders } from './security.ts';
import { sessionMiddleware } from './session.ts';
import { csrfProtection } from './csrfProtection.ts';
import { caseStatusRoutes } from './stages/caseStatus/caseStatusPage.tsx';
import { serialiseSession } from './infra/sessionLocks.ts';
import { deadlineMiddleware } from './infra/deadline.ts';
import { requireRedis } from './infra/redis.ts';
import { errorSerializer, scrubUrl } from './logger.ts';
import { healthRoutes } from './health.ts';
import { errorHandler, fallbackRedirect, sessionBusy } from './errors.ts';
import { onboardingRoutes } from './stages/start/startPage.tsx';
import { bankidRoutes } from './stages/identification/bankidPage.tsx';
import { oidcRoutes } from './stages/identification/oidcPage.tsx';
import { routingRoutes } from './stages/routing/routingPage.ts';
import { customerInformationRoutes } from './stages/customerInformation/customerInformationPage.tsx';
import { refusedStepPost } from './stages/customerInformation/refusedStepPost.ts';
import { customerCreationRoutes } from './stages/customerCreation/creationPage.tsx';
import { resultRoutes } from './stages/results/resultPages.tsx';
import { routePatterns, routePrefixes, routes } from '../shared/routes.ts';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));

export function createApp(deps: AppDeps): express.Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY === 'true' ? true : /^\d+$/.test(config.TRUST_PROXY) ? Number(config.TRUST_PROXY) : config.TRUST_PROXY);

  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || (req.url ?? '').startsWith('/build/') },
      serializers: {
        req: (req) => ({ id: req.id, method: req.method, url: scrubUrl(req.url ?? '') }),
        res: (res) => ({ statusCode: res.statusCode }),
        // Type, message and stack, no other field of the error (server/logger.ts).
        err: errorSerializer,
      },
    }),
  );

  // Every request's upstream calls and retries share one deadline (server/infra/deadline.ts).
  app.use(deadlineMiddleware(config.REQUEST_DEADLINE_MS, Date.now, deps.deadlines));
  app.use(healthRoutes(deps));
  // Hashed build files never change: cache them for a year.
  app.use('/build', express.static(`${publicDir}build`, { immutable: true, maxAge: '365d', index: false }));
  // Shell images (signup images, fallback background): not hashed, so a shorter cache.
  app.use('/images', express.static(`${publicDir}images`, { maxAge: '1d', index: false }));

  app.use(nonceMiddleware());
  app.use(
    securityHeaders({
      httpsOnly: config.cookieSecure,
      // The native app's deep links (its host only, never the whole scheme): "I have signed" in the app's webview goes on
      // to the app's create path by a redirect after its post (shared/signingReturn.ts).
      formActionOrigins: [...config.signingOrigins, new URL(config.OIDC_ISSUER_URL).origin, `${config.NATIVE_APP_SCHEME}://onboarding`],
      imageOrigins: config.contentImageOrigins,
    }),
  );
  app.use(express.urlencoded({ extended: false, limit: '20kb' }));
  app.use(express.json({ limit: '20kb' }));
  // Redis known to be down: the 503 page at once (server/errors.ts) rather than a session read that fails.
  app.use(requireRedis(deps.redis));
  app.use(
    sessionMiddleware({
      secret: config.sessionSecret,
      ttlMinutes: config.SESSION_TTL_MINUTES,
      secureCookie: config.cookieSecure,
      redis: deps.redis,
      prefix: config.REDIS_PREFIX,
      logger: deps.logger,
    }),
  );

  // A state-changing request must come from our own pages (server/csrfProtection.ts). After the body parsers (the
  // token fallback reads the form) and the session (the 403 page speaks the person's language), before
  // any route or lock.
  app.use(csrfProtection(config));

  app.get('/', (_req, res) => res.redirect(302, routes.start));
  // One request at a time per session (server/infra/sessionLocks.ts) where requests of one browser
  // overlap: the BankID page polls while the person presses Back; an upload still runs on the server
  // after the browser has moved on to the next one.
  // A request that cannot get the lock is refused with "please try again", never run unlocked.
  const serialised = serialiseSession(deps.sessionLocks, deps.logger, sessionBusy(deps));
  app.get(routePatterns.start, serialised);
  // Choosing Private starts a BankID order: two overlapping choices must not leave one running unseen.
  app.post(routePatterns.customerType, serialised);
  app.use(routePrefixes.bankid, serialised);
  // Routing creates the prospect: a second tab or a reload while it runs waits, then finds the prospect made.
  app.get(routePatterns.routing, serialised);
  // The status page: a task's answer is sent once per session however often it is posted (two tabs, a double click).
  app.use(routePatterns.caseStatus, serialised);
  app.use(routePatterns.triggerCase, serialised);
  app.use(routePrefixes.customerInformation, serialiseSession(deps.sessionLocks, deps.logger, refusedStepPost(sessionBusy(deps))));
  // Before Onboarding: it takes GET /onboarding only when the broker's code or error is in the query.
  app.use(oidcRoutes(deps));
  app.use(onboardingRoutes(deps));
  app.use(bankidRoutes(deps));
  app.use(routingRoutes(deps));
  app.use(customerInformationRoutes(deps));
  app.use(customerCreationRoutes(deps));
  app.use(caseStatusRoutes(deps));
  app.use(resultRoutes(deps));

  app.use(fallbackRedirect());
  app.use(errorHandler(deps));
  return app;
}
