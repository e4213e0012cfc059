import type { z } from 'zod';
import type { SignedIn } from '../auth/web-sessions.js';
import type { Caller } from '../shared/caller.js';
import type { Tool, ToolContext } from '../tools/define-tool.js';
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
