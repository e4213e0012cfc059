import type { ServerResponse } from 'node:http';

/**
 * The one place `Retry-After` is written, for every surface (API, MCP, pages, OAuth): the whole seconds a 429 or
 * 503 asks the caller to wait. Nothing is written when there is no wait to name.
 */
export function setRetryAfter(res: Pick<ServerResponse, 'setHeader'>, seconds: number | undefined): void {
  if (seconds !== undefined) res.setHeader('Retry-After', String(seconds));
}
