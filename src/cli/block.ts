import { blockDomain, blockEntryText, listBlocked, unblockDomain } from '../operator/blocklist.js';
import { single } from './args.js';
import { defineCommand } from './command.js';

/** `block add DOMAIN`: new links to the domain and its subdomains answer `blocked_destination`. */
export const blockAdd = defineCommand((args, store) => blockDomain(store, single(args, 'DOMAIN'), new Date()), blockEntryText);

/** `block remove DOMAIN`. */
export const blockRemove = defineCommand((args, store) => unblockDomain(store, single(args, 'DOMAIN')), blockEntryText);

/** `block list`: the blocked domains, sorted. */
export const blockList = defineCommand(
  (_args, store) => listBlocked(store),
  ({ blocked }) => (blocked.length === 0 ? 'no blocked domains' : blocked.join('\n')),
);
