import type { LinkState } from '../domain/link-state.js';
import type { LinkRecord, Store } from '../store/ports.js';
import { quote, single, type Args } from './args.js';
import { defineCommand, type Command } from './command.js';
import { dataError, type CliError } from './errors.js';

/** A link as the operator sees it; `seq` is the store's insertion counter, no business of anyone outside it. */
export type OperatorLink = Omit<LinkRecord, 'seq'>;

/** What the CLI (and the operator pages) say of a code that names no link. */
export function noSuchLink(raw: string): CliError {
  return dataError(`no link has the code ${quote(raw)}`);
}

/**
 * `link flag|disable|restore CODE`: sets the link's state. Flagged links show a warning page, disabled ones answer
 * 410; restoring makes it active again and resolves its open reports and review requests.
 */
export async function setLinkState(args: Args, store: Store, state: LinkState, now = new Date()): Promise<OperatorLink> {
  const raw = single(args, 'CODE');
  const link = await store.links.setState(raw.trim(), state, now);
  if (!link) throw noSuchLink(raw);
  const { seq: _seq, ...rest } = link;
  return rest;
}

const command = (state: LinkState, verb: string): Command =>
  defineCommand(
    (args, store) => setLinkState(args, store, state),
    (link) => `${verb} ${link.code} (${link.destination}); it is now ${link.state}`,
  );

export const linkFlag = command('flagged', 'flagged');
export const linkDisable = command('disabled', 'disabled');
export const linkRestore = command('active', 'restored');
