// In-app browsers of social apps (identification-routing-creation §2 "Customer type selection"): BankID and password managers
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
 * The hand-off link that opens <origin><path>?<query> in the device's default browser: an Android intent
 * link or the iOS Safari scheme. `origin` is one of our configured origins (never a request header), so
 * its scheme and host are ours. Null when the platform has no such link or the origin is not http(s).
 */
export function externalBrowserUrl(platform: Platform, origin: string, path: string, query: Record<string, string>): string | null {
  const base = URL.canParse(origin) ? new URL(origin) : null;
  if (!base || (base.protocol !== 'https:' && base.protocol !== 'http:')) return null;
  const scheme = base.protocol.slice(0, -1);
  const qs = new URLSearchParams(query).toString();
  const target = `${base.host}${path}${qs ? `?${qs}` : ''}`;
  if (platform === 'android') return `intent://${target}#Intent;scheme=${scheme};action=android.intent.action.VIEW;end`;
  if (platform === 'ios') return `x-safari-${scheme}://${target}`;
  return null;
}
