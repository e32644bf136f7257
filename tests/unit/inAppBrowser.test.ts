import { describe, expect, it } from 'vitest';
import { detectInAppBrowser, externalBrowserUrl, platformOf } from '../../shared/inAppBrowser.ts';

// Real user agents as sent by the apps' in-app browsers and by ordinary browsers.
const userAgents = {
  instagramIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 295.0.0.22.109 (iPhone14,5; iOS 16_6; en_US; en; scale=3.00; 1170x2532; 500118232)',
  instagramAndroid:
    'Mozilla/5.0 (Linux; Android 13; SM-S908B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/115.0.5790.166 Mobile Safari/537.36 Instagram 295.0.0.32.119 Android (33/13; 480dpi; 1080x2340; samsung; SM-S908B; b0q; qcom; en_US; 504073563)',
  facebookIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/16.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]',
  facebookAndroid:
    'Mozilla/5.0 (Linux; Android 12; SM-G991B Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/114.0.5735.196 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/423.0.0.21.64;]',
  snapchatIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/12.35.0.38 (like Safari/8615.1.26.10.23, panda)',
  snapchatAndroid:
    'Mozilla/5.0 (Linux; Android 11; Pixel 4a Build/RQ3A.210805.001.A1; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/92.0.4515.159 Mobile Safari/537.36Snapchat/11.46.0.33 (like Chrome/92.0.4515.159)',
  linkedinIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.28.3498',
  linkedinAndroid:
    'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.5845.114 Mobile Safari/537.36 [LinkedInApp]/4.1.853',
  tiktokAndroid:
    'Mozilla/5.0 (Linux; Android 12; SM-A525F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/110.0.5481.153 Mobile Safari/537.36 trill_290203 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/29.2.3 ByteLocale/en ByteFullLocale/en Region/GB Spark/1.2.7-alpha.8 AppVersion/29.2.3 BytedanceWebview/d8a21c6',
  tiktokIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_30.8.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US RevealType/Dialog isDarkMode/0 WKWebView/1 BytedanceWebview/d8a21c6 TikTok/30.8.0',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  chromeIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
  safariIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0',
  samsungInternet:
    'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
} as const;

describe('detectInAppBrowser', () => {
  it.each([
    ['instagramIos', 'instagram', 'ios'],
    ['instagramAndroid', 'instagram', 'android'],
    ['facebookIos', 'facebook', 'ios'],
    ['facebookAndroid', 'facebook', 'android'],
    ['snapchatIos', 'snapchat', 'ios'],
    ['snapchatAndroid', 'snapchat', 'android'],
    ['linkedinIos', 'linkedin', 'ios'],
    ['linkedinAndroid', 'linkedin', 'android'],
    ['tiktokAndroid', 'tiktok', 'android'],
    ['tiktokIos', 'tiktok', 'ios'],
  ] as const)('%s is the %s in-app browser on %s', (ua, app, platform) => {
    expect(detectInAppBrowser(userAgents[ua])).toEqual({ app, platform });
  });

  it.each(['chromeAndroid', 'chromeWindows', 'chromeIos', 'safariIos', 'safariMac', 'firefoxWindows', 'firefoxAndroid', 'samsungInternet'] as const)(
    '%s is a normal browser',
    (ua) => {
      expect(detectInAppBrowser(userAgents[ua])).toBeNull();
    },
  );

  it('handles a missing user agent', () => {
    expect(detectInAppBrowser(undefined)).toBeNull();
    expect(detectInAppBrowser('')).toBeNull();
  });
});

describe('platformOf', () => {
  it.each([
    [userAgents.chromeAndroid, 'android'],
    [userAgents.safariIos, 'ios'],
    ['Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0', 'ios'],
    [userAgents.chromeWindows, 'other'],
  ] as const)('%s → %s', (ua, platform) => {
    expect(platformOf(ua)).toBe(platform);
  });
});

describe('externalBrowserUrl', () => {
  it.each([
    ['android', 'https://se.example.com', {}, 'intent://se.example.com/onboarding#Intent;scheme=https;action=android.intent.action.VIEW;end'],
    [
      'android',
      'https://se.example.com',
      { campaign: 'ask', tduid: 'T 1', at_gd: 'g&d' },
      'intent://se.example.com/onboarding?campaign=ask&tduid=T+1&at_gd=g%26d#Intent;scheme=https;action=android.intent.action.VIEW;end',
    ],
    ['ios', 'https://se.example.com', {}, 'x-safari-https://se.example.com/onboarding'],
    ['ios', 'https://se.example.com', { tduid: 'abc', webview: 'false' }, 'x-safari-https://se.example.com/onboarding?tduid=abc&webview=false'],
    // The scheme and port are the configured origin's (a local http server stays http).
    ['ios', 'http://dk.localhost:3000', {}, 'x-safari-http://dk.localhost:3000/onboarding'],
    ['android', 'http://dk.localhost:3000', {}, 'intent://dk.localhost:3000/onboarding#Intent;scheme=http;action=android.intent.action.VIEW;end'],
    ['other', 'https://se.example.com', { tduid: 'abc' }, null],
    ['ios', 'javascript:alert(1)', {}, null],
    ['android', 'not a url', {}, null],
  ] as const)('%s on %s with %j → %s', (platform, origin, query, expected) => {
    expect(externalBrowserUrl(platform, origin, '/onboarding', query)).toBe(expected);
  });
});
