import { normalizeDomain } from '../domain/destination.js';
import { apiError } from '../errors.js';
import type { Store } from '../store/ports.js';
import { quote } from './quote.js';

/** A domain's place on the blocklist after a change; `changed` is false when it already was so. */
export interface BlockEntry {
  domain: string;
  blocked: boolean;
  changed: boolean;
}

/** The domain in the form every destination check compares against (lowercase, punycode, no trailing dot). */
function domainOf(raw: string): string {
  const domain = normalizeDomain(raw.trim());
  if (domain === null) throw apiError.badRequest(`not a domain name: ${quote(raw)}`, 'domain');
  return domain;
}

/** Blocks the domain: new links to it and its subdomains answer `blocked_destination`. */
export async function blockDomain(store: Store, raw: string, now: Date): Promise<BlockEntry> {
  const domain = domainOf(raw);
  return { domain, blocked: true, changed: await store.settings.block(domain, now) };
}

/** Takes the domain off the blocklist. */
export async function unblockDomain(store: Store, raw: string): Promise<BlockEntry> {
  const domain = domainOf(raw);
  return { domain, blocked: false, changed: await store.settings.unblock(domain) };
}

/** The blocked domains, sorted. */
export async function listBlocked(store: Store): Promise<{ blocked: string[] }> {
  return { blocked: [...(await store.settings.blockedDomains())].sort() };
}

/** What came of a block or unblock, as the CLI prints it and the operator page says it. */
export const blockEntryText = (e: BlockEntry) =>
  `${e.domain} ${e.changed ? (e.blocked ? 'blocked' : 'unblocked') : e.blocked ? 'was already blocked' : 'was not blocked'}`;
