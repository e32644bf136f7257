// A post to the customer-information page that the per-session lock refused (server/infra/sessionLocks.ts):
// another request of the person's still ran, e.g. an upload the browser had dropped for the next one.
// Nothing was saved (the file not attached). Back to the step, whose banner says so (the page is read
// again, so it shows what is kept by then); anything else gets the app's answer (`fallback`).
import { z } from 'zod';
import type { RefuseHandler } from '../../infra/sessionLocks.ts';
import { routePrefixes } from '../../../shared/routes.ts';
import { isMultipart } from './uploads.tsx';

/** What the banner says was not saved: a file, or any other change. */
export type NotSaved = 'upload' | 'change';
/** The page's ?notSaved= after a refused post. */
export const notSavedQuery = z.enum(['upload', 'change']);

// A post to one of the page's own paths (…/step, …/back, …/exit); the group is the page. The prefix is letters, '-' and '/' only.
const stepPagePost = new RegExp(`^(${routePrefixes.customerInformation}/[^/?#]+)/[a-z]+$`);

export function refusedStepPost(fallback: RefuseHandler): RefuseHandler {
  return (req, res, why) => {
    const page = stepPagePost.exec(req.originalUrl.split('?')[0] ?? '');
    if (req.method !== 'POST' || !page) return fallback(req, res, why);
    res.redirect(303, `${page[1]}?notSaved=${isMultipart(req) ? 'upload' : 'change'}`);
  };
}
