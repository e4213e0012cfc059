import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { outcomeLine, summarySentence, tally } from '../imports/import-summary.js';
import type { RowOutcome } from '../imports/run-import.js';
import { importFile } from '../operator/imports.js';
import { standaloneToolContext } from '../tools/tool-context.js';
import { required, single } from './args.js';
import type { Command } from './command.js';
import { asCliError, usageError } from './errors.js';

/**
 * `import --team T --format F FILE [--dry-run] [--no-limits]`: every row's outcome, a line each as it is made (with
 * --json, a JSON object each), then the totals. Each row is checked as the server checks createLink: the same
 * destination rules, through the same resolver and unsafe-site list the configuration names.
 */
export const linksImport: Command = {
  async execute(args, store, context) {
    const path = single(args, 'FILE');
    // Opened first, so a path that is no readable file is the command line's fault, before any row is read.
    await (await open(path).catch(() => Promise.reject(usageError(`cannot read the file ${JSON.stringify(path)}`)))).close();
    const ctx = await standaloneToolContext(context.config, store);
    const dryRun = args.values['dry-run'] === true;
    const file = createReadStream(path);
    const input = { team: required(args, 'team'), format: required(args, 'format'), file, dryRun, liftLimits: args.values['no-limits'] === true };
    const outcomes = await importFile(ctx, input).catch((error: unknown) => {
      file.destroy();
      throw asCliError(error);
    });
    const json = args.values.json === true;
    return { json: {}, text: '', stream: printed(outcomes, dryRun, json) };
  },
};

async function* printed(outcomes: AsyncIterable<RowOutcome>, dryRun: boolean, json: boolean): AsyncGenerator<string> {
  const totals = tally(dryRun);
  for await (const outcome of outcomes) {
    totals.add(outcome);
    yield json ? `${JSON.stringify(outcome)}\n` : `${outcomeLine(outcome)}\n`;
  }
  yield json ? `${JSON.stringify({ summary: totals.summary })}\n` : `${summarySentence(totals.summary)}\n`;
}
