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
 * Refuses values no param can hold but that would hurt later: nesting deeper than 32 levels, which could overflow
 * a recursive walk, and strings with lone surrogates (they cannot be stored as sent). Throws 400 `bad_request`.
 */
export function checkJsonValue(value: unknown): void {
  checkJson(value, MAX_DEPTH, true);
}

/**
 * Refuses a value nested deeper than `maxDepth` (JSON.stringify and other recursive walks overflow the stack some
 * thousands deep), with 400 `bad_request`; strings are not looked at.
 */
export function checkNesting(value: unknown, maxDepth: number): void {
  checkJson(value, maxDepth, false);
}

/** One iterative walk for both, so any depth is safe to check. */
function checkJson(value: unknown, maxDepth: number, strings: boolean): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (strings && !item.isWellFormed()) throw apiError.badRequest('A string holds a lone UTF-16 surrogate.');
    } else if (item !== null && typeof item === 'object') {
      if (depth >= maxDepth) throw apiError.badRequest(`The body nests deeper than ${maxDepth} levels.`);
      for (const child of Object.values(item)) stack.push([child, depth + 1]);
    }
  }
}
