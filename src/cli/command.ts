import type { Store } from '../store/ports.js';
import type { Args } from './args.js';

/** What every command produces: the object `--json` prints, and the lines printed without it. */
export interface Outcome {
  json: object;
  text: string;
}

/** A command with its result type erased, so the dispatcher can hold every command in one table. */
export interface Command {
  execute(args: Args, store: Store): Promise<Outcome>;
}

/**
 * Pairs a command function (parsed args and store in, result object out; reusable by an operator page later)
 * with how a person reads its result.
 */
export function defineCommand<R extends object>(
  run: (args: Args, store: Store) => Promise<R>,
  text: (result: R) => string,
): Command {
  return {
    async execute(args, store) {
      const result = await run(args, store);
      return { json: result, text: text(result) };
    },
  };
}
