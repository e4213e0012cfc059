import { describe, expect, it } from 'vitest';
import { agentTraits } from '../../src/analytics/agent.js';
import { BROWSERS } from './user-agents.js';

describe('the device, browser and OS of a User-Agent', () => {
  it.each([
    [BROWSERS.chromeWindows, { device: 'desktop', browser: 'Chrome', os: 'Windows' }],
    [BROWSERS.edgeWindows, { device: 'desktop', browser: 'Microsoft Edge', os: 'Windows' }],
    [BROWSERS.safariMac, { device: 'desktop', browser: 'Safari', os: 'macOS' }],
    [BROWSERS.firefoxLinux, { device: 'desktop', browser: 'Firefox', os: 'Linux' }],
    [BROWSERS.safariIphone, { device: 'phone', browser: 'Safari', os: 'iOS' }],
    [BROWSERS.chromeAndroid, { device: 'phone', browser: 'Chrome', os: 'Android' }],
    [BROWSERS.safariIpad, { device: 'tablet', browser: 'Safari', os: 'iOS' }],
    [BROWSERS.samsungTv, { device: 'other', browser: 'Samsung Internet for Android', os: 'Tizen' }],
    ['Mozilla/5.0', { device: 'other', browser: 'unknown', os: 'unknown' }],
  ])('%s', (agent, traits) => {
    expect(agentTraits(agent)).toEqual(traits);
  });

  it('answers a User-Agent seen before from its cache, the very same traits', () => {
    expect(agentTraits(BROWSERS.safariIphone)).toBe(agentTraits(BROWSERS.safariIphone));
  });
});
