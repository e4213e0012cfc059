import { exportTeamLinks } from '../operator/links-export.js';
import { optional, required } from './args.js';
import type { Command } from './command.js';
import { asCliError } from './errors.js';

/**
 * `export --team T [--format csv|jsonl]`: the team's links on stdout alone (the database is named on stderr), so
 * that `> links.csv` keeps the file clean; written as it is read, however many links the team has.
 */
export const linksExport: Command = {
  async execute(args, store, context) {
    const stream = await exportTeamLinks(store, { team: required(args, 'team'), format: optional(args, 'format') }, context.publicUrl).catch((error: unknown) => {
      throw asCliError(error);
    });
    return { json: {}, text: '', data: true, stream };
  },
};
