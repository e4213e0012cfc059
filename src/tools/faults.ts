import type { z } from 'zod';
import { ApiError } from '../errors.js';
import type { Caller } from '../shared/caller.js';
import type { Tool, ToolContext } from './define-tool.js';

/** What a check answers in place of its value when it found a fault. */
export const FAULT: unique symbol = Symbol('fault');

/**
 * Where a tool's checks of an input put the faults they find. For `run` the first is thrown, so the caller gets
 * the API's answer and nothing after it is checked (no network wait for a destination after a bad name); for a
 * form every fault is kept and the checks go on where they can, so every field's shows at once.
 */
export interface Faults {
  /**
   * Also the refusals the store makes atomically when it writes (a name taken, a disabled link's note), read now
   * and holding nothing: a form shows them beside the others; `run` leaves them to the store's transaction.
   */
  readonly ahead: boolean;
  /** The value of a check of `field` (the param it judges), or FAULT when it refused (kept; for `run`, thrown). */
  check<T>(field: string, check: () => T | Promise<T>): Promise<T | typeof FAULT>;
}

/**
 * A tool's checks of its input before it writes: they only read, and answer what they made of the input for the
 * write, or FAULT. The one place a tool's rules are applied: `run` and the web forms both go through it.
 */
export type InputChecks<In, Out> = (input: In, caller: Caller, ctx: ToolContext, faults: Faults) => Promise<Out | typeof FAULT>;

const firstThrown: Faults = { ahead: false, check: async (_field, check) => check() };

/** Checks as `run` makes them: throws the first fault, as the API answers it; else answers what they made. */
export async function firstFault<Out>(checks: (faults: Faults) => Promise<Out | typeof FAULT>): Promise<Out> {
  // firstThrown throws at the first fault, so the checks never answer FAULT here.
  return (await checks(firstThrown)) as Out;
}

/**
 * Every fault a tool's checks find in an input, the store's read ahead included, in the order they are found (the
 * first is the one `run` would throw, unless the store's, which only the store decides). None for a tool with no
 * checks of its own: it refuses only as it writes. `refusal`, what `run` answered already, is not looked for
 * again: its field counts as at fault unchecked (a destination may wait on the network).
 */
export async function everyFault<I extends z.ZodObject, O extends z.ZodType>(
  tool: Tool<I, O>,
  input: z.output<I>,
  caller: Caller,
  ctx: ToolContext,
  refusal: ApiError | null = null,
): Promise<ApiError[]> {
  const found: ApiError[] = [];
  const keeping: Faults = {
    ahead: true,
    async check(field, check) {
      if (field === refusal?.field) return FAULT;
      try {
        return await check();
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        found.push(error);
        return FAULT;
      }
    },
  };
  await tool.faults?.(input, caller, ctx, keeping);
  return found;
}
