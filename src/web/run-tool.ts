import type { z } from 'zod';
import type { SignedIn } from '../auth/web-sessions.js';
import type { ApiError } from '../errors.js';
import type { Caller } from '../shared/caller.js';
import type { Tool, ToolContext } from '../tools/define-tool.js';
import { everyFault } from '../tools/faults.js';
import { prepareCall } from '../tools/prepare-call.js';

/** A signed-in person as a tool's caller: every scope (pages are the person's own), no token limit to one team. */
export function callerOf(me: SignedIn): Caller {
  return { personId: me.person.id, scopes: null, recordTeamId: null };
}

/**
 * Runs a tool exactly as the API would: the same parsing, rules and errors. Pages call tools only through this,
 * so a page can never show or change more than the API lets the same person.
 */
export async function runTool<I extends z.ZodObject, O extends z.ZodType>(
  ctx: ToolContext,
  tool: Tool<I, O>,
  me: SignedIn,
  params: unknown,
): Promise<z.output<O>> {
  const caller = callerOf(me);
  const input = prepareCall(tool as unknown as Tool, caller, params) as z.output<I>;
  return tool.run(input, caller, ctx);
}

/**
 * Every fault the tool's own checks find in a form's input, for the person (a store's refusal, read ahead,
 * included): a form shows them all at once where `run` stops at the first. The input is the form's values as the
 * tool takes them; `refusal`, what `run` answered for them, is not looked for again.
 */
export function faultsOf<I extends z.ZodObject, O extends z.ZodType>(
  ctx: ToolContext,
  tool: Tool<I, O>,
  me: SignedIn,
  input: z.output<I>,
  refusal: ApiError | null = null,
): Promise<ApiError[]> {
  return everyFault(tool, input, callerOf(me), ctx, refusal);
}
