// The URL that starts the BankID app on the same device (identification-routing-creation §2 "Same-device view"): the
// universal-link form or the bankid:/// scheme by device, and where the app returns to (the native app in its webview,
// else "null"). Pure: the caller supplies the device (shared/device.ts), the webview flag and the native app's return
// URL. Which form where, and why: docs/decisions.md "The BankID launch URL".
import type { Device } from './device.ts';

export const BANKID_WEB_LAUNCH_BASE = 'https://app.bankid.com/';
export const BANKID_SCHEME_LAUNCH_BASE = 'bankid:///';

export interface LaunchInput {
  autoStartToken: string;
  device: Pick<Device, 'mobileSafari' | 'instagram' | 'os'>;
  webview: boolean;
  /** Where the BankID app returns to inside the native app; only used in a webview. */
  nativeAppReturnUrl?: string;
}

export function usesWebLaunchLink(device: LaunchInput['device']): boolean {
  return device.mobileSafari || (device.os === 'ios' && device.instagram);
}

export function bankidLaunchUrl(input: LaunchInput): string {
  const base = usesWebLaunchLink(input.device) ? BANKID_WEB_LAUNCH_BASE : BANKID_SCHEME_LAUNCH_BASE;
  const redirect = input.webview && input.nativeAppReturnUrl ? encodeURIComponent(input.nativeAppReturnUrl) : 'null';
  return `${base}?autostarttoken=${encodeURIComponent(input.autoStartToken)}&redirect=${redirect}`;
}
