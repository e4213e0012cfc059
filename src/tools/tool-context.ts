import type { Config } from '../config.js';
import { destinationChecker, type DestinationChecker, type NetworkCheck } from '../destinations/checker.js';
import { privateNetworkCheck } from '../destinations/private-network.js';
import { dnsResolver, type ResolveHost } from '../destinations/resolver.js';
import { unsafeSitesFromConfig } from '../destinations/unsafe/from-config.js';
import type { UnsafeSitesCheck } from '../destinations/unsafe/provider.js';
import { Cursors } from '../domain/cursor.js';
import { cryptoRandom, type Random } from '../domain/random.js';
import { domainDirectory } from '../domains/directory.js';
import { proofLookup } from '../domains/proof-lookup.js';
import { systemClock, type Clock } from '../shared/clock.js';
import type { Store } from '../store/ports.js';
import type { ToolContext } from './define-tool.js';

/** What a tool context is built from besides the configuration and the store. */
export interface ToolContextParts {
  clock: Clock;
  random: Random;
  /** The unsafe-site check the operator configured (unsafeSitesFromConfig), or a test's stand-in. */
  unsafeSites: UnsafeSitesCheck | undefined;
  /** A test's stand-in for the private-network check; left out, the service's resolver answers it. */
  privateNetwork?: NetworkCheck;
  /** Wraps the destination checker (the server counts and times its checks: observability). */
  observe?: (checker: DestinationChecker) => DestinationChecker;
}

/**
 * The tools' context as the server builds it, for the server and for CLI commands that check as it does (`import`
 * checks every row's destination under the same rules): one resolver for destinations and domains' proofs, the
 * directory of teams' domains, the cursors' secret the store keeps.
 */
export async function toolContext(config: Config, store: Store, parts: ToolContextParts): Promise<{ ctx: ToolContext; resolveHost: ResolveHost }> {
  const resolveHost = dnsResolver({ servers: config.dnsServers, timeoutMs: config.dnsTimeoutMs });
  const privateNetwork = parts.privateNetwork ?? privateNetworkCheck({ resolve: resolveHost });
  const directory = domainDirectory(store, config.publicUrl);
  const checker = destinationChecker({
    publicUrl: config.publicUrl,
    settings: store.settings,
    privateNetwork,
    unsafeSites: parts.unsafeSites,
    teamDomains: () => directory.held(),
  });
  // Teams' domains are proven by TXT records, looked up through the same resolver settings as destinations.
  const lookForProof = proofLookup({ servers: config.dnsServers, timeoutMs: config.dnsTimeoutMs });
  const ctx: ToolContext = {
    store,
    clock: parts.clock,
    config,
    cursors: new Cursors(await store.settings.cursorSecret()),
    destinations: parts.observe ? parts.observe(checker) : checker,
    domains: { directory, lookForProof, random: parts.random },
  };
  return { ctx, resolveHost };
}

/**
 * The tools' context for a process without the server (the CLI's `import` and `webhook add`): the real clock and
 * randomness, and the unsafe-site lists the configuration names, so its checks are the server's.
 */
export async function standaloneToolContext(config: Config, store: Store): Promise<ToolContext> {
  return (await toolContext(config, store, { clock: systemClock, random: cryptoRandom, unsafeSites: unsafeSitesFromConfig(config) })).ctx;
}
