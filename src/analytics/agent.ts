import Bowser from 'bowser';
import { UNKNOWN, type DeviceClass } from '../domain/analytics.js';
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
 * Parsing takes some 20 µs; most clicks come from a few thousand User-Agent strings, so the traits are remembered.
 * The strings are held only here, in memory, while they keep being seen.
 */
const parsed = new LruCache<AgentTraits>(10_000, { stats: cacheStats('agent-traits') });

/** The device class, browser and OS families of a User-Agent (bowser, MIT), cached per string. */
export function agentTraits(agent: string): AgentTraits {
  let traits = parsed.get(agent);
  if (traits === undefined) parsed.set(agent, (traits = parse(agent)));
  return traits;
}

function parse(agent: string): AgentTraits {
  const { browser, os, platform } = Bowser.parse(agent);
  return {
    device: DEVICES.get(platform.type) ?? 'other',
    browser: browser.name || UNKNOWN,
    os: os.name || UNKNOWN,
  };
}
