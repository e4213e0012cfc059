import { checkDestination, normalizeDomain, type CheckedDestination } from '../domain/destination.js';
import { loadShortenerList } from '../domain/shorteners.js';
import type { SettingsStore } from '../store/ports.js';

/** Runs the spec's six destination rules, in order; throws the ApiError of the first that fails. */
export interface DestinationChecker {
  check(destination: string, field: string): Promise<CheckedDestination>;
}

/**
 * A check that needs the network: rule 3 by DNS (private addresses behind a name) and rule 6 (unsafe-site lists).
 * They run after the rules that need nothing but the address, in the spec's order.
 */
export interface NetworkCheck {
  check(destination: CheckedDestination, field: string): Promise<void>;
}

export function destinationChecker(options: {
  publicUrl: string;
  settings: SettingsStore;
  networkChecks?: NetworkCheck[];
}): DestinationChecker {
  const ownHost = normalizeDomain(new URL(options.publicUrl).hostname);
  const ownHosts: ReadonlySet<string> = new Set(ownHost ? [ownHost] : []);
  const shorteners = loadShortenerList();
  const networkChecks = options.networkChecks ?? [];
  return {
    async check(destination, field) {
      const policy = { ownHosts, shorteners, blocked: options.settings.blockedDomains() };
      const checked = checkDestination(destination, policy, field);
      for (const network of networkChecks) await network.check(checked, field);
      return checked;
    },
  };
}
