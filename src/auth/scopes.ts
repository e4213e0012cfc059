import { tools } from '../tools/index.js';
import { scopeOf, type Tool } from '../tools/define-tool.js';

/**
 * The scopes an assistant can be granted. `links` is everything the tools do (reading and changing the links of
 * the person's teams); `links:read` only the read-only tools. `links` includes `links:read`. No scope reaches
 * tokens, teams or the account: there are no tools for those.
 */
export const SCOPES = {
  links: 'See, make, change and delete the links of your teams, report links and ask for reviews.',
  'links:read': 'See your teams and their links and click counts.',
} as const;

export type Scope = keyof typeof SCOPES;

export const SCOPES_SUPPORTED: readonly Scope[] = ['links', 'links:read'];
/** What a client that names no scope gets, and what a 401 challenge asks for. */
export const DEFAULT_SCOPE: Scope = 'links';

export const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);

/**
 * The scopes granted for a request: the known ones asked for, in our order (unknown ones such as
 * `offline_access` are ignored, as RFC 6749 §3.3 allows); `links` when none is known.
 */
export function grantedScopes(requested: readonly string[] | undefined): Scope[] {
  const known = new Set((requested ?? []).filter(isScope));
  return known.size === 0 ? [DEFAULT_SCOPE] : SCOPES_SUPPORTED.filter((scope) => known.has(scope));
}

/** The scope a tool needs: `links:read` for a read-only tool, `links` for the rest. */
export function scopeNeeded(tool: Tool): Scope {
  return tool.annotations.readOnlyHint ? 'links:read' : 'links';
}

/** True when the granted scopes cover `needed` (`links` covers `links:read`). */
export function covers(granted: readonly string[], needed: Scope): boolean {
  return granted.includes('links') || granted.includes(needed);
}

/** The operations a caller with these scopes may run (the Caller's scopes): null for all. */
export function operationsOf(granted: readonly string[]): ReadonlySet<string> | null {
  if (granted.includes('links')) return null;
  return new Set(tools.filter((tool) => covers(granted, scopeNeeded(tool))).map(scopeOf));
}
