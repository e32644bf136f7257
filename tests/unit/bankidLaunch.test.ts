import { describe, expect, it } from 'vitest';
import { bankidLaunchUrl } from '../../shared/bankidLaunch.ts';
import { deviceFromUserAgent } from '../../shared/device.ts';
import { userAgents } from '../support/userAgents.ts';

const token = '7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6';
const nativeAppReturnUrl = 'nordicbroker://bankid-return?from=onboarding';
const nativeEncoded = encodeURIComponent(nativeAppReturnUrl);

const table: [keyof typeof userAgents, boolean, string][] = [
  ['iphoneSafari', false, `https://app.bankid.com/?autostarttoken=${token}&redirect=null`],
  ['iphoneSafari', true, `https://app.bankid.com/?autostarttoken=${token}&redirect=${nativeEncoded}`],
  ['iphoneInstagram', false, `https://app.bankid.com/?autostarttoken=${token}&redirect=null`],
  ['ipadSafariOld', false, `https://app.bankid.com/?autostarttoken=${token}&redirect=null`],
  ['iphoneChrome', false, `bankid:///?autostarttoken=${token}&redirect=null`],
  ['iphoneFacebook', false, `bankid:///?autostarttoken=${token}&redirect=null`],
  ['androidChrome', false, `bankid:///?autostarttoken=${token}&redirect=null`],
  ['androidChrome', true, `bankid:///?autostarttoken=${token}&redirect=${nativeEncoded}`],
  ['androidInstagram', false, `bankid:///?autostarttoken=${token}&redirect=null`],
  ['windowsChrome', false, `bankid:///?autostarttoken=${token}&redirect=null`],
  ['macSafari', false, `bankid:///?autostarttoken=${token}&redirect=null`],
];

describe('bankidLaunchUrl (identification-routing-creation §2 "Same-device view")', () => {
  it.each(table)('%s, webview %s', (ua, webview, expected) => {
    expect(bankidLaunchUrl({ autoStartToken: token, device: deviceFromUserAgent(userAgents[ua]), webview, nativeAppReturnUrl })).toBe(expected);
  });

  it('uses redirect=null in a webview without a configured native return URL', () => {
    expect(bankidLaunchUrl({ autoStartToken: token, device: deviceFromUserAgent(userAgents.androidChrome), webview: true })).toBe(
      `bankid:///?autostarttoken=${token}&redirect=null`,
    );
  });
});
