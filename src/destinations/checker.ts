import { checkAddress, checkHostPolicy, hostKeyOf, type CheckedDestination } from '../domain/destination.js';
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
 * (`unsafeSites`: third-party lists). A network check left out is skipped. The operator's destinations mode is
 * read on every check (the settings cache, dropped when any process changes it): `private` takes http and private
 * hosts in rules 1 and 3 and makes no DNS look-up, which would refuse the very names the mode is for, and those
 * only the intranet's own resolvers know.
 */
export function destinationChecker(options: {
  publicUrl: string;
  settings: SettingsStore;
  privateNetwork?: NetworkCheck;
  unsafeSites?: NetworkCheck;
  /**
   * Teams' domains (domains/directory.ts): links of this service too, so a link to one, and a domain's root sent to
   * one, is refused as a link to PUBLIC_URL is (a chain, or a loop).
   */
  teamDomains?: () => Promise<ReadonlySet<string>>;
}): DestinationChecker {
  // An IP address too: in private mode the service's own address, as PUBLIC_URL has it, is a destination to refuse.
  const ownHost = hostKeyOf(new URL(options.publicUrl));
  const ownHosts: ReadonlySet<string> = new Set(ownHost ? [ownHost] : []);
  const shorteners = loadShortenerList();
  return {
    async check(destination, field) {
      const { destinations: mode } = await options.settings.serviceSettings();
      const checked = checkAddress(destination, field, mode);
      if (mode === 'public') await options.privateNetwork?.check(checked, field);
      const domains = (await options.teamDomains?.()) ?? new Set<string>();
      const own = domains.size === 0 ? ownHosts : new Set([...ownHosts, ...domains]);
      checkHostPolicy(checked, { ownHosts: own, shorteners, blocked: await options.settings.blockedDomains() }, field);
      await options.unsafeSites?.check(checked, field);
      return checked;
    },
  };
}
