/**
 * The operator CLI's command line, run. Only the parser is loaded up front; the store's adapter, the config and
 * each command's module are imported once the command line is known to be good. Apart from main.ts, the executable,
 * which runs its own command line as soon as it is imported: so one process can run many (the tests' CLI host,
 * test/helpers/cli-host.mjs), each answering as its own process would.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import type { Args } from './args.js';
import type { Command, Outcome, StandaloneCommand } from './command.js';
import { USAGE } from './commands.js';
import { describeDatabase, openStore } from '../store/open.js';
import { databaseLine } from '../support/database-line.js';
import { CliError } from './errors.js';
import { parseCommandLine } from './parse.js';

/**
 * Runs one command line as the executable does: what it prints on stdout and stderr, a failure as the one line
 * `shortlinks: <reason>`; resolves to the exit code, or null when the process should keep running (`serve`).
 * `serve` starts the server, which main.ts, above the server in the layers, hands in.
 */
export async function runCommandLine(argv: readonly string[], serve: () => Promise<void>): Promise<number | null> {
  try {
    return await run(argv, serve);
  } catch (error) {
    process.stderr.write(`shortlinks: ${reasonOf(error)}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}

/** Runs one command line; resolves to the exit code, or null when the process should keep running (`serve`). */
async function run(argv: readonly string[], serve: () => Promise<void>): Promise<number | null> {
  const invocation = parseCommandLine(argv);
  if (invocation.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const { entry, args, json } = invocation;
  const { load, loadStandalone } = entry;
  let outcome: Done;
  if (loadStandalone) outcome = await runStandalone(loadStandalone, args);
  else if (load) outcome = await runWithStore(load, args);
  else {
    await serve();
    return null;
  }
  // With --json, stdout stays exactly one JSON object, and an export exactly its file; the database is named on
  // stderr instead.
  // A streamed outcome was printed already, while its store was open (printStream).
  if (outcome.stream !== undefined) return 0;
  if (json || outcome.data) process.stderr.write(`${outcome.where}\n`);
  process.stdout.write(json ? `${JSON.stringify(outcome.json)}\n` : outcome.data ? outcome.text : `${outcome.where}\n${outcome.text}\n`);
  return 0;
}

/** What a command printed, and the line naming the database it used. */
type Done = Outcome & { where: string };

function whereOf(database: { databasePath: string; databaseUrl?: string | undefined }): string {
  return databaseLine(describeDatabase(database, !existsSync(database.databasePath)));
}

/** A command against the store, opened from the configuration and closed afterwards. */
async function runWithStore(load: () => Promise<Command>, args: Args): Promise<Done> {
  const [{ loadConfig }, command] = await Promise.all([import('../config.js'), load()]);
  const config = loadConfig();
  const where = whereOf(config);
  const store = await openStore(config);
  try {
    // Without PUBLIC_URL of its own, the CLI prints the address the server said it serves, not localhost's.
    const publicUrl = config.publicUrlGiven ? config.publicUrl : ((await store.settings.publicUrl()) ?? config.publicUrl);
    const outcome = await command.execute(args, store, { publicUrl, mail: config.mail !== undefined, config });
    if (outcome.stream !== undefined) await printStream(outcome, where, args.values.json === true);
    return { ...outcome, where };
  } catch (error) {
    // "no person has the email ..." most often means the wrong database: the one error line says which it was.
    if (error instanceof CliError && error.exitCode === 1) throw new CliError(`${error.message} (${where})`, 1);
    throw error;
  } finally {
    await store.close();
  }
}

/**
 * A streamed outcome, printed while the store is open: the database's line and the text first (as any command's;
 * on stderr with --json or for a file), then the pieces, each waiting for stdout to drain, so memory stays flat.
 */
async function printStream(outcome: Outcome, where: string, json: boolean): Promise<void> {
  if (json || outcome.data) process.stderr.write(`${where}\n`);
  else process.stdout.write(`${where}\n`);
  if (outcome.text !== '') process.stdout.write(outcome.data ? outcome.text : `${outcome.text}\n`);
  for await (const piece of outcome.stream!) {
    if (!process.stdout.write(piece)) await once(process.stdout, 'drain');
  }
}

/** A command that opens its databases itself; its refusals name them, and it never creates one. */
async function runStandalone(load: () => Promise<StandaloneCommand>, args: Args): Promise<Done> {
  const [{ loadConfig }, command] = await Promise.all([import('../config.js'), load()]);
  const config = loadConfig();
  return { ...(await command.execute(args, config)), where: whereOf({ databasePath: config.databasePath }) };
}

/** The one line an operator sees for any failure; never a stack trace. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || 'failed';
}
