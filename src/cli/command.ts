import type { Config } from '../config.js';
import type { Store } from '../store/ports.js';
import type { Args } from './args.js';
import { asCliError } from './errors.js';

/** What every command produces: the object `--json` prints, and the lines printed without it. */
export interface Outcome {
  json: object;
  text: string;
  /** The text is a file (an export): printed alone and as it is, the database named on stderr as with --json. */
  data?: boolean;
  /**
   * Printed after the text (or instead of the JSON object), piece by piece as it is made, waiting for stdout to take
   * each: an export of 100,000 links, an import's outcome per row. The store stays open until it ends.
   */
  stream?: AsyncIterable<string>;
}

/** What a command may need besides the store: the configuration it runs under. */
export interface CommandContext {
  /** The service's own address, for the links a command prints (set-password links). */
  publicUrl: string;
  /** Mail is on (SMTP_URL): links are queued to their person's address (the server sends them), not printed. */
  mail: boolean;
  /** The whole configuration, for a command that checks as the server does (import checks destinations). */
  config: Config;
}

/**
 * A command that opens the databases it works on itself (copy-database reads the SQLite file and writes another
 * database), so the CLI opens no store for it: it gets the configuration instead.
 */
export interface StandaloneCommand {
  execute(args: Args, config: Config): Promise<Outcome>;
}

/** A command with its result type erased, so the dispatcher can hold every command in one table. */
export interface Command {
  execute(args: Args, store: Store, context: CommandContext): Promise<Outcome>;
}

/**
 * Pairs a command (parsed args in, a call of the operator layer, src/operator, out) with how a person reads its
 * result. The operator layer's refusals become the CLI's, word for word.
 */
export function defineCommand<R extends object>(
  run: (args: Args, store: Store, context: CommandContext) => Promise<R>,
  text: (result: R) => string,
  options: { data?: boolean } = {},
): Command {
  return {
    async execute(args, store, context) {
      const result = await run(args, store, context).catch((error: unknown) => {
        throw asCliError(error);
      });
      return { json: result, text: text(result), ...options };
    },
  };
}

/** A record as lines of `key: value`: how `limits show` and `settings show` print what is in force. */
export function keyValueLines(record: object): string {
  return Object.entries(record)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join('\n');
}
