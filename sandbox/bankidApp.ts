// The test BankID app: stands in for the user's phone. A plain HTML page lists waiting orders and lets a tester
// identify as a Swedish persona, scan only, or cancel; JSON twins of those actions serve automated tests.
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { html, page, type Html } from './html.ts';
import { actOnOrder, clientIp, settleExpiry, waitingOrders, type AppAction } from './orders.ts';
import { swedishPersonas } from './personas.ts';
import type { BankidOrder, SandboxContext } from './state.ts';

export const BANKID_APP_PATH = '/sandbox/bankid/app';

// Sandbox-only request shapes (not upstream wire contracts).
const appFormBody = z.object({
  orderRef: z.string().min(1),
  nationalId: z.string().optional(),
  redirect: z.string().optional(),
});
const appPageQuery = z.object({ autostarttoken: z.string().optional(), redirect: z.string().optional() });
const orderActionBody = z.object({ nationalId: z.string().min(1) });

const ACTIONS: readonly AppAction[] = ['identify', 'scan', 'cancel'];

/**
 * Where to go after an app action. BankID's launch URL uses redirect=null for "stay in the app"; anything other
 * than an http(s) URL or a local path is ignored rather than followed.
 */
function redirectTarget(redirect: string | undefined): string | null {
  if (!redirect || redirect === 'null') return null;
  if (redirect.startsWith('/') && !redirect.startsWith('//')) return redirect;
  try {
    const url = new URL(redirect);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const hintText: Record<string, string> = {
  outstandingTransaction: 'Waiting for the app to open the order',
  userSign: 'Scanned – waiting for the user to confirm',
};

function orderSection(order: BankidOrder, redirect: string | undefined): Html {
  const ref = order.orderRef;
  const selectId = `persona-${ref}`;
  const headingId = `order-${ref}`;
  const candidates = swedishPersonas().filter((p) => !order.requiredPersonalNumber || p.nationalId === order.requiredPersonalNumber);
  const created = new Date(order.createdAt).toISOString().slice(11, 19);
  return html`<section data-order-ref="${ref}" aria-labelledby="${headingId}">
<h2 id="${headingId}">Order started ${created} UTC</h2>
<p>Status: ${hintText[order.hintCode] ?? order.hintCode}. Order reference <code>${ref}</code>.</p>
<form method="post" action="${BANKID_APP_PATH}/identify">
<input type="hidden" name="orderRef" value="${ref}">
${redirect !== undefined ? html`<input type="hidden" name="redirect" value="${redirect}">` : ''}
<label for="${selectId}">Identify as</label>
<select id="${selectId}" name="nationalId">
${candidates.map((p) => html`<option value="${p.nationalId}">${p.name} – ${p.scenario} (${p.nationalId})</option>`)}
</select>
<div>
<button type="submit">Identify</button>
<button type="submit" formaction="${BANKID_APP_PATH}/scan">Scan only</button>
<button type="submit" formaction="${BANKID_APP_PATH}/cancel">Cancel</button>
</div>
</form>
</section>`;
}

function renderAppPage(orders: BankidOrder[], query: z.infer<typeof appPageQuery>): string {
  const sameDevice = query.autostarttoken !== undefined;
  const intro = sameDevice
    ? html`<p>Started on this device. Showing the order for the given start token only.</p>`
    : html`<p>Orders waiting for identification. This page stands in for the BankID app on the phone.</p>`;
  const empty = sameDevice
    ? html`<p>No waiting order matches this start token. It may have expired or been completed.</p>`
    : html`<p>No orders are waiting.</p>`;
  return page(
    'Test BankID app',
    html`${intro}
${orders.length ? orders.map((o) => orderSection(o, query.redirect)) : empty}
<p><a href="${BANKID_APP_PATH}">Refresh the list of orders</a></p>`,
  );
}

function renderActionError(res: Response, status: number, message: string): void {
  res
    .status(status)
    .type('html')
    .send(page('The order could not be updated', html`<p>${message}</p><p><a href="${BANKID_APP_PATH}">Back to the orders</a></p>`));
}

export function bankidAppRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();
  const { state } = ctx;

  router.get(BANKID_APP_PATH, (req, res) => {
    const query = appPageQuery.safeParse(req.query);
    const q = query.success ? query.data : {};
    const orders = waitingOrders(state).filter((o) => q.autostarttoken === undefined || o.autoStartToken === q.autostarttoken);
    res.type('html').send(renderAppPage(orders, q));
  });

  // HTML form posts from the app page: 303 back to the page, or to the launch redirect (same-device flow).
  for (const action of ACTIONS) {
    router.post(`${BANKID_APP_PATH}/${action}`, (req: Request, res: Response) => {
      const form = appFormBody.safeParse(req.body ?? {});
      if (!form.success) return renderActionError(res, 400, 'The form was incomplete. Choose an order and a persona.');
      const result = actOnOrder(state, form.data.orderRef, action, form.data.nationalId, clientIp(req.ip));
      if (!result.ok) return renderActionError(res, result.status, result.message);
      // Once the user is done, the order's returnUrl wins over the launch redirect (BankID v6 behaviour).
      const returnUrl = action !== 'scan' ? redirectTarget(result.order.returnUrl) : null;
      res.redirect(303, returnUrl ?? redirectTarget(form.data.redirect) ?? BANKID_APP_PATH);
    });
  }

  // JSON helpers for tests.
  router.get('/sandbox/bankid/orders', (_req, res) => {
    res.json(waitingOrders(state).map((o) => ({ orderRef: o.orderRef, createdAt: new Date(o.createdAt).toISOString() })));
  });

  // Any order, waiting or not: lets tests check that the RP cancelled or re-created orders.
  router.get('/sandbox/bankid/orders/:orderRef', (req, res) => {
    const found = state.orders.get(req.params.orderRef);
    if (!found) return res.status(404).json({ error: 'No such order' });
    const order = settleExpiry(found);
    res.json({
      orderRef: order.orderRef,
      status: order.status,
      hintCode: order.hintCode,
      autoStartToken: order.autoStartToken,
      returnUrl: order.returnUrl ?? null,
    });
  });

  router.get('/sandbox/bankid/all-orders', (_req, res) => {
    res.json(
      [...state.orders.values()]
        .map((o) => settleExpiry(o))
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((o) => ({
          orderRef: o.orderRef,
          status: o.status,
          hintCode: o.hintCode,
          autoStartToken: o.autoStartToken,
          endUserIp: o.endUserIp,
          createdAt: new Date(o.createdAt).toISOString(),
        })),
    );
  });

  for (const action of ACTIONS) {
    router.post(`/sandbox/bankid/orders/:orderRef/${action}`, (req, res) => {
      let nationalId: string | undefined;
      if (action !== 'cancel') {
        const body = orderActionBody.safeParse(req.body ?? {});
        if (!body.success) return res.status(400).json({ error: 'nationalId is required' });
        nationalId = body.data.nationalId;
      }
      const result = actOnOrder(state, req.params.orderRef, action, nationalId, clientIp(req.ip));
      if (!result.ok) return res.status(result.status).json({ error: result.message });
      res.json({ orderRef: result.order.orderRef, status: result.order.status, hintCode: result.order.hintCode });
    });
  }

  return router;
}
