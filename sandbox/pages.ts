// Browser-facing stand-in pages: the e-signing page the signatures call points to, and the log-in, FAQ, privacy and
// app pages npm start links to (the overview page the journey's success URL targets is the bank site's, sandbox/bankSite.ts).
import express from 'express';
import { html, page } from './html.ts';
import type { SandboxContext, SignatureSession } from './state.ts';

/** The external pages the sandbox stands in for: path, title, what would be there. */
export const standIns = [
  ['/sandbox/home', 'Home page', "In production this is the bank's public website, where the logo and the close button (×) of the journey lead."],
  ['/sandbox/login', 'Log in', "In production this is the bank's log-in page, where an existing customer logs in to the internet bank."],
  ['/sandbox/faq', 'Frequently asked questions', "In production this is the bank's help centre with the answers to common questions about opening an account."],
  ['/sandbox/privacy', 'Privacy', 'In production this is the privacy notice: how the bank handles personal data and the rights the customer has.'],
  [
    '/sandbox/get-started',
    'Get started',
    "In production this is the market's get-started page on the public website, where the journey sends a visitor whose return address (clientUrl) was not one of its own pages.",
  ],
  ['/sandbox/app', 'The app', "In production this is a universal link that opens the bank's app, or its page in the app store where the app is not installed."],
] as const;

export function pagesRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();
  const { state } = ctx;

  const notFound = (res: express.Response) =>
    res
      .status(404)
      .type('html')
      .send(page('Signing not found', html`<p>This signing link is unknown or the sandbox was reset.</p>`));

  /** Why the order can no longer be answered (signed already, or past the signing lifetime), or null. */
  const closedBecause = (signature: SignatureSession): string | null => {
    if (signature.signed) return 'These agreements are signed.';
    if (signature.createdAt !== undefined && Date.now() - signature.createdAt >= ctx.signingLifetimeMs) return 'This signing order has expired.';
    return null;
  };

  // A signed order points on to where signing returns; any other closed order back to start the signing again.
  const closed = (res: express.Response, signature: SignatureSession, why: string) =>
    res
      .status(410)
      .type('html')
      .send(
        signature.signed
          ? page('Signing closed', html`<p>${why}</p><p><a href="${signature.completeUrl}">Continue</a></p>`)
          : page('Signing closed', html`<p>${why} Go back and start the signing again.</p><p><a href="${signature.postponeUrl}">Back</a></p>`),
      );

  // Sign, Postpone and Cancel, as a signing service offers them, each returning the browser to the URL the
  // signature request gave for it (complete_url, postpone_url, cancel_url). A signed order is over; an order
  // older than the signing lifetime (SandboxOptions.signingLifetimeMs) has expired and can no longer be answered.
  // Cancel and Postpone leave the order as it was: that the web asks for a new one is the web's to do.
  router.get('/sandbox/signing/:signatureId', (req, res) => {
    const signature = state.signatures.get(req.params.signatureId);
    const prospect = signature && state.prospects.get(signature.prospectId);
    if (!signature || !prospect) return notFound(res);
    const why = closedBecause(signature);
    if (why) return closed(res, signature, why);
    const action = `/sandbox/signing/${encodeURIComponent(signature.id)}`;
    res.type('html').send(
      page(
        'Sign the agreements',
        html`<p>${prospect.owner.name} is about to sign the customer agreements for these accounts:</p>
<ul>${(prospect.accountTypes ?? []).map((code) => html`<li>${code}</li>`)}</ul>
<form method="post" action="${action}/sign"><button type="submit">Sign</button></form>
<form method="post" action="${action}/postpone"><button type="submit">Postpone</button></form>
<form method="post" action="${action}/cancel"><button type="submit">Cancel</button></form>`,
      ),
    );
  });

  // Every answer leaves the sandbox with 303 so the browser follows with GET, like a real e-signing service.
  router.post('/sandbox/signing/:signatureId/sign', (req, res) => {
    const signature = state.signatures.get(req.params.signatureId);
    const prospect = signature && state.prospects.get(signature.prospectId);
    if (!signature || !prospect) return notFound(res);
    // Signing a signed order again (a double click, Back and Sign) returns as the first time did.
    const why = signature.signed ? null : closedBecause(signature);
    if (why) return closed(res, signature, why);
    prospect.signed = true;
    signature.signed = true;
    res.redirect(303, signature.completeUrl);
  });

  for (const answer of ['cancel', 'postpone'] as const) {
    router.post(`/sandbox/signing/:signatureId/${answer}`, (req, res) => {
      const signature = state.signatures.get(req.params.signatureId);
      if (!signature) return notFound(res);
      const why = closedBecause(signature);
      if (why) return closed(res, signature, why);
      res.redirect(303, answer === 'cancel' ? signature.cancelUrl : signature.postponeUrl);
    });
  }

  // Stand-ins for the pages the journey links to that live outside it in production (LOGIN_URL, FAQ_URL,
  // PRIVACY_URL; npm start points them here, sandbox/devServer.ts), so a newcomer sees where each link goes.
  for (const [path, title, text] of standIns) {
    router.get(path, (_req, res) => {
      res.type('html').send(page(title, html`<p>${text}</p><p>This sandbox page stands in for it under npm start.</p>`));
    });
  }

  return router;
}
