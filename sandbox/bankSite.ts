// A stand-in of the bank's own site, where a created customer arrives logged in (identification-routing-creation §4).
// Continue sends the browser to the hand-off address (BANK_SITE_URL + /login/handoff) with the login's one-time code;
// the site redeems it once, keeps the customer in a cookie session of its own and moves on to the return path without
// the code. Its pages (the overview SUCCESS_URL points at, its home) say who is logged in, the national id masked; a
// refused hand-off (unknown, used, expired) says so and logs nobody in.
import { randomBytes } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { loginHandoffCode } from '../shared/contracts/brokerageContract.ts';
import { redeemLoginHandoff, type HandoffRefusal } from './afterCreation.ts';
import { html, page } from './html.ts';
import type { BankSiteSession, SandboxContext } from './state.ts';

export const BANK_SITE_BASE = '/sandbox/bank-site';
export const BANK_SITE_HANDOFF_PATH = `${BANK_SITE_BASE}/login/handoff`;
const COOKIE = 'sandbox_bank_site';
// The whole sandbox path: the overview page (/sandbox/overview) is on the bank's site too.
const COOKIE_PATH = '/sandbox';

const handoffQuery = z.object({ code: loginHandoffCode, returnTo: z.string().max(2000).optional() });

const refusalTexts: Record<HandoffRefusal | 'malformed', string> = {
  malformed: 'The log-in link has no valid hand-off code.',
  unknown: 'The log-in link is unknown.',
  used: 'The log-in link has already been used.',
  expired: 'The log-in link has expired.',
};

/** The national id with its last four characters hidden, as a bank site shows who is logged in. */
export const maskNationalId = (nationalId: string): string => `${nationalId.slice(0, -4)}****`;

function sessionOf(req: Request, ctx: SandboxContext): BankSiteSession | undefined {
  const value = /(?:^|;\s*)sandbox_bank_site=([A-Za-z0-9_-]+)/.exec(req.get('cookie') ?? '')?.[1];
  return value ? ctx.state.bankSiteSessions.get(value) : undefined;
}

/** Who is logged in, in words and in a machine-readable attribute (data-logged-in). */
function loginStatus(session: BankSiteSession | undefined) {
  return session
    ? html`<p class="login-status" data-logged-in="true">Logged in as ${session.givenName} ${session.surname} (${maskNationalId(session.nationalId)})</p>`
    : html`<p class="login-status" data-logged-in="false">Not logged in</p>`;
}

/** A return path on this site only (one leading slash); anything else goes to the site's home. */
function returnPathOf(returnTo: string | undefined, ctx: SandboxContext): string {
  if (!returnTo || !/^\/(?![/\\])/.test(returnTo) || /[\s\\]/.test(returnTo)) return BANK_SITE_BASE;
  const url = new URL(returnTo, ctx.publicUrl);
  return url.origin === new URL(ctx.publicUrl).origin ? `${url.pathname}${url.search}${url.hash}` : BANK_SITE_BASE;
}

export function bankSiteRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();

  const refuse = (res: Response, why: HandoffRefusal | 'malformed') =>
    res
      .status(400)
      .type('html')
      .send(page('Log-in refused', html`<p>${refusalTexts[why]}</p>${loginStatus(undefined)}<p><a href="${BANK_SITE_BASE}">Bank site home</a></p>`));

  // The hand-off: a GET, as the browser arrives by redirect; the code is good once, so a replay changes nothing.
  router.get(BANK_SITE_HANDOFF_PATH, (req, res) => {
    // The address carries a credential until it is redeemed: not cached, not passed on as a referrer.
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    const query = handoffQuery.safeParse(req.query);
    if (!query.success) return refuse(res, 'malformed');
    const redeemed = redeemLoginHandoff(ctx.state, query.data.code);
    if ('refused' in redeemed) return refuse(res, redeemed.refused);
    const id = randomBytes(24).toString('base64url');
    ctx.state.bankSiteSessions.set(id, redeemed.customer);
    res.cookie(COOKIE, id, { httpOnly: true, sameSite: 'lax', path: COOKIE_PATH });
    res.redirect(303, returnPathOf(query.data.returnTo, ctx));
  });

  router.get(BANK_SITE_BASE, (req, res) => {
    res.type('html').send(page('Bank site', html`${loginStatus(sessionOf(req, ctx))}<p>This sandbox page stands in for the bank's own website.</p>`));
  });

  // The overview the journey's success URL points at under npm start and in the tests.
  router.get('/sandbox/overview', (req, res) => {
    res.type('html').send(page('Overview', html`${loginStatus(sessionOf(req, ctx))}<p>This is the sandbox overview page the journey ends on.</p>`));
  });

  return router;
}
