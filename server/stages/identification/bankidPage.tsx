// Swedish BankID identification (identification-routing-creation §2 "Identification screens", §4). The server is the
// RP: only the person's click (a POST; each order costs the bank money) creates an order, QR or SAME_DEVICE; page views
// and the status poll collect it on the browser's behalf (animated QR data, the app's launch URL) and on completion open
// a brokerage session. The order lives in the session that made it; a start cancels the running one and counts against
// the start limits (server/infra/rateLimits.ts). Phones and tablets first choose this device or QR (shared/device.ts).
import type { Request } from 'express';
import { z, type ZodType } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { completeIdentification } from './identified.ts';
import { journeyOf, peekJourney, publicOriginOf, translatorFor } from '../../pages.ts';
import { definePage, json, page, redirect, type Outcome, type Page } from '../../pageKit/definePage.ts';
import type { BankidFailure, Journey } from '../../journey.ts';
import { bankidErrorCode } from '../../upstream/bankidClient.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { errorCodeMessage, failedHintMessage, ipMismatchMessage, pendingHintMessage } from '../../../shared/bankidHints.ts';
import { bankidLaunchUrl } from '../../../shared/bankidLaunch.ts';
import { deviceFromUserAgent, offersDeviceChoice, type Device } from '../../../shared/device.ts';
import { identificationErrorForStatus } from '../../../shared/routing.ts';
import { qrData, qrSvg } from './qrData.ts';
import { routes } from '../../../shared/routes.ts';
import { BankidBackButton, BankidChoicePage, BankidPage } from '../../../views/pages/BankidPageView.tsx';
import type { BankidQrProps } from '../../../views/components/BankidQrStatus.tsx';
import type { BankidQrStatus } from '../../../shared/bankidQr.ts';

/**
 * QR orders are re-created up to 2 times after a polling failure (identification-routing-creation §4
 * step 4); same-device orders are not. A re-creation continues the attempt the person started with a
 * click, and counts against the start limits like any order.
 */
export const MAX_QR_RECREATIONS = 2;

type BankidMode = 'QR' | 'SAME_DEVICE';

/** Over the start limits: wait a minute, then Try again. */
const tooManyStarts: BankidFailure = { messageKey: 'TOO_MANY_STARTS', retry: true };
/** The start limits could not be checked (Redis unreachable): the start is refused, Try again offered. */
const limitsUnavailable: BankidFailure = { messageKey: 'RFA_5', retry: true };

/** IPv4 clients show up as IPv4-mapped IPv6 on dual-stack sockets; compare and send the plain address. */
export function plainIp(raw: string | undefined): string {
  const ip = raw ?? '127.0.0.1';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}

function deviceOf(req: Request): Device {
  return deviceFromUserAgent(req.get('user-agent') ?? '', req.get('sec-ch-ua-mobile'));
}

/** The running order's mode, else the visitor's choice, else QR on a desktop; undefined asks (choice screen). */
function modeOf(req: Request, journey: Readonly<Journey>): BankidMode | undefined {
  return journey.bankid?.mode ?? journey.bankidMode ?? (offersDeviceChoice(deviceOf(req)) ? undefined : 'QR');
}

/**
 * Creates an order at BankID once the start limits allow it. Answers the failure to show when no order
 * was created; the caller has already cancelled or dropped any earlier order of the session.
 */
async function startOrder(req: Request, deps: AppDeps, journey: Journey, mode: BankidMode, recreations: number): Promise<BankidFailure | null> {
  const verdict = await deps.bankidStarts.take({ ip: plainIp(req.ip), sessionId: req.sessionID });
  if (verdict === 'limited') {
    deps.logger.info({ mode }, 'bankid order start refused: over the start limits');
    return tooManyStarts;
  }
  if (verdict === 'unavailable') {
    deps.logger.warn({ mode }, 'bankid order start refused: the start limits could not be checked');
    return limitsUnavailable;
  }
  // RP API v6.0 takes returnUrl for orders started with the autostart token only. In the native app's
  // webview the launch URL's redirect returns to the app instead: a returnUrl would open the system browser.
  const returnUrl = mode === 'SAME_DEVICE' && !journey.webview ? `${publicOriginOf(req, deps)}${routes.start}` : undefined;
  try {
    const order = await deps.bankid.auth({ endUserIp: plainIp(req.ip), ...(returnUrl ? { returnUrl } : {}) });
    journey.bankid = { ...order, startedAt: deps.now(), mode, recreations, status: 'pending', hintCode: 'outstandingTransaction' };
    delete journey.bankidFailure;
    return null;
  } catch (err) {
    deps.logger.warn({ err, errorCode: bankidErrorCode(err) }, 'bankid auth failed');
    const m = errorCodeMessage(bankidErrorCode(err));
    return { messageKey: m.key, retry: m.retry };
  }
}

/** Cancels the session's running order at BankID and forgets it (and any failure shown). */
async function cancelOrder(deps: AppDeps, journey: Journey): Promise<void> {
  if (journey.bankid?.status === 'pending') {
    await deps.bankid.cancel(journey.bankid.orderRef).catch((err: Error) => deps.logger.warn({ err }, 'bankid cancel failed'));
  }
  delete journey.bankid;
  delete journey.bankidFailure;
}

/** The person's click starts an order in `mode`: the running one is cancelled first, so only one lives. */
async function startByPerson(req: Request, deps: AppDeps, journey: Journey, mode: BankidMode): Promise<void> {
  await cancelOrder(deps, journey);
  const failure = await startOrder(req, deps, journey, mode, 0);
  if (failure) journey.bankidFailure = failure;
}

/**
 * Private was chosen (a POST): where no further choice is needed (a desktop gets the QR code directly),
 * the order starts now; phones and tablets get the device choice, whose buttons start it.
 */
export async function startBankidOnPrivateChoice(req: Request, deps: AppDeps, journey: Journey): Promise<void> {
  const mode = modeOf(req, journey);
  if (mode) await startByPerson(req, deps, journey, mode);
}

/** One step of the session's order (it has one, or a failure): collect it and answer what the browser should show. */
async function advanceOrder(req: Request, deps: AppDeps, journey: Journey): Promise<BankidQrStatus> {
  const t = translatorFor(req, deps);
  const failedView = (): BankidQrStatus => {
    // Without an order or a failure there is nothing to show but an unknown error (callers check first).
    const failure = journey.bankidFailure ?? { messageKey: 'RFA_22', retry: true };
    return {
      state: 'failed',
      qrSvg: null,
      showSpinner: false,
      message: t(`bankid.${failure.messageKey}`),
      retry: failure.retry ? { url: routes.bankidRetry, label: t('bankid.tryAgain') } : null,
    };
  };

  if (journey.bankidFailure || !journey.bankid) return failedView();
  const order = journey.bankid;
  if (order.status === 'complete')
    return { state: 'complete', qrSvg: null, showSpinner: true, message: t('bankid.signingIn'), retry: null, next: routes.routing };

  let collected;
  try {
    collected = await deps.bankid.collect(order.orderRef);
  } catch (err) {
    deps.metrics?.bankidResult('collectError');
    return recreateOrFail(req, deps, journey, errorCodeMessage(bankidErrorCode(err)), failedView, 'collect failed');
  }

  if (collected.status === 'failed') {
    deps.metrics?.bankidResult('failed', collected.hintCode);
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
    if (order.mode === 'SAME_DEVICE') {
      const url = bankidLaunchUrl({
        autoStartToken: order.autoStartToken,
        device: deviceOf(req),
        webview: journey.webview,
        nativeAppReturnUrl: deps.config.NATIVE_APP_RETURN_URL,
      });
      // The app is started once the order waits for it (identification-routing-creation §2 "Same-device view").
      return {
        state: 'pending',
        qrSvg: null,
        showSpinner: false,
        message,
        retry: null,
        launch: { url, label: t('bankid.sameDevice.open') },
        autoLaunch: collected.hintCode === 'outstandingTransaction',
      };
    }
    // After the scan the QR is replaced by a spinner with the sign-in text (identification-routing-creation §2 "QR view").
    if (collected.hintCode === 'userSign') return { state: 'pending', qrSvg: null, showSpinner: true, message, retry: null };
    return { state: 'pending', qrSvg: await qrSvg(qrData(order, deps.now())), showSpinner: false, message, retry: null };
  }

  // complete. On this device the app runs where the browser runs, so BankID must have seen the same
  // address; a difference means someone else's device completed the order (a relayed autostart link).
  // With the QR code the phone has its own address, so the check only applies to same-device orders.
  if (order.mode === 'SAME_DEVICE' && plainIp(collected.completionData.device.ipAddress) !== plainIp(req.ip)) {
    deps.logger.warn({ mode: order.mode }, 'bankid order completed from another IP address than the browser; identification refused');
    deps.metrics?.bankidResult('ipMismatch');
    journey.bankidFailure = { messageKey: ipMismatchMessage.key, retry: ipMismatchMessage.retry };
    delete journey.bankid;
    return failedView();
  }
  order.status = 'complete';
  delete order.hintCode;
  deps.metrics?.bankidResult('complete');
  let jwt: string;
  let refreshToken: string;
  try {
    ({ refreshToken } = await deps.brokerage.createBankidSession(order.orderRef));
    jwt = (await deps.brokerage.refreshToken(refreshToken)).jwt;
  } catch (err) {
    const status = err instanceof UpstreamError ? err.status : 0;
    deps.logger.warn({ status }, 'brokerage session after BankID failed');
    journey.identificationError = identificationErrorForStatus(status);
    return { state: 'complete', qrSvg: null, showSpinner: true, message: t('bankid.signingIn'), retry: null, next: routes.start };
  }
  const { personalNumber, givenName, surname } = collected.completionData.user;
  const names = givenName.trim() && surname.trim() ? { names: { givenName, surname } } : {};
  await completeIdentification(req, deps, journey, { natregno: personalNumber, ...names, jwt, refreshToken });
  return { state: 'complete', qrSvg: null, showSpinner: true, message: t('bankid.signingIn'), retry: null, next: routes.routing };
}

async function recreateOrFail(
  req: Request,
  deps: AppDeps,
  journey: Journey,
  message: { key: string; retry: boolean },
  failedView: () => BankidQrStatus,
  reason: string,
): Promise<BankidQrStatus> {
  const order = journey.bankid!;
  // The order has ended at BankID (expired, or its collect failed): nothing to cancel.
  delete journey.bankid;
  const limit = order.mode === 'QR' ? MAX_QR_RECREATIONS : 0;
  if (order.recreations < limit) {
    deps.logger.info({ recreation: order.recreations + 1, reason }, 'bankid order re-created');
    // Refused (limits, BankID down): the failure that ended this order is the one to show.
    if (!(await startOrder(req, deps, journey, order.mode, order.recreations + 1))) return advanceOrder(req, deps, journey);
  }
  journey.bankidFailure = { messageKey: message.key, retry: message.retry };
  return failedView();
}

/** The BankID screen of GET /onboarding (also HEAD and prefetches): collects the session's order, never starts one. */
export async function bankidIdentification(req: Request, deps: AppDeps): Promise<Outcome> {
  const journey = journeyOf(req, deps);
  const t = translatorFor(req, deps);
  const header = <BankidBackButton t={t} action={routes.bankidCancel} />;
  if (!journey.bankid && !journey.bankidFailure) {
    // No order: the screen whose buttons start one (a POST, made by the person). A desktop normally
    // never sees it, since choosing Private started its QR order; it shows if that order is gone.
    return page({
      progress: 1,
      header,
      funnel: { step: 'identification', screen: 'bankidDeviceChoice' },
      body: <BankidChoicePage t={t} action={routes.bankidMode} />,
    });
  }
  const status = await advanceOrder(req, deps, journey);
  if (status.next) return redirect(status.next);
  const mode = modeOf(req, journey) ?? 'QR';
  const qr: BankidQrProps = {
    statusUrl: routes.bankidStatus,
    pollMs: deps.config.BANKID_POLL_MS,
    qrSvg: status.qrSvg,
    message: status.message,
    state: status.state,
    retry: status.retry,
    showSpinner: status.showSpinner,
    launch: status.launch ?? null,
    autoLaunch: status.autoLaunch ?? false,
    labels: { qrAlt: t('bankid.qrAlt'), signingIn: t('bankid.signingIn') },
  };
  return page({
    progress: 1,
    header,
    funnel: { step: 'identification', screen: mode === 'QR' ? 'bankidQr' : 'bankidSameDevice' },
    // Without JavaScript the page itself polls: a new QR every second, then the next page.
    noscriptRefreshSeconds: status.state === 'pending' ? 1 : undefined,
    body: <BankidPage t={t} qr={qr} mode={mode} modeAction={routes.bankidMode} />,
  });
}

/** Identification by BankID may run: a Swedish private applicant. */
function bankidApplies(journey: Readonly<Journey>): boolean {
  return journey.customerType === 'private' && journey.country === 'SE';
}

/** Choosing another customer type (or Private afresh) ends the session's BankID attempt and its order. */
export async function endBankidAttempt(deps: AppDeps, journey: Journey): Promise<void> {
  await cancelOrder(deps, journey);
  delete journey.bankidMode;
}

/** The page's poll: collects the session's order; with none there is nothing to poll (409). */
const bankidStatusPage = definePage({
  route: 'bankidStatus',
  access: 'anyone',
  // Collecting moves the order on (re-created, failed, complete): the poll takes its turn with the page's posts.
  session: 'writes',
  get: async ({ req, deps }) => {
    const peeked = peekJourney(req, deps);
    if (!bankidApplies(peeked) || (!peeked.bankid && !peeked.bankidFailure)) return json({ error: 'No identification in progress' }, 409);
    return json(await advanceOrder(req, deps, journeyOf(req, deps)));
  },
});

/** A post of the BankID screens: it changes the session's journey (`act`), then the start page shows where that leads. */
function bankidPost<R extends 'bankidRetry' | 'bankidMode' | 'bankidCancel', B>(
  route: R,
  body: ZodType<B>,
  act: (req: Request, deps: AppDeps, journey: Journey, body: B) => Promise<void>,
): Page {
  return definePage({
    route,
    access: 'anyone',
    session: 'writes',
    post: {
      body,
      invalid: () => redirect(routes.start),
      handle: async ({ req, deps }, parsed) => {
        await act(req, deps, journeyOf(req, deps), parsed);
        return redirect(routes.start);
      },
    },
  });
}

// Retry and Back send nothing but their anti-forgery token.
const noFields = z.unknown();

/** Try again: a new order in the same view (on a phone that has not chosen yet, the choice again). */
const bankidRetryPage = bankidPost('bankidRetry', noFields, async (req, deps, journey) => {
  await cancelOrder(deps, journey);
  const mode = modeOf(req, journey);
  if (bankidApplies(journey) && mode) await startByPerson(req, deps, journey, mode);
});

/** The choice screen's buttons and the QR view's "this device" button: the running order is cancelled and one in the chosen mode starts. */
const bankidModePage = bankidPost('bankidMode', z.object({ mode: z.enum(['QR', 'SAME_DEVICE']) }), async (req, deps, journey, { mode }) => {
  if (!bankidApplies(journey)) return;
  journey.bankidMode = mode;
  await startByPerson(req, deps, journey, mode);
});

/** Back: cancel the order at BankID and return to the customer type choice (type none). */
const bankidCancelPage = bankidPost('bankidCancel', noFields, async (_req, deps, journey) => {
  await cancelOrder(deps, journey);
  delete journey.bankidMode;
  journey.customerType = 'none';
});

export const bankidPages = [bankidStatusPage, bankidRetryPage, bankidModePage, bankidCancelPage];
