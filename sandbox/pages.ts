// Browser-facing stand-in pages: the e-signing page the signatures call points to, and the overview page the
// journey's success URL can target.
import express from 'express';
import { html, page } from './html.ts';
import type { SandboxContext } from './state.ts';

export function pagesRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();
  const { state } = ctx;

  const notFound = (res: express.Response) =>
    res
      .status(404)
      .type('html')
      .send(page('Signing not found', html`<p>This signing link is unknown or the sandbox was reset.</p>`));

  router.get('/sandbox/signing/:signatureId', (req, res) => {
    const signature = state.signatures.get(req.params.signatureId);
    const prospect = signature && state.prospects.get(signature.prospectId);
    if (!signature || !prospect) return notFound(res);
    const action = `/sandbox/signing/${encodeURIComponent(signature.id)}`;
    res.type('html').send(
      page(
        'Sign the agreements',
        html`<p>${prospect.owner.name} is about to sign the customer agreements for these accounts:</p>
<ul>${(prospect.accountTypes ?? []).map((code) => html`<li>${code}</li>`)}</ul>
<form method="post" action="${action}/sign"><button type="submit">Sign</button></form>
<form method="post" action="${action}/cancel"><button type="submit">Cancel</button></form>`,
      ),
    );
  });

  // Both answers leave the sandbox with 303 so the browser follows with GET, like a real e-signing service.
  router.post('/sandbox/signing/:signatureId/sign', (req, res) => {
    const signature = state.signatures.get(req.params.signatureId);
    const prospect = signature && state.prospects.get(signature.prospectId);
    if (!signature || !prospect) return notFound(res);
    prospect.signed = true;
    res.redirect(303, signature.completeUrl);
  });

  router.post('/sandbox/signing/:signatureId/cancel', (req, res) => {
    const signature = state.signatures.get(req.params.signatureId);
    if (!signature) return notFound(res);
    res.redirect(303, signature.cancelUrl);
  });

  router.get('/sandbox/overview', (_req, res) => {
    res.type('html').send(page('You are logged in', html`<p>This is the sandbox overview page the journey ends on.</p>`));
  });

  return router;
}
