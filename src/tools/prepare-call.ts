import { apiError } from '../errors.js';
import { parseParams } from './bad-request.js';
import { scopeOf, type Tool } from './define-tool.js';
import { type Caller } from '../shared/caller.js';

/** How deep a body may nest; no param of any tool needs more than a few levels. */
const MAX_DEPTH = 32;

/**
 * What every surface does before `run`, written once: the caller's scopes, then the params (a JSON object of
 * well-formed strings, nested at most 32 deep, matching the tool's schema). Throws 403 `insufficient_scope` or
 * 400 `bad_request`.
 */
export function prepareCall(tool: Tool, caller: Caller, params: unknown): unknown {
  if (caller.scopes !== null && !caller.scopes.has(scopeOf(tool))) {
    throw apiError.insufficientScope(`The token may not call ${tool.operation ?? tool.name}.`);
  }
  checkJsonValue(params);
  return parseParams(tool.input, params);
}

/**
 * Refuses values no param can hold but that would hurt later: nesting deep enough to overflow a recursive walk,
 * and strings with lone surrogates (they cannot be stored as sent). Iterative, so any depth is safe to check.
 */
export function checkJsonValue(value: unknown): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (!item.isWellFormed()) throw apiError.badRequest('A string holds a lone UTF-16 surrogate.');
    } else if (item !== null && typeof item === 'object') {
      if (depth >= MAX_DEPTH) throw apiError.badRequest(`The body nests deeper than ${MAX_DEPTH} levels.`);
      for (const child of Object.values(item)) stack.push([child, depth + 1]);
    }
  }
}
