import { describe, expect, it } from 'vitest';
import { deviceFromUserAgent, offersDeviceChoice, type Device } from '../../shared/device.ts';
import { userAgents } from '../support/userAgents.ts';

const table: [keyof typeof userAgents | '', string | undefined, Device][] = [
  ['iphoneSafari', undefined, { deviceClass: 'mobile', os: 'ios', mobileSafari: true, instagram: false }],
  ['iphoneChrome', undefined, { deviceClass: 'mobile', os: 'ios', mobileSafari: false, instagram: false }],
  ['iphoneInstagram', undefined, { deviceClass: 'mobile', os: 'ios', mobileSafari: false, instagram: true }],
  ['iphoneFacebook', undefined, { deviceClass: 'mobile', os: 'ios', mobileSafari: false, instagram: false }],
  ['ipadSafariOld', undefined, { deviceClass: 'tablet', os: 'ios', mobileSafari: true, instagram: false }],
  // iPadOS 13+ Safari presents itself as a Mac and sends no client hints: treated as a desktop.
  ['ipadDesktopUa', undefined, { deviceClass: 'desktop', os: 'other', mobileSafari: false, instagram: false }],
  ['androidChrome', '?1', { deviceClass: 'mobile', os: 'android', mobileSafari: false, instagram: false }],
  ['androidTablet', '?0', { deviceClass: 'tablet', os: 'android', mobileSafari: false, instagram: false }],
  ['androidInstagram', undefined, { deviceClass: 'mobile', os: 'android', mobileSafari: false, instagram: true }],
  ['windowsChrome', '?0', { deviceClass: 'desktop', os: 'other', mobileSafari: false, instagram: false }],
  ['macSafari', undefined, { deviceClass: 'desktop', os: 'other', mobileSafari: false, instagram: false }],
  ['linuxFirefox', undefined, { deviceClass: 'desktop', os: 'other', mobileSafari: false, instagram: false }],
  // A Chromium phone in "desktop site" mode still says it is mobile through the client hint.
  ['headlessChromium', '?1', { deviceClass: 'mobile', os: 'other', mobileSafari: false, instagram: false }],
  ['headlessChromium', undefined, { deviceClass: 'desktop', os: 'other', mobileSafari: false, instagram: false }],
  ['', undefined, { deviceClass: 'desktop', os: 'other', mobileSafari: false, instagram: false }],
];

describe('deviceFromUserAgent', () => {
  it.each(table)('%s (Sec-CH-UA-Mobile %s)', (name, hint, expected) => {
    expect(deviceFromUserAgent(name ? userAgents[name] : '', hint)).toEqual(expected);
  });

  it('offers the device choice on phones and tablets only', () => {
    expect(offersDeviceChoice(deviceFromUserAgent(userAgents.iphoneSafari))).toBe(true);
    expect(offersDeviceChoice(deviceFromUserAgent(userAgents.androidTablet))).toBe(true);
    expect(offersDeviceChoice(deviceFromUserAgent(userAgents.windowsChrome))).toBe(false);
    expect(offersDeviceChoice(deviceFromUserAgent(userAgents.ipadDesktopUa))).toBe(false);
  });
});
