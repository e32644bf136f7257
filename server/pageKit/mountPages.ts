// Mounts declared pages (server/pageKit/definePage.ts) on the app: for each, its lock or read-only view as its
// `session` says, its access check and refusal, the POST body parsed by its schema, and the Outcome answered.
import type { Express, Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../deps.ts';
import type { Page, PageContext } from './definePage.ts';
import { journeyAllowed, refuse } from './access.ts';
import { respond } from './respond.ts';
import { readOnlyPageViews } from '../session.ts';
import { serialiseSession } from '../infra/sessionLocks.ts';
import { BadRequestError, sessionBusy } from '../errors.ts';
import { routePatterns, type RouteName } from '../../shared/routes.ts';

type Context = PageContext<RouteName, 'anyone' | 'identified' | 'ownsProspect'>;

/** The request's context when the page's access lets it through, else null (and the refusal sent). */
function contextFor(page: Page, req: Request, res: Response, deps: AppDeps): Context | null {
  const params = req.params as Context['params'];
  const prospectId = (params as { prospectId?: string }).prospectId;
  const journey = journeyAllowed(page.access, req.session?.journey, prospectId);
  if (journey === null) {
    refuse(req, res, deps);
    return null;
  }
  return { req, res, deps, params, journey: journey as Context['journey'] };
}

export function mountPages(app: Express, pages: readonly Page[], deps: AppDeps): void {
  const readOnly = readOnlyPageViews({ secureCookie: deps.config.cookieSecure, logger: deps.logger });
  for (const page of pages) {
    const pattern = routePatterns[page.route];
    const writes = page.session === 'writes';
    // A page that only reads: an identified person's view of it writes nothing back (server/session.ts); a visitor's
    // stores nothing anyway, and keeps the session's idle time rolling as any request does.
    const lock: RequestHandler = writes
      ? serialiseSession(deps.sessionLocks, deps.logger, page.busy ? page.busy(deps) : sessionBusy(deps), deps.config.publicUrl)
      : page.access === 'anyone'
        ? (_req, _res, next) => next()
        : readOnly;
    const { get, post } = page;
    if (get) {
      app.get(pattern, lock, async (req, res) => {
        const ctx = contextFor(page, req, res, deps);
        if (ctx) respond(req, res, deps, await get(ctx), writes);
      });
    }
    if (post) {
      app.post(pattern, lock, async (req, res) => {
        const ctx = contextFor(page, req, res, deps);
        if (!ctx) return;
        await post.receive?.(req, res);
        const body = post.body.safeParse(req.body);
        if (body.success) return respond(req, res, deps, await post.handle(ctx, body.data), writes);
        if (post.invalid) return respond(req, res, deps, await post.invalid(ctx), writes);
        // Not a body our own form sends: the error handler's 400 (a page, or JSON to a JSON caller).
        throw new BadRequestError('the post’s body is not its form’s');
      });
    }
  }
}
