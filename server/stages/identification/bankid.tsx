// Swedish BankID identification (spec §4 "Identification (Swedish BankID)"). The server is the RP:
// it creates the order, collects it every second on the browser's behalf, derives the animated QR
// data, and on completion opens a brokerage session for the person. The order lives in the session
// that created it, so nobody else can collect it.
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../deps.ts';
import { journeyOf, sendPage, translatorFor } from '../../pages.ts';
import type { Journey } from '../../journey.ts';
import { bankidErrorCode } from '../../upstream/bankid.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { errorCodeMessage, failedHintMessage, pendingHintMessage } from '../../../shared/bankidHints.ts';
import { identificationErrorForStatus } from '../../../shared/routing.ts';
import { qrData, qrSvg } from './qrData.ts';
import { BankidPage } from '../../../views/pages/BankidPage.tsx';
import type { BankidQrProps } from '../../../client/islands/bankidQr.tsx';

/** QR orders are re-created up to 2 times after a polling failure; same-device orders are not. */
export const MAX_QR_RECREATIONS = 2;

type BankidStatus = Omit<BankidQrProps, 'statusUrl' | 'pollMs' | 'labels'> & { next?: string };

const statusUrl = '/onboarding/identification/bankid/status';
const retryUrl = '/onboarding/identification/bankid/retry';
const cancelUrl = '/onboarding/identification/bankid/cancel';

async function startOrder(req: Request, deps: AppDeps, journey: Journey, recreations: number): Promise<void> {
  const order = await deps.bankid.auth({ endUserIp: req.ip ?? '127.0.0.1' });
  journey.bankid = { ...order, startedAt: deps.now(), mode: 'QR', recreations, status: 'pending', hintCode: 'outstandingTransaction' };
  delete journey.bankidFailure;
}

function regenerateSession(req: Request): Promise<void> {
  const journey = req.session.journey;
  return new Promise((resolve, reject) =>
    req.session.regenerate((err) => {
      if (err) return reject(err);
      req.session.journey = journey;
      resolve();
    }),
  );
}

/** One step of the order: create it if needed, collect it, and answer what the browser should show. */
async function advanceOrder(req: Request, deps: AppDeps): Promise<BankidStatus> {
  const journey = journeyOf(req, deps);
  const t = translatorFor(req, deps);
  const failedView = (): BankidStatus => ({
    state: 'failed',
    qrSvg: null,
    showSpinner: false,
    message: t(`bankid.${journey.bankidFailure!.messageKey}`),
    retry: journey.bankidFailure!.retry ? { url: retryUrl, label: t('bankid.tryAgain') } : null,
  });

  if (journey.bankidFailure) return failedView();
  if (journey.bankid?.status === 'complete') return { state: 'complete', qrSvg: null, showSpinner: true, message: t('bankid.signingIn'), retry: null, next: '/onboarding/routing' };

  try {
    if (!journey.bankid) await startOrder(req, deps, journey, 0);
  } catch (err) {
    deps.logger.warn({ err: { message: (err as Error).message }, errorCode: bankidErrorCode(err) }, 'bankid auth failed');
    const m = errorCodeMessage(bankidErrorCode(err));
    journey.bankidFailure = { messageKey: m.key, retry: m.retry };
    return failedView();
  }
  const order = journey.bankid!;

  let collected;
  try {
    collected = await deps.bankid.collect(order.orderRef);
  } catch (err) {
    return recreateOrFail(req, deps, journey, errorCodeMessage(bankidErrorCode(err)), failedView, 'collect failed');
  }

  if (collected.status === 'failed') {
    if (collected.hintCode === 'expiredTransaction') {
      return recreateOrFail(req, deps, journey, failedHintMessage(collected.hintCode, order.mode), failedView, 'order expired');
    }
    const m = failedHintMessage(collected.hintCode, order.mode);
    journey.bankidFailure = { messageKey: m.key, retry: m.retry };
    delete journey.bankid;
    return failedView();
  }

  if (collected.status === 'pending') {
    order.hintCode = collected.hintCode;
    const message = t(`bankid.${pendingHintMessage(collected.hintCode, order.mode).key}`);
    // After the scan the QR is replaced by a spinner with the sign-in text (§2 "QR view").
    if (collected.hintCode === 'userSign') return { state: 'pending', qrSvg: null, showSpinner: true, message, retry: null };
    return { state: 'pending', qrSvg: await qrSvg(qrData(order, deps.now())), showSpinner: false, message, retry: null };
  }

  // complete
  journey.natregno = collected.completionData.user.personalNumber;
  order.status = 'complete';
  delete order.hintCode;
  try {
    const { refreshToken } = await deps.brokerage.createBankidSession(order.orderRef);
    journey.jwt = (await deps.brokerage.refreshToken(refreshToken)).jwt;
  } catch (err) {
    const status = err instanceof UpstreamError ? err.status : 0;
    deps.logger.warn({ status }, 'brokerage session after BankID failed');
    journey.identificationError = identificationErrorForStatus(status);
    return { state: 'complete', qrSvg: null, showSpinner: true, message: t('bankid.signingIn'), retry: null, next: '/onboarding' };
  }
  // A fresh session id after identification prevents session fixation.
  await regenerateSession(req);
  return { state: 'complete', qrSvg: null, showSpinner: true, message: t('bankid.signingIn'), retry: null, next: '/onboarding/routing' };
}

async function recreateOrFail(
  req: Request,
  deps: AppDeps,
  journey: Journey,
  message: { key: string; retry: boolean },
  failedView: () => BankidStatus,
  reason: string,
): Promise<BankidStatus> {
  const order = journey.bankid!;
  const limit = order.mode === 'QR' ? MAX_QR_RECREATIONS : 0;
  if (order.recreations < limit) {
    deps.logger.info({ recreation: order.recreations + 1, reason }, 'bankid order re-created');
    try {
      await startOrder(req, deps, journey, order.recreations + 1);
      return advanceOrder(req, deps);
    } catch {
      // fall through to the failure below
    }
  }
  journey.bankidFailure = { messageKey: message.key, retry: message.retry };
  delete journey.bankid;
  return failedView();
}

export async function renderBankidIdentification(req: Request, res: Response, deps: AppDeps): Promise<void> {
  const status = await advanceOrder(req, deps);
  if (status.next) {
    res.redirect(303, status.next);
    return;
  }
  const t = translatorFor(req, deps);
  const qr: BankidQrProps = {
    statusUrl,
    pollMs: deps.config.BANKID_POLL_MS,
    qrSvg: status.qrSvg,
    message: status.message,
    state: status.state,
    retry: status.retry,
    showSpinner: status.showSpinner,
    labels: { qrAlt: t('bankid.qrAlt'), signingIn: t('bankid.signingIn') },
  };
  sendPage(req, res, deps, {
    progress: 1,
    // Without JavaScript the page itself polls: a new QR every second, then the next page.
    noscriptRefreshSeconds: status.state === 'pending' ? 1 : undefined,
    body: <BankidPage t={t} qr={qr} cancelAction={cancelUrl} />,
  });
}

export function bankidRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get(statusUrl, async (req, res, next) => {
    try {
      const journey = journeyOf(req, deps);
      if (journey.customerType !== 'private') {
        res.status(409).json({ error: 'No identification in progress' });
        return;
      }
      res.set('cache-control', 'no-store').json(await advanceOrder(req, deps));
    } catch (err) {
      next(err);
    }
  });

  router.post(retryUrl, (req, res) => {
    const journey = journeyOf(req, deps);
    delete journey.bankid;
    delete journey.bankidFailure;
    res.redirect(303, '/onboarding');
  });

  // Back: cancel the order at BankID and return to the customer type choice.
  router.post(cancelUrl, async (req, res) => {
    const journey = journeyOf(req, deps);
    if (journey.bankid?.status === 'pending') {
      await deps.bankid.cancel(journey.bankid.orderRef).catch((err: Error) => deps.logger.warn({ err: { message: err.message } }, 'bankid cancel failed'));
    }
    delete journey.bankid;
    delete journey.bankidFailure;
    journey.customerType = 'none';
    res.redirect(303, '/onboarding');
  });

  return router;
}
