import { usageError } from './errors.js';

/** What a command receives: its flags (strings and booleans, as given) and its positional arguments. */
export interface Args {
  values: Readonly<Record<string, string | boolean | undefined>>;
  positionals: readonly string[];
}

/** The value of a string flag the command cannot do without. */
export function required(args: Args, flag: string): string {
  const value = args.values[flag];
  if (typeof value !== 'string') throw usageError(`missing --${flag}`);
  return value;
}

/** The value of an optional string flag, or undefined. */
export function optional(args: Args, flag: string): string | undefined {
  const value = args.values[flag];
  return typeof value === 'string' ? value : undefined;
}

/** The one positional argument a command like `token revoke TOKEN_ID` takes; `what` names it in the error. */
export function single(args: Args, what: string): string {
  const [value] = args.positionals;
  if (value === undefined) throw usageError(`missing ${what}`);
  return value;
}

/** The string flags among `flags` that were given, by flag: what a `set` command changes (limits, settings). */
export function givenStrings<F extends string>(args: Args, flags: readonly F[]): Partial<Record<F, string>> {
  return Object.fromEntries(
    flags.flatMap((flag) => {
      const value = args.values[flag];
      return typeof value === 'string' ? [[flag, value]] : [];
    }),
  ) as Partial<Record<F, string>>;
}
