// Simulated content service (identification-routing-creation §2 "Onboarding page shell"): answers the techContent ACE-Onboarding
// lookup with a background image that the sandbox itself serves.
import { Router } from 'express';
import { contentQuery, contentResponse, contentServicePaths, type ContentResponse } from '../shared/contracts/contentServiceContract.ts';
import type { SandboxContext } from './state.ts';

export const SANDBOX_BACKGROUND_PATH = '/sandbox/content/onboarding-background.svg';

// A soft abstract gradient; small enough to inline here.
const backgroundSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1600 400" preserveAspectRatio="xMidYMid slice"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#dbe8f7"/><stop offset="1" stop-color="#f4ecfa"/></linearGradient></defs><rect width="1600" height="400" fill="url(#g)"/><circle cx="1300" cy="80" r="220" fill="#c7dcf3"/><circle cx="200" cy="380" r="160" fill="#e6d9f2"/></svg>`;

export function contentRouter(ctx: SandboxContext): Router {
  const router = Router();
  router.get(contentServicePaths.content, (req, res) => {
    const query = contentQuery.safeParse(req.query);
    if (!query.success) return void res.status(400).json({ error: 'contentType, techId and locale are required' });
    const { contentType, techId, locale } = query.data;
    const items: ContentResponse['items'] =
      contentType === 'techContent' && techId === 'ACE-Onboarding'
        ? [{ techId, contentType, locale, fields: { backgroundImage: { url: `${ctx.publicUrl}${SANDBOX_BACKGROUND_PATH}`, title: 'Onboarding background' } } }]
        : [];
    res.json(contentResponse.parse({ items }));
  });
  router.get(SANDBOX_BACKGROUND_PATH, (_req, res) => {
    res.type('image/svg+xml').set('cache-control', 'public, max-age=3600').send(backgroundSvg);
  });
  return router;
}
