// Animated QR (BankID RP API v6.0): the data changes every second and is derived server-side from the
// order's qrStartSecret, which never reaches the browser.
import { createHmac } from 'node:crypto';
import QRCode from 'qrcode';

export function qrData(order: { qrStartToken: string; qrStartSecret: string; startedAt: number }, nowMs: number): string {
  const seconds = Math.max(0, Math.floor((nowMs - order.startedAt) / 1000));
  const authCode = createHmac('sha256', order.qrStartSecret).update(String(seconds)).digest('hex');
  return `bankid.${order.qrStartToken}.${seconds}.${authCode}`;
}

/** identification-routing-creation §2: size 144, error correction level Q. */
export function qrSvg(data: string): Promise<string> {
  return QRCode.toString(data, { type: 'svg', errorCorrectionLevel: 'Q', width: 144, margin: 2 });
}
