// BankID Relying Party API v6.0 (auth, collect, cancel) with the wire behaviour of the real service:
// JSON only (415 otherwise), POST only (405), errors as { errorCode, details }.
import { isIP } from 'node:net';
import express, { type Response } from 'express';
import type { z } from 'zod';
import {
  bankidAuthRequest,
  bankidAuthResponse,
  bankidCancelResponse,
  bankidCollectResponse,
  bankidOrderRefRequest,
  type BankidErrorBody,
  type bankidErrorCodes,
} from '../shared/contracts/bankidContract.ts';
import { collectResponse, createOrder, settleExpiry } from './orders.ts';
import type { SandboxContext } from './state.ts';

export const BANKID_RP_BASE = '/rp/v6.0';

type BankidErrorCode = (typeof bankidErrorCodes)[number];

export function sendBankidError(res: Response, status: number, errorCode: BankidErrorCode, details: string): void {
  const body: BankidErrorBody = { errorCode, details };
  res.status(status).json(body);
}

/** Human-readable summary of a zod failure, used as BankID's `details`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

const KNOWN_OPERATIONS = new Set(['/auth', '/collect', '/cancel']);

export function bankidRpRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();
  const { orders } = ctx.state;

  // Method and media type are checked before anything else, like the real API does.
  router.use((req, res, next) => {
    if (!KNOWN_OPERATIONS.has(req.path)) return sendBankidError(res, 404, 'notFound', `No such operation: ${req.path}`);
    if (req.method !== 'POST') return sendBankidError(res, 405, 'methodNotAllowed', `${req.method} is not allowed`);
    if (!req.is('application/json')) {
      return sendBankidError(res, 415, 'unsupportedMediaType', 'Content-Type must be application/json');
    }
    next();
  });

  router.post('/auth', (req, res) => {
    const parsed = bankidAuthRequest.safeParse(req.body ?? {});
    if (!parsed.success) return sendBankidError(res, 400, 'invalidParameters', describeIssues(parsed.error));
    const { endUserIp, returnUrl, requirement } = parsed.data;
    if (!isIP(endUserIp)) return sendBankidError(res, 400, 'invalidParameters', 'Invalid endUserIp');

    const personalNumber = requirement?.personalNumber;
    if (personalNumber) {
      // Real BankID: a second order for the same person aborts the running one and creates nothing.
      const running = [...orders.values()].find((o) => o.requiredPersonalNumber === personalNumber && settleExpiry(o).status === 'pending');
      if (running) {
        running.status = 'failed';
        running.hintCode = 'cancelled';
        return sendBankidError(res, 400, 'alreadyInProgress', 'Order already in progress for pno');
      }
    }

    const order = createOrder(ctx, {
      endUserIp,
      ...(returnUrl ? { returnUrl } : {}),
      ...(personalNumber ? { requiredPersonalNumber: personalNumber } : {}),
    });
    res.json(
      bankidAuthResponse.parse({
        orderRef: order.orderRef,
        autoStartToken: order.autoStartToken,
        qrStartToken: order.qrStartToken,
        qrStartSecret: order.qrStartSecret,
      }),
    );
  });

  router.post('/collect', (req, res) => {
    const parsed = bankidOrderRefRequest.safeParse(req.body ?? {});
    if (!parsed.success) return sendBankidError(res, 400, 'invalidParameters', describeIssues(parsed.error));
    const order = orders.get(parsed.data.orderRef);
    if (!order) return sendBankidError(res, 400, 'invalidParameters', 'No such order');
    res.json(bankidCollectResponse.parse(collectResponse(settleExpiry(order))));
  });

  router.post('/cancel', (req, res) => {
    const parsed = bankidOrderRefRequest.safeParse(req.body ?? {});
    if (!parsed.success) return sendBankidError(res, 400, 'invalidParameters', describeIssues(parsed.error));
    const order = orders.get(parsed.data.orderRef);
    if (!order) return sendBankidError(res, 400, 'invalidParameters', 'No such order');
    if (settleExpiry(order).status === 'pending') {
      order.status = 'failed';
      order.hintCode = 'cancelled';
    }
    res.json(bankidCancelResponse.parse({}));
  });

  return router;
}
