import { parseArgs } from 'node:util';
import type { Args } from './args.js';
import { COMMANDS, COMMON_FLAGS, OPTIONS, type CommandEntry } from './commands.js';
import { usageError } from './errors.js';

/** A command line, understood: `--help`, or a command with its arguments. */
export type Invocation =
  | { kind: 'help' }
  | { kind: 'command'; name: string; entry: CommandEntry; args: Args; json: boolean };

/** Parses argv (without node and the script); throws a usage error (exit code 2) naming what is wrong. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  const { values, positionals } = parseOrExplain(argv);
  if (values.help) return { kind: 'help' };
  const [group, sub] = positionals;
  if (group === undefined) throw usageError('missing command; run shortlinks --help');

  const { name, entry } = findCommand(group, sub);
  const rest = positionals.slice(name.split(' ').length);
  for (const flag of Object.keys(values)) {
    if (!COMMON_FLAGS.includes(flag) && !entry.flags.includes(flag)) throw usageError(`${name} takes no --${flag}`);
  }
  const missing = entry.positionals[rest.length];
  if (missing !== undefined) throw usageError(`${name} needs ${missing}`);
  const extra = rest[entry.positionals.length];
  if (extra !== undefined) throw usageError(`unexpected argument ${JSON.stringify(extra)}`);
  return { kind: 'command', name, entry, args: { values, positionals: rest }, json: values.json === true };
}

function findCommand(group: string, sub: string | undefined): { name: string; entry: CommandEntry } {
  const single = COMMANDS[group];
  if (single) return { name: group, entry: single };
  const subs = Object.keys(COMMANDS)
    .filter((name) => name.startsWith(`${group} `))
    .map((name) => name.slice(group.length + 1));
  if (subs.length === 0) throw usageError(`unknown command ${JSON.stringify(group)}; run shortlinks --help`);
  const entry = sub === undefined ? undefined : COMMANDS[`${group} ${sub}`];
  if (!entry) {
    const known = subs.join(', ');
    if (sub === undefined) throw usageError(`${group} needs a subcommand: ${known}`);
    throw usageError(`unknown command ${JSON.stringify(`${group} ${sub}`)}; ${group} takes ${known}`);
  }
  return { name: `${group} ${sub}`, entry };
}

/** parseArgs, with its multi-line messages turned into the one short line the CLI prints. */
function parseOrExplain(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw usageError(`unknown option ${option}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw usageError(/does not take/.test(message) ? `${option} takes no value` : `${option} needs a value`);
    }
    throw usageError(message.split('\n')[0] ?? 'bad command line');
  }
}
