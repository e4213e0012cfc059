import { toolNamed } from '../tools/index.js';
import { covers, DEFAULT_SCOPE, scopeNeeded, type Scope } from './scopes.js';

/**
 * The `WWW-Authenticate` challenges of /mcp (RFC 6750 §3, RFC 9728 §5.1, MCP 2025-11-25 "Scope Selection" and
 * "Runtime Insufficient Scope Errors"). Every challenge names the protected resource metadata and the scope to
 * ask for, so a client can sign in (or step up) from the challenge alone. (The SDK's requireBearerAuth answers the
 * same shape but is Express middleware for OAuth tokens only; /mcp is a node:http handler behind the gate, which
 * also takes personal tokens and counts every call against the person's budget.)
 */
export function bearerChallenge(
  resourceMetadata: string,
  options: { error?: 'invalid_token' | 'insufficient_scope'; description?: string; scope?: Scope } = {},
): string {
  const parts: string[] = [];
  if (options.error) parts.push(`error="${options.error}"`);
  if (options.description) parts.push(`error_description="${options.description.replace(/["\\]/g, '')}"`);
  parts.push(`resource_metadata="${resourceMetadata}"`, `scope="${options.scope ?? DEFAULT_SCOPE}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * The scope to ask for when a JSON-RPC body (one message or a batch) calls a tool `granted` does not cover, or
 * null when it needs nothing more. Read-only tools need `links:read`, the others `links` (which covers both).
 * Unknown tools are left to the MCP server to refuse.
 */
export function missingScope(body: unknown, granted: readonly string[]): Scope | null {
  let missing: Scope | null = null;
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    const tool = method === 'tools/call' && typeof params?.name === 'string' ? toolNamed(params.name) : undefined;
    if (tool && !covers(granted, scopeNeeded(tool))) missing = missing === 'links' ? 'links' : scopeNeeded(tool);
  }
  return missing;
}
