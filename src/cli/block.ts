import { normalizeDomain } from '../domain/destination.js';
import type { Store } from '../store/ports.js';
import { quote, single, type Args } from './args.js';
import { defineCommand } from './command.js';
import { usageError } from './errors.js';

/** A domain's place on the blocklist after the command; `changed` is false when it already was so. */
export interface BlockEntry {
  domain: string;
  blocked: boolean;
  changed: boolean;
}

/** The domain in the form every destination check compares against (lowercase, punycode, no trailing dot). */
function domainOf(args: Args): string {
  const raw = single(args, 'DOMAIN');
  const domain = normalizeDomain(raw.trim());
  if (domain === null) throw usageError(`not a domain name: ${quote(raw)}`);
  return domain;
}

/** `block add DOMAIN`: new links to the domain and its subdomains answer `blocked_destination`. */
export async function blockDomain(args: Args, store: Store, now = new Date()): Promise<BlockEntry> {
  const domain = domainOf(args);
  return { domain, blocked: true, changed: await store.settings.block(domain, now) };
}

/** `block remove DOMAIN`. */
export async function unblockDomain(args: Args, store: Store): Promise<BlockEntry> {
  const domain = domainOf(args);
  return { domain, blocked: false, changed: await store.settings.unblock(domain) };
}

/** `block list`: the blocked domains, sorted. */
export async function listBlocked(_args: Args, store: Store): Promise<{ blocked: string[] }> {
  return { blocked: [...(await store.settings.blockedDomains())].sort() };
}

/** What came of `block add|remove`, as the CLI prints it and the operator page says it. */
export const blockEntryText = (e: BlockEntry) =>
  `${e.domain} ${e.changed ? (e.blocked ? 'blocked' : 'unblocked') : e.blocked ? 'was already blocked' : 'was not blocked'}`;

export const blockAdd = defineCommand(blockDomain, blockEntryText);
export const blockRemove = defineCommand(unblockDomain, blockEntryText);
export const blockList = defineCommand(listBlocked, ({ blocked }) =>
  blocked.length === 0 ? 'no blocked domains' : blocked.join('\n'),
);
