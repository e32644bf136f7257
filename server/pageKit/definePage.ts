// A page of the journey, declared as data (the page kit): its named route, who may use it, whether it writes the
// session, and what its GET, POST and event stream answer. server/pageKit/mountPages.ts turns the declarations into
// routes with their locks, read-only views and refusals, so no stage decides those by hand.
import type { Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodType } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { Journey } from '../journey.ts';
import type { PageOptions } from '../pages.ts';
import type { RefuseHandler } from '../infra/sessionLocks.ts';
import type { RouteName, RouteParams, routePatterns } from '../../shared/routes.ts';

/** Who may use a page: anyone; a person identified in this session; the identified person whose prospect the route names. */
export type Access = 'anyone' | 'identified' | 'ownsProspect';

/** The route's `:param` values, decoded. */
export type ParamsOf<R extends RouteName> = { [K in RouteParams<(typeof routePatterns)[R]>]: string };

/** What the access gives a handler: the identified person's session journey, or nothing to rely on. */
export type JourneyFor<A extends Access> = A extends 'anyone' ? undefined : Journey;

export interface PageContext<R extends RouteName, A extends Access> {
  req: Request;
  res: Response;
  deps: AppDeps;
  params: ParamsOf<R>;
  journey: JourneyFor<A>;
}

/** An event stream's request, answered ahead of Express (server/pageKit/streams.ts): no Express, no session object. */
export interface StreamContext<R extends RouteName, A extends Access> {
  req: IncomingMessage;
  res: ServerResponse;
  params: ParamsOf<R>;
  /** The session's journey as stored (read once). */
  journey: JourneyFor<A>;
}

/** What a handler answers; server/pageKit/respond.ts sends it. */
export type Outcome =
  | { kind: 'page'; options: PageOptions }
  | { kind: 'redirect'; to: string; status: 302 | 303 }
  | { kind: 'json'; body: unknown; status: number; headers?: Record<string, string> }
  /** One answer for a JSON caller (an island), another for a browser's page load or form post (respond.ts decides). */
  | { kind: 'byCaller'; json: Outcome; page: Outcome }
  /** The handler answered itself (it streamed, or ended the session on its way out). */
  | { kind: 'answered' };

export const page = (options: PageOptions): Outcome => ({ kind: 'page', options });
/** `to` is a URL from shared/routes.ts `routes` or from configuration, never a request's own text. */
export const redirect = (to: string, status: 302 | 303 = 303): Outcome => ({ kind: 'redirect', to, status });
export const json = (body: unknown, status = 200, headers?: Record<string, string>): Outcome => ({
  kind: 'json',
  body,
  status,
  ...(headers ? { headers } : {}),
});
export const answered: Outcome = { kind: 'answered' };
/** `json` to an island that asked for JSON, `page` to a browser (server/errors.ts wantsJson, the app's one rule). */
export const byCaller = (json: Outcome, page: Outcome): Outcome => ({ kind: 'byCaller', json, page });

type Handler<Ctx> = (ctx: Ctx) => Outcome | Promise<Outcome>;

export interface PostHandler<R extends RouteName, A extends Access, B> {
  /** The form's body; a body it refuses is answered by `invalid`, else 400. */
  body: ZodType<B>;
  /** Read before the body: a multipart form's files (server/uploads/receiveFiles.ts), which also fills `req.body`. */
  receive?: (req: Request, res: Response) => Promise<unknown>;
  invalid?: Handler<PageContext<R, A>>;
  handle: (ctx: PageContext<R, A>, body: B) => Outcome | Promise<Outcome>;
}

interface Common<R extends RouteName, A extends Access> {
  route: R;
  access: A;
  get?: Handler<PageContext<R, A>>;
  stream?: (ctx: StreamContext<R, A>) => Promise<void>;
}

/**
 * `reads`: the page never changes the session (GETs only): no lock, nothing written back, nothing stored for a
 * visitor. `writes`: one request at a time per session (server/infra/sessionLocks.ts), the session saved before a
 * redirect is sent; `busy` answers a request the lock refused when the app's "try again" page is not the right one.
 */
export type PageDefinition<R extends RouteName, A extends Access, B> = Common<R, A> &
  ({ session: 'reads'; post?: never; busy?: never } | { session: 'writes'; post?: PostHandler<R, A, B>; busy?: (deps: AppDeps) => RefuseHandler });

/** A declared page with its types erased, as the kit mounts it. */
export type Page = PageDefinition<RouteName, Access, unknown>;

export function definePage<R extends RouteName, A extends Access, B = never>(definition: PageDefinition<R, A, B>): Page {
  return definition as unknown as Page;
}
