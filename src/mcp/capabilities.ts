import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { isObject } from './messages.js';

/**
 * What a client declared it can do with elicitation (2025-11-25 in initialize, 2026-07-28 in each request's
 * `_meta`). `elicitation: {}` means forms only, for backwards compatibility; `{ url: {} }` means links only.
 */
function elicitationOf(capabilities: unknown): { form?: unknown; url?: unknown } | undefined {
  const elicitation = (capabilities as ClientCapabilities | undefined)?.elicitation;
  return typeof elicitation === 'object' && elicitation !== null ? elicitation : undefined;
}

/** True when the client can show the person a form (deleteLink's question). */
export function canElicitForm(capabilities: unknown): boolean {
  const elicitation = elicitationOf(capabilities);
  return elicitation !== undefined && (isObject(elicitation.form) || !isObject(elicitation.url));
}

/** True when the client can send the person to an address (the first step at /welcome). */
export function canElicitUrl(capabilities: unknown): boolean {
  return isObject(elicitationOf(capabilities)?.url);
}
