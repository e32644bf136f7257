// In-app browsers of social apps (spec §2 "Customer type selection"): BankID and password managers
// work badly inside them, so the Private card can hand the page over to the device's own browser.

export type SocialApp = 'instagram' | 'facebook' | 'snapchat' | 'linkedin' | 'tiktok';
export type Platform = 'android' | 'ios' | 'other';

export interface InAppBrowser {
  app: SocialApp;
  platform: Platform;
}

// Markers the apps put in their user agents. Facebook: FBAN/FBAV (iOS and Android app) and FB_IAB
// (Android in-app browser). TikTok: musical_ly, BytedanceWebview and TikTok. No leading word boundary:
// Snapchat on Android glues its marker to the previous token ("Safari/537.36Snapchat/11.46").
const appMarkers: [SocialApp, RegExp][] = [
  ['instagram', /Instagram/i],
  ['facebook', /FBAN\/|FBAV\/|FB_IAB/],
  ['snapchat', /Snapchat/i],
  ['linkedin', /LinkedInApp|LinkedIn/i],
  ['tiktok', /musical_ly|BytedanceWebview|TikTok/i],
];

export function platformOf(userAgent: string): Platform {
  if (/\bAndroid\b/i.test(userAgent)) return 'android';
  if (/\b(iPhone|iPad|iPod)\b/i.test(userAgent)) return 'ios';
  return 'other';
}

/** The social app whose in-app browser sent this user agent, or null for a normal browser. */
export function detectInAppBrowser(userAgent: string | undefined): InAppBrowser | null {
  if (!userAgent) return null;
  const hit = appMarkers.find(([, re]) => re.test(userAgent));
  return hit ? { app: hit[0], platform: platformOf(userAgent) } : null;
}

/** Tracking ids carried over to the external browser (their cookies do not cross browsers). */
export const trackingParams = ['tduid', 'at_gd'] as const;

/**
 * The hand-off link that opens https://<host><path>?<query> in the device's default browser: an
 * Android intent link or the iOS Safari scheme. Null when the platform has no such link.
 */
export function externalBrowserUrl(platform: Platform, host: string, path: string, query: Record<string, string>): string | null {
  const qs = new URLSearchParams(query).toString();
  const target = `${host}${path}${qs ? `?${qs}` : ''}`;
  if (platform === 'android') return `intent://${target}#Intent;scheme=https;action=android.intent.action.VIEW;end`;
  if (platform === 'ios') return `x-safari-https://${target}`;
  return null;
}
