#!/usr/bin/env node
/**
 * The operator CLI (`npx shortlinks <command>`). Only the parser is loaded up front; the store, the config and
 * each command's module are imported once the command line is known to be good, and the server only for `serve`.
 */
import { existsSync } from 'node:fs';
import { USAGE } from './commands.js';
import { databaseLine } from '../support/database-line.js';
import { CliError } from './errors.js';
import { parseCommandLine } from './parse.js';

/** Runs one command line; resolves to the exit code, or null when the process should keep running (`serve`). */
export async function run(argv: readonly string[]): Promise<number | null> {
  const invocation = parseCommandLine(argv);
  if (invocation.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const { entry, args, json } = invocation;
  if (!entry.load) {
    // serve.ts, not main.ts: main.ts starts the server as soon as it is imported (it is `npm start`'s entry).
    const { serve } = await import('../serve.js');
    await serve();
    return null;
  }
  const [{ loadConfig }, { openStore }, command] = await Promise.all([
    import('../config.js'),
    import('../store/open.js'),
    entry.load(),
  ]);
  const config = loadConfig();
  const { databasePath, publicUrl } = config;
  const where = databaseLine(databasePath, !existsSync(databasePath));
  const store = await openStore(config);
  try {
    const outcome = await command.execute(args, store, { publicUrl });
    // With --json, stdout stays exactly one JSON object; the database is named on stderr instead.
    if (json) process.stderr.write(`${where}\n`);
    process.stdout.write(json ? `${JSON.stringify(outcome.json)}\n` : `${where}\n${outcome.text}\n`);
    return 0;
  } catch (error) {
    // "no person has the email ..." most often means the wrong database: the one error line says which it was.
    if (error instanceof CliError && error.exitCode === 1) throw new CliError(`${error.message} (${where})`, 1);
    throw error;
  } finally {
    await store.close();
  }
}

/** The one line an operator sees for any failure; never a stack trace. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || 'failed';
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`shortlinks: ${reasonOf(error)}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  },
);
