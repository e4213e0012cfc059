import { checkAddress, checkHostPolicy, normalizeDomain, type CheckedDestination } from '../domain/destination.js';
import { loadShortenerList } from '../domain/shorteners.js';
import type { SettingsStore } from '../store/ports.js';

/** Runs the spec's six destination rules, in order; throws the ApiError of the first that fails. */
export interface DestinationChecker {
  check(destination: string, field: string): Promise<CheckedDestination>;
}

/**
 * A check that needs the network. Throws the rule's ApiError, or 503 `check_unavailable` (with `retryAfter`) when
 * it could not be made.
 */
export interface NetworkCheck {
  check(destination: CheckedDestination, field: string): Promise<void>;
}

/**
 * The six rules in the spec's order: 1 and 2 (https, length) and the literal part of 3 from the address alone;
 * then the rest of 3 (`privateNetwork`: what the host name resolves to); 4 and 5 (shorteners, blocklist); 6
 * (`unsafeSites`: third-party lists). A network check left out is skipped.
 */
export function destinationChecker(options: {
  publicUrl: string;
  settings: SettingsStore;
  privateNetwork?: NetworkCheck;
  unsafeSites?: NetworkCheck;
}): DestinationChecker {
  const ownHost = normalizeDomain(new URL(options.publicUrl).hostname);
  const ownHosts: ReadonlySet<string> = new Set(ownHost ? [ownHost] : []);
  const shorteners = loadShortenerList();
  return {
    async check(destination, field) {
      const checked = checkAddress(destination, field);
      await options.privateNetwork?.check(checked, field);
      checkHostPolicy(checked, { ownHosts, shorteners, blocked: await options.settings.blockedDomains() }, field);
      await options.unsafeSites?.check(checked, field);
      return checked;
    },
  };
}
