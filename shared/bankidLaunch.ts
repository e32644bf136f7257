// The URL that starts the BankID app on the same device (identification-routing-creation §2 "Same-device view"). Pure: the
// caller supplies the device (shared/device.ts), whether we run in the native app's webview, and the
// native app's return URL.
//
// - iOS Instagram in-app browser and mobile Safari: the web-link form https://app.bankid.com/…, a
//   universal link that iOS hands to the BankID app (the bankid:// scheme is blocked or prompts there).
// - everything else: the bankid:/// scheme.
// - redirect: in the native app's webview the app returns to the native app (NATIVE_APP_RETURN_URL);
//   otherwise "null", meaning the BankID app just closes and the user comes back to the browser.
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
