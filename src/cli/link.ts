import type { LinkState } from '../domain/link-state.js';
import { setLinkState } from '../operator/links.js';
import { single } from './args.js';
import { defineCommand, type Command } from './command.js';

/**
 * `link flag|disable|restore CODE`: sets the link's state. Flagged links show a warning page, disabled ones answer
 * 410; restoring makes it active again and resolves its open reports and review requests.
 */
const command = (state: LinkState, verb: string): Command =>
  defineCommand(
    (args, store) => setLinkState(store, single(args, 'CODE'), state, new Date()),
    (link) => `${verb} ${link.code} (${link.destination}); it is now ${link.state}`,
  );

export const linkFlag = command('flagged', 'flagged');
export const linkDisable = command('disabled', 'disabled');
export const linkRestore = command('active', 'restored');
