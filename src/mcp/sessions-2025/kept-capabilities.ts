import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { APP_MIME_TYPE, showsApps, UI_EXTENSION } from '../apps/extension.js';
import { isObject } from '../messages.js';

/**
 * What a 2025-11-25 session keeps of the capabilities its client declared in initialize: the ones the server acts
 * on (elicitation, sampling, roots, the MCP Apps extension), in the revision's shapes, and nothing else. The
 * session's id carries them (session-id.ts), so what a client may declare must not make the id grow without bound.
 */
export function sessionCapabilities(declared: ClientCapabilities): ClientCapabilities {
  const kept: ClientCapabilities = {};
  const { elicitation, sampling, roots } = declared;
  if (isObject(elicitation)) {
    kept.elicitation = {};
    if (isObject(elicitation.form)) kept.elicitation.form = flag('applyDefaults', elicitation.form.applyDefaults);
    if (isObject(elicitation.url)) kept.elicitation.url = {};
  }
  if (isObject(sampling)) {
    kept.sampling = {};
    if (isObject(sampling.context)) kept.sampling.context = {};
    if (isObject(sampling.tools)) kept.sampling.tools = {};
  }
  if (isObject(roots)) kept.roots = flag('listChanged', roots.listChanged);
  // Only the one media type the views are made in, whatever else the client listed.
  if (showsApps(declared)) kept.extensions = { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } };
  return kept;
}

function flag<K extends string>(name: K, value: unknown): { [key in K]?: boolean } {
  return (typeof value === 'boolean' ? { [name]: value } : {}) as { [key in K]?: boolean };
}
