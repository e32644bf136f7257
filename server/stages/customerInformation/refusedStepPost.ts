// A post to the customer-information page that the per-session lock refused (server/infra/sessionLocks.ts):
// another request of the person's still ran, e.g. an upload the browser had dropped for the next one. Nothing was
// saved (the file not attached): back to the step, whose banner says so (the page is read again, so it shows what is
// kept by then). The page's posts declare it as their `busy`; anything else gets the app's answer.
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { RefuseHandler } from '../../infra/sessionLocks.ts';
import { sessionBusy } from '../../errors.ts';
import { routes } from '../../../shared/routes.ts';
import { isMultipart } from '../../uploads/receiveFiles.ts';

/** What the banner says was not saved: a file, or any other change. */
export type NotSaved = 'upload' | 'change';
/** The page's ?notSaved= after a refused post. */
export const notSavedQuery = z.enum(['upload', 'change']);

export function refusedStepPost(deps: AppDeps): RefuseHandler {
  const fallback = sessionBusy(deps);
  return (req, res, why) => {
    const prospectId = (req.params as { prospectId?: string }).prospectId;
    if (req.method !== 'POST' || !prospectId) return fallback(req, res, why);
    const notSaved: NotSaved = isMultipart(req) ? 'upload' : 'change';
    res.redirect(303, `${routes.customerInformation(prospectId)}?notSaved=${notSaved}`);
  };
}
