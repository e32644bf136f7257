// Which kind of device a request comes from, decided from the User-Agent (and the Sec-CH-UA-Mobile client hint where
// Chromium sends it). Drives the Swedish BankID views (identification-routing-creation §2: a choice screen on mobile or
// tablet, the QR code directly on desktop) and the BankID launch URL form (shared/bankidLaunch.ts). An iPad with
// iPadOS 13+ Safari reads as a desktop (docs/decisions.md "Which device").

export type DeviceClass = 'mobile' | 'tablet' | 'desktop';
export type DeviceOs = 'ios' | 'android' | 'other';

export interface Device {
  deviceClass: DeviceClass;
  os: DeviceOs;
  /** Safari itself on iPhone/iPad (not Chrome, Firefox, Edge or an app's in-app browser on iOS). */
  mobileSafari: boolean;
  /** Instagram's in-app browser. */
  instagram: boolean;
}

// Browsers and in-app browsers on iOS that put "Safari" in their User-Agent but are not Safari.
const notSafariOnIos = /CriOS|FxiOS|EdgiOS|OPiOS|OPT\/|YaBrowser|DuckDuckGo|GSA\/|Instagram|FBAN|FBAV|FB_IAB|Snapchat|LinkedInApp|musical_ly|TikTok|Line\//i;

/**
 * @param userAgent the User-Agent header ('' when missing)
 * @param clientHintMobile the Sec-CH-UA-Mobile header ('?1' on a Chromium phone), if sent
 */
export function deviceFromUserAgent(userAgent: string, clientHintMobile?: string): Device {
  const ua = userAgent;
  const ios = /iPhone|iPad|iPod/.test(ua);
  const android = /Android/i.test(ua);
  const instagram = /Instagram/i.test(ua);

  let deviceClass: DeviceClass = 'desktop';
  if (/iPad|Tablet|PlayBook|Silk\//i.test(ua) || (android && !/Mobile/i.test(ua))) deviceClass = 'tablet';
  else if (/iPhone|iPod|Mobi|Windows Phone|IEMobile|BlackBerry|Opera Mini/i.test(ua)) deviceClass = 'mobile';
  else if (clientHintMobile?.trim() === '?1') deviceClass = 'mobile';

  return {
    deviceClass,
    os: ios ? 'ios' : android ? 'android' : 'other',
    mobileSafari: ios && /Safari\//.test(ua) && /Version\//.test(ua) && !notSafariOnIos.test(ua),
    instagram,
  };
}

/** Mobile phones and tablets get the "this device / other device" choice first. */
export function offersDeviceChoice(device: Device): boolean {
  return device.deviceClass !== 'desktop';
}
