import Bowser from 'bowser';
import { UNKNOWN, type DeviceClass, type VisitClass } from '../domain/analytics.js';
import { cacheStats } from '../support/cache-stats.js';
import { LruCache } from '../support/lru-cache.js';

/** What a User-Agent says of the browser a click came from, by family only (never a version or a model). */
export interface AgentTraits {
  device: DeviceClass;
  /** As the parser names it: `Chrome`, `Safari`, `Firefox`, `Microsoft Edge`...; `unknown` when it cannot tell. */
  browser: string;
  /** `Windows`, `macOS`, `iOS`, `Android`, `Linux`...; `unknown` when it cannot tell. */
  os: string;
}

/** bowser's platform types → device classes; TVs, consoles and the rest are `other`. */
const DEVICES: ReadonlyMap<string | undefined, DeviceClass> = new Map([
  ['desktop', 'desktop'],
  ['mobile', 'phone'],
  ['tablet', 'tablet'],
] as const);

/**
 * What is known of one User-Agent string: the class of its visits (visit-class.ts) and, once a counted visit asked,
 * its traits (parsing takes some 20 µs). Most visits come from a few thousand strings, so both are remembered, in
 * one entry per string: held only here, in memory, while it keeps being seen.
 */
export interface AgentProfile {
  kind?: VisitClass;
  traits?: AgentTraits;
}

const profiles = new LruCache<AgentProfile>(10_000, { stats: cacheStats('user-agents') });

/** The remembered profile of a User-Agent, empty the first time. */
export function agentProfile(agent: string): AgentProfile {
  let profile = profiles.get(agent);
  if (profile === undefined) profiles.set(agent, (profile = {}));
  return profile;
}

/** The device class, browser and OS families of a User-Agent (bowser, MIT), remembered per string. */
export function agentTraits(agent: string, profile: AgentProfile = agentProfile(agent)): AgentTraits {
  return (profile.traits ??= parse(agent));
}

function parse(agent: string): AgentTraits {
  const { browser, os, platform } = Bowser.parse(agent);
  return {
    device: DEVICES.get(platform.type) ?? 'other',
    browser: browser.name || UNKNOWN,
    os: os.name || UNKNOWN,
  };
}
