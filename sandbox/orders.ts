// BankID order lifecycle shared by the RP API (what the relying party sees) and the test app (what the phone does).
import { randomBytes, randomUUID } from 'node:crypto';
import type { BankidCollectResponse } from '../shared/contracts/bankidContract.ts';
import { findPersona, type Persona } from './personas.ts';
import type { BankidOrder, SandboxContext, SandboxState } from './state.ts';

/** Expiry is applied lazily whenever an order is looked at, so no timers are needed. */
export function settleExpiry(order: BankidOrder, now = Date.now()): BankidOrder {
  if (order.status === 'pending' && now >= order.expiresAt) {
    order.status = 'failed';
    order.hintCode = 'expiredTransaction';
  }
  return order;
}

export function createOrder(
  ctx: SandboxContext,
  input: { endUserIp: string; returnUrl?: string; requiredPersonalNumber?: string },
  now = Date.now(),
): BankidOrder {
  const required = input.requiredPersonalNumber ? findPersona(input.requiredPersonalNumber) : undefined;
  const order: BankidOrder = {
    orderRef: randomUUID(),
    autoStartToken: randomUUID(),
    qrStartToken: randomUUID(),
    qrStartSecret: randomUUID(),
    endUserIp: input.endUserIp,
    ...(input.returnUrl ? { returnUrl: input.returnUrl } : {}),
    ...(input.requiredPersonalNumber ? { requiredPersonalNumber: input.requiredPersonalNumber } : {}),
    createdAt: now,
    expiresAt: now + (required?.behaviour.bankidOrderLifetimeMs ?? ctx.orderLifetimeMs),
    status: 'pending',
    hintCode: 'outstandingTransaction',
  };
  ctx.state.orders.set(order.orderRef, order);
  return order;
}

/** Orders the test app can still act on: pending and not expired, oldest first. */
export function waitingOrders(state: SandboxState, now = Date.now()): BankidOrder[] {
  return [...state.orders.values()]
    .map((o) => settleExpiry(o, now))
    .filter((o) => o.status === 'pending')
    .sort((a, b) => a.createdAt - b.createdAt);
}

export type AppAction = 'scan' | 'identify' | 'cancel';

export type AppActionResult = { ok: true; order: BankidOrder } | { ok: false; status: 400 | 404 | 409; message: string };

/**
 * What the user does in the BankID app. "scan" opens the order (hint userSign), "identify" also confirms it
 * (complete), "cancel" rejects it (userCancel). Personas whose orders always expire only ever get to userSign.
 */
export function actOnOrder(
  state: SandboxState,
  orderRef: string,
  action: AppAction,
  nationalId: string | undefined,
  ip: string,
  now = Date.now(),
): AppActionResult {
  const order = state.orders.get(orderRef);
  if (!order) return { ok: false, status: 404, message: 'No such order' };
  settleExpiry(order, now);
  if (order.status !== 'pending') {
    return { ok: false, status: 409, message: `The order is no longer waiting (${order.status}, ${order.hintCode})` };
  }
  if (action === 'cancel') {
    order.status = 'failed';
    order.hintCode = 'userCancel';
    return { ok: true, order };
  }

  const persona = nationalId ? findPersona(nationalId) : undefined;
  if (!persona) return { ok: false, status: 400, message: 'Choose one of the sandbox personas' };
  if (persona.country !== 'SE') return { ok: false, status: 400, message: 'Only Swedish personas have Swedish BankID' };
  if (order.requiredPersonalNumber && order.requiredPersonalNumber !== persona.nationalId) {
    return { ok: false, status: 400, message: 'This order was started for another personal number' };
  }

  order.persona = persona;
  order.hintCode = 'userSign';
  const lifetime = persona.behaviour.bankidOrderLifetimeMs;
  if (lifetime !== undefined) {
    // This persona never confirms; the order runs out a short time after it was created.
    order.expiresAt = Math.min(order.expiresAt, order.createdAt + lifetime);
    settleExpiry(order, now);
    return { ok: true, order };
  }
  if (action === 'identify') {
    order.status = 'complete';
    order.identifiedFromIp = ip;
    order.completedAt = now;
  }
  return { ok: true, order };
}

/** Answer of POST /rp/v6.0/collect for the order's current state. */
export function collectResponse(order: BankidOrder): BankidCollectResponse {
  if (order.status === 'complete' && order.persona) {
    return { orderRef: order.orderRef, status: 'complete', completionData: completionData(order, order.persona) };
  }
  if (order.status === 'failed') return { orderRef: order.orderRef, status: 'failed', hintCode: order.hintCode };
  return { orderRef: order.orderRef, status: 'pending', hintCode: order.hintCode };
}

function completionData(order: BankidOrder, persona: Persona) {
  // The sandbox's app runs on the visitor's own machine, so the device address BankID reports is the
  // endUserIp the RP gave in /auth (what real BankID reports for a same-device order). The RP compares it
  // with the browser's address.
  const ipAddress = order.endUserIp;
  return {
    user: {
      personalNumber: persona.nationalId,
      name: persona.name,
      givenName: persona.givenName,
      surname: persona.surname,
    },
    device: { ipAddress },
    // A stable issue date per persona: the year they turned 18 or 2019, whichever is later.
    bankIdIssueDate: `${Math.max(2019, Number(persona.birthDate.slice(0, 4)) + 18)}-03-15`,
    signature: Buffer.from(signatureXml(order, persona, ipAddress), 'utf8').toString('base64'),
    ocspResponse: randomBytes(96).toString('base64'),
  };
}

const xmlEscape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** Shape of a real BankID XML-DSig signature (bankIdSignedData), with sandbox values. */
function signatureXml(order: BankidOrder, persona: Persona, ipAddress: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">',
    '<SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>',
    '<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/></SignedInfo>',
    `<SignatureValue>${randomBytes(64).toString('base64')}</SignatureValue>`,
    '<Object><bankIdSignedData xmlns="http://www.bankid.com/signature/v1.0.0/types" Id="bidSignedData">',
    `<srvInfo><nonce>${xmlEscape(order.orderRef)}</nonce></srvInfo>`,
    '<clientInfo><funcId>Identification</funcId>',
    `<host><hostName>sandbox</hostName><hostIP>${xmlEscape(ipAddress)}</hostIP></host>`,
    `<subject>${xmlEscape(persona.name)}</subject>`,
    '</clientInfo></bankIdSignedData></Object></Signature>',
  ].join('');
}

/** IPv4 clients show up as IPv4-mapped IPv6 on dual-stack sockets; BankID reports the plain address. */
export function clientIp(raw: string | undefined): string {
  const ip = raw ?? '127.0.0.1';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}
